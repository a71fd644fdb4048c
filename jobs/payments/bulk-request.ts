// The body of POST /bulk-payments/credit-transfer for a stored bulk (spec §2.6). It is built from
// the stored lines in their stored order every time, so a retry with the same Idempotency-Key
// sends the same body (a different body under the same key is a 422 at the bank).
import type { BulkPaymentCreated, BulkPaymentRequest } from '../../src/bank/index.js';
import { formatAmount } from '../../src/domain/money.js';
import type { ReportedLine, RequestLine, StoredBulk } from '../../src/store/index.js';

export function bulkRequest(bulk: StoredBulk, lines: readonly RequestLine[]): BulkPaymentRequest {
  const first = lines[0];
  return {
    debtorAccount: { iban: bulk.debtorIban },
    ...(first ? { debtorName: first.debtorName } : {}),
    requestedExecutionDate: bulk.executionDate,
    batchBookingPreferred: bulk.batchBooking,
    paymentLines: lines.map((p) => ({
      endToEndIdentification: p.endToEndId,
      instructedAmount: { currency: p.amount.currency, amount: formatAmount(p.amount) },
      creditorAccount: { iban: p.creditorIban },
      creditorName: p.creditorName,
      ...(p.remittanceInformation !== undefined ? { remittanceInformationUnstructured: p.remittanceInformation } : {}),
      instructionPriority: p.instructionPriority === 'high' ? 'high' : 'normal',
    })),
  };
}

/**
 * The statuses the bank's answer to the POST gave the lines that were sent (matched by end-to-end
 * id; a line the request did not carry, or one without a status, is left out): what the store
 * moves them to instead of `sent` (docs/payments.md, Submit).
 */
export function answeredLines(created: BulkPaymentCreated, sent: readonly RequestLine[]): ReportedLine[] {
  if (created.paymentLines === undefined) return [];
  const ours = new Set(sent.map((l) => l.endToEndId));
  return created.paymentLines.flatMap((l) =>
    l.endToEndIdentification !== undefined && l.transactionStatus !== undefined && ours.has(l.endToEndIdentification)
      ? [{ endToEndId: l.endToEndIdentification, status: l.transactionStatus }]
      : [],
  );
}
