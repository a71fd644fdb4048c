// The body of POST /bulk-payments/credit-transfer for a stored bulk (spec §2.6). It is built from
// the stored lines in their stored order every time, so a retry with the same Idempotency-Key
// sends the same body (a different body under the same key is a 422 at the bank).
import type { BulkPaymentCreated, BulkPaymentRequest, PaymentLineRequest } from '../../src/bank/index.js';
import { parseCreditorReference } from '../../src/domain/creditor-reference.js';
import { formatAmount } from '../../src/domain/money.js';
import type { ReportedPayment } from '../../src/domain/plans/sent-bulk-plan.js';
import type { RequestLine, StoredBulk } from '../../src/store/index.js';

/** What the body takes of its bulk: the debtor's account, the execution date and batch booking. */
export type BulkHead = Pick<StoredBulk, 'debtorIban' | 'executionDate' | 'batchBooking'>;

export function bulkRequest(bulk: BulkHead, lines: readonly RequestLine[]): BulkPaymentRequest {
  const first = lines[0];
  return {
    debtorAccount: { iban: bulk.debtorIban },
    ...(first ? { debtorName: first.debtorName } : {}),
    requestedExecutionDate: bulk.executionDate,
    batchBookingPreferred: bulk.batchBooking,
    paymentLines: lines.map(requestLine),
  };
}

/**
 * A line as the request carries it, with every field of the line that changes what is paid
 * (docs/formats/pain001.md), in one key order (a retry under the same key repeats the body).
 */
function requestLine(p: RequestLine): PaymentLineRequest {
  // Keys in the order bodies had before the optional fields came: a line without them is sent
  // byte for byte as before, so a retry of a bulk sent by an earlier release repeats its body.
  const line = {
    endToEndIdentification: p.endToEndId,
    instructedAmount: { currency: p.amount.currency, amount: formatAmount(p.amount) },
    creditorAccount: { iban: p.creditorIban },
  } as PaymentLineRequest;
  if (p.creditorBic !== undefined) line.creditorAgent = p.creditorBic;
  line.creditorName = p.creditorName;
  if (p.ultimateDebtor !== undefined) line.ultimateDebtor = p.ultimateDebtor;
  if (p.ultimateCreditor !== undefined) line.ultimateCreditor = p.ultimateCreditor;
  if (p.purpose !== undefined) line.purposeCode = p.purpose;
  if (p.remittanceInformation !== undefined) line.remittanceInformationUnstructured = p.remittanceInformation;
  if (p.creditorReference !== undefined) line.remittanceInformationStructured = structured(p.creditorReference);
  line.instructionPriority = p.instructionPriority === 'high' ? 'high' : 'normal';
  return line;
}

/** A creditor reference with its type when it reads as one (RF by ISO 11649, digits as a KID). */
function structured(reference: string): { reference: string; referenceType?: 'KID' | 'RF' } {
  const parsed = parseCreditorReference(reference);
  return parsed?.valid ? { reference, referenceType: parsed.kind } : { reference };
}

/**
 * The statuses the bank's answer to the POST gave the lines that were sent (matched by end-to-end
 * id; a line the request did not carry, or one without a status, is left out): what the store
 * moves them to instead of `sent` (docs/payments.md, Submit).
 */
export function answeredLines(created: BulkPaymentCreated, sent: readonly RequestLine[]): ReportedPayment[] {
  if (created.paymentLines === undefined) return [];
  const ours = new Set(sent.map((l) => l.endToEndId));
  const out: ReportedPayment[] = [];
  for (const { endToEndIdentification: endToEndId, transactionStatus: status } of created.paymentLines)
    if (endToEndId !== undefined && status !== undefined && ours.has(endToEndId)) out.push({ endToEndId, status });
  return out;
}
