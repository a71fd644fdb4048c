import { describe, expect, it } from 'vitest';
import { answeredLines } from '../../../jobs/payments/bulk-request.js';
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
