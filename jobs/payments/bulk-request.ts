// The body of POST /bulk-payments/credit-transfer for a stored bulk (spec §2.6). It is built from
// the stored lines in their stored order every time, so a retry with the same Idempotency-Key
// sends the same body (a different body under the same key is a 422 at the bank).
import type { BulkPaymentRequest } from '../../src/bank/index.js';
import { formatAmount } from '../../src/domain/money.js';
import type { RequestLine, StoredBulk } from '../../src/store/index.js';

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
