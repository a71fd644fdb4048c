// The store applies a use case's plan whole or not at all: a plan made from rows that moved
// before it was applied (submit took the bulk; another run finished the request; a hold was
// decided) is refused, and nothing of it is written (src/store/apply-plan.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planBulks } from '../../src/domain/plans/bulk-plan.js';
import { ManualClock } from '../../src/domain/clock.js';
import { planCancelledAtBank, planWithdrawal } from '../../src/domain/plans/cancellation-plan.js';
import { createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { onBothEngines } from '../support/engines.js';
import { payment, paymentFile, rejectsWithCode } from './fixtures.js';
import { recordSent } from '../../jobs/submit/index.js';

await onBothEngines((engine, open) => {
  describe(`applying a plan (${engine})`, () => {
    let db: Database;
    let store: Store;
    let cleanup: () => Promise<void>;

    beforeEach(async () => {
      const target = await open();
      cleanup = () => target.cleanup();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, new ManualClock('2026-01-05T08:00:00Z'));
    });
    afterEach(async () => {
      await db.close();
      await cleanup();
    });

    /** A file of three lines queued in one pending bulk, and a request to cancel its second line. */
    async function queuedRequest() {
      const file = await store.files.recordAcceptedFile(
        paymentFile('plan.csv'),
        [1, 2, 3].map((n) => payment(n, { endToEndId: `plan-${n}` })),
      );
      const plans = planBulks(await store.payments.plannableByFile(file.id), {
        maxLines: 10,
        defaultBatchBooking: true,
      });
      const [bulk] = await store.bulks.createBulks(file.id, plans);
      const lines = await store.cancellations.paymentsOfBulk(bulk!.id);
      const request = await store.cancellations.create({
        company: lines[0]!.company,
        ref: lines[1]!.endToEndId,
        paymentIds: [lines[1]!.id],
        reason: 'wrong amount',
        requestedBy: 'kari',
        channel: 'cli',
      });
      return { bulk: bulk!, lines, request };
    }

    it('refuses a withdrawal whose bulk submit took meanwhile, and writes nothing of it', async () => {
      const { bulk, lines, request } = await queuedRequest();
      const plan = planWithdrawal(request, [lines[1]!], lines);
      await store.bulks.markSending(bulk.id);
      await rejectsWithCode(store.applyPlan(plan), 'ERR_STATE_TRANSITION_ILLEGAL');
      expect((await store.cancellations.get(request.id))!.outcome).toBeUndefined();
      expect((await store.bulks.get(bulk.id))!.state).toBe('sending');
      expect((await store.cancellations.paymentsOfBulk(bulk.id)).map((l) => l.state)).toEqual([
        'queued',
        'queued',
        'queued',
      ]);
      expect(await store.bulks.listByFile(bulk.fileId)).toHaveLength(1);
    });

    it('applies a withdrawal once: the same plan again is refused, the request being closed', async () => {
      const { bulk, lines, request } = await queuedRequest();
      const plan = planWithdrawal(request, [lines[1]!], lines);
      expect(await store.applyPlan(plan)).toMatchObject({ applied: true });
      const done = (await store.cancellations.get(request.id))!;
      expect(done.outcome).toBe('withdrawn');
      expect((await store.cancellations.paymentsOfBulk(done.resentBulkId!)).map((l) => l.endToEndId)).toEqual([
        'plan-1',
        'plan-3',
      ]);
      await rejectsWithCode(store.applyPlan(plan), 'ERR_CANCEL_REFUSED');
      expect((await store.bulks.listByFile(bulk.fileId)).map((b) => b.state)).toEqual(['cancelled', 'pending']);
    });

    it("a bank's CANC applied twice writes once: the second finds the request closed and does nothing", async () => {
      const { bulk, request } = await queuedRequest();
      await store.bulks.markSending(bulk.id);
      await recordSent(store, bulk.id, { bankPaymentId: 'bank-plan-1' });
      await store.cancellations.markBankRequested(request.id);
      const lines = await store.cancellations.paymentsOfBulk(bulk.id);
      expect(lines.map((l) => l.state)).toEqual(['sent', 'sent', 'sent']);
      const atBank = { ...request, bulkId: bulk.id };
      const file = await store.cancellations.fileOfBulk(bulk.id);
      const plan = planCancelledAtBank(atBank, lines, file);
      expect(await store.applyPlan(plan)).toMatchObject({ applied: true });
      expect(await store.applyPlan(plan)).toEqual({ applied: false });
      expect((await store.bulks.listByFile(bulk.fileId)).map((b) => b.state)).toEqual(['cancelled', 'pending']);
      const resent = (await store.cancellations.get(request.id))!.resentBulkId!;
      expect((await store.cancellations.paymentsOfBulk(bulk.id)).map((l) => l.state)).toEqual(['CANC']);
      expect((await store.cancellations.paymentsOfBulk(resent)).map((l) => [l.endToEndId, l.state])).toEqual([
        ['plan-1', 'queued'],
        ['plan-3', 'queued'],
      ]);
    });
  });
});
