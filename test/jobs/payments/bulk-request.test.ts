import { describe, expect, it } from 'vitest';
import { answeredLines, bulkRequest, type BulkHead } from '../../../jobs/submit/bulk-request.js';
import type { LocalDate } from '../../../src/domain/local-date.js';
import type { BulkPaymentCreated } from '../../../src/bank/index.js';
import type { RequestLine } from '../../../src/store/index.js';

const sent = ['E2E-1', 'E2E-2'].map((endToEndId): RequestLine => ({
  endToEndId,
  debtorName: 'Acme AS',
  amount: { minor: 100n, currency: 'NOK' },
  creditorIban: 'NO8330001234567',
  creditorName: 'Supplier',
}));

const answer = (paymentLines?: BulkPaymentCreated['paymentLines']): BulkPaymentCreated => ({
  paymentId: 'p1b',
  transactionStatus: 'RCVD',
  replayed: false,
  httpStatus: 201,
  tppMessages: [],
  raw: {},
  ...(paymentLines === undefined ? {} : { paymentLines }),
});

describe("the lines of a POST's answer", () => {
  it('are the statuses it gave the lines that were sent, matched by end-to-end id', () => {
    const created = answer([
      { endToEndIdentification: 'E2E-2', transactionStatus: 'RCVD', tppMessages: [], raw: {} },
      { endToEndIdentification: 'NOT-OURS', transactionStatus: 'RCVD', tppMessages: [], raw: {} },
      { endToEndIdentification: 'E2E-1', tppMessages: [], raw: {} },
      { transactionStatus: 'RJCT', tppMessages: [], raw: {} },
    ]);
    expect(answeredLines(created, sent)).toEqual([{ endToEndId: 'E2E-2', status: 'RCVD' }]);
  });

  it('are none when the answer lists no lines', () => {
    expect(answeredLines(answer(), sent)).toEqual([]);
  });
});

describe('the body of a bulk', () => {
  const head: BulkHead = {
    debtorIban: 'NO9386011117947',
    executionDate: '2026-01-07' as LocalDate,
    batchBooking: false,
  };

  it('carries every field of a line that changes what is paid, the reference with its type', () => {
    const body = bulkRequest(head, [
      {
        ...sent[0]!,
        creditorBic: 'DNBANOKKXXX',
        ultimateDebtor: 'Acme Holding AS',
        ultimateCreditor: 'Supplier Group',
        purpose: 'SUPP',
        remittanceInformation: 'Invoice 17',
        creditorReference: '2345676',
        instructionPriority: 'high',
      },
      { ...sent[1]!, creditorReference: 'RF18539007547034' },
      { ...sent[1]!, endToEndId: 'E2E-3', creditorReference: 'INV-17' },
    ]);
    expect(body.paymentLines[0]).toEqual({
      endToEndIdentification: 'E2E-1',
      instructedAmount: { currency: 'NOK', amount: '1.00' },
      creditorAccount: { iban: 'NO8330001234567' },
      creditorAgent: 'DNBANOKKXXX',
      creditorName: 'Supplier',
      ultimateDebtor: 'Acme Holding AS',
      ultimateCreditor: 'Supplier Group',
      purposeCode: 'SUPP',
      remittanceInformationUnstructured: 'Invoice 17',
      remittanceInformationStructured: { reference: '2345676', referenceType: 'KID' },
      instructionPriority: 'high',
    });
    expect(body.paymentLines[1]?.remittanceInformationStructured).toEqual({
      reference: 'RF18539007547034',
      referenceType: 'RF',
    });
    expect(body.paymentLines[2]?.remittanceInformationStructured).toEqual({ reference: 'INV-17' });
  });

  it('sends a line without them as before, key for key (a retry of an older bulk repeats its body)', () => {
    const body = bulkRequest(head, [{ ...sent[0]!, remittanceInformation: 'Invoice 17' }]);
    expect(JSON.stringify(body.paymentLines[0])).toBe(
      '{"endToEndIdentification":"E2E-1","instructedAmount":{"currency":"NOK","amount":"1.00"},"creditorAccount":{"iban":"NO8330001234567"},"creditorName":"Supplier","remittanceInformationUnstructured":"Invoice 17","instructionPriority":"normal"}',
    );
  });
});
