// settle's own payments through the sandbox bank, as the statements of the oracle tests need
// them: an ERP file with a bulk that asks for batch booking (two lines, booked as one entry) and
// a bulk of one line that the creditor's bank later returns (AC04). The file, its lines and
// bulks are recorded in settle's store as pickup and submit would, so the statement can quote
// the ERP's ids.
import type { LocalDate } from '../../../src/domain/local-date.js';
import { bulkRequest } from '../../../jobs/submit/bulk-request.js';
import { bookReturn } from '../../../src/sandbox/scheduler.js';
import { createStore } from '../../../src/store/index.js';
import { payment, paymentFile } from '../../store/fixtures.js';
import { SEED, type StatementHarness } from './harness.js';
import { recordSent } from '../../../jobs/submit/index.js';

export const OWN = {
  messageId: 'ERP-MSG-20260105',
  batch: { paymentInformationId: 'PMTINF-BATCH', endToEndIds: ['ORC-B1', 'ORC-B2'], minor: [150_000n, 250_000n] },
  single: { paymentInformationId: 'PMTINF-SINGLE', endToEndId: 'ORC-S1', minor: 70_000n },
  returnReason: 'AC04',
  bookingDay: '2026-01-06' as LocalDate,
};

/** Books both bulks on 2026-01-06 and the return the same day; leaves the clock on 2026-01-07. */
export async function bookOwnPayments(h: StatementHarness): Promise<void> {
  const store = createStore(h.db, h.clock);
  const day = OWN.bookingDay;
  const file = await store.files.recordAcceptedFile(paymentFile('oracle-erp-file', { messageId: OWN.messageId }), [
    ...OWN.batch.endToEndIds.map((endToEndId, i) =>
      payment(i + 1, {
        endToEndId,
        debtorIban: SEED.operatingIban,
        requestedExecutionDate: day,
        amount: { minor: OWN.batch.minor[i]!, currency: 'NOK' },
        paymentInformationId: OWN.batch.paymentInformationId,
        batchBooking: true,
      }),
    ),
    payment(3, {
      endToEndId: OWN.single.endToEndId,
      debtorIban: SEED.operatingIban,
      requestedExecutionDate: day,
      amount: { minor: OWN.single.minor, currency: 'NOK' },
      paymentInformationId: OWN.single.paymentInformationId,
      batchBooking: false,
    }),
  ]);
  const lines = await store.payments.listByFile(file.id);
  const bulks = await store.bulks.createBulks(file.id, [
    {
      position: 0,
      debtorIban: SEED.operatingIban,
      executionDate: day,
      batchBooking: true,
      paymentIds: [lines[0]!.id, lines[1]!.id],
    },
    {
      position: 1,
      debtorIban: SEED.operatingIban,
      executionDate: day,
      batchBooking: false,
      paymentIds: [lines[2]!.id],
    },
  ]);
  for (const bulk of bulks) {
    await store.bulks.markSending(bulk.id);
    const request = bulkRequest(bulk, await store.payments.listByBulk(bulk.id));
    const created = await h.bank.createBulkPayment(SEED.resourceGroupName, request, {
      idempotencyKey: bulk.idempotencyKey,
    });
    await recordSent(store, bulk.id, { bankPaymentId: created.paymentId });
  }
  h.sandbox.advance(86_400_000); // accepted, then booked at 00:00 Oslo on the 6th
  if (bookReturn(h.sandbox.sandbox, OWN.single.endToEndId, OWN.returnReason, 'Account closed') === undefined)
    throw new Error('the sandbox did not settle the payment to return');
  h.sandbox.advance(86_400_000); // the 6th is complete
}
