// A move's cause (migration 0764) and an audit entry's reason (migration 0763) go into the store as
// recorded text beside their English and come back, on SQLite and on MariaDB: a payment's history
// reads in bokmål and, in English, exactly as stored; a move given plain words keeps them in
// English. An entry's recorded reason is part of its hash: the chain holds, and an edit of the
// recorded text alone is found.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditReason } from '../../src/domain/audit-reason.js';
import { ManualClock } from '../../src/domain/clock.js';
import { planBulks } from '../../src/domain/plans/bulk-plan.js';
import { planWithdrawal } from '../../src/domain/plans/cancellation-plan.js';
import { cause } from '../../src/domain/transition-cause.js';
import { recordedSentence } from '../../src/i18n/index.js';
import { createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { onBothEngines } from '../support/engines.js';
import { payment, paymentFile } from './fixtures.js';

await onBothEngines((engine, open) => {
  describe(`recorded causes and audit reasons (${engine})`, () => {
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

    it('reads a payment’s history in bokmål, and in English as stored', async () => {
      const file = await store.files.recordAcceptedFile(
        paymentFile('causes.csv'),
        [1, 2].map((n) => payment(n, { endToEndId: `cause-${n}` })),
      );
      const plans = planBulks(await store.payments.plannableByFile(file.id), {
        maxLines: 10,
        defaultBatchBooking: true,
      });
      const [bulk] = await store.bulks.createBulks(file.id, plans, cause.submitRun('run-1'));
      const lines = await store.cancellations.paymentsOfBulk(bulk!.id);
      const request = await store.cancellations.create({
        company: lines[0]!.company,
        ref: lines[1]!.endToEndId,
        paymentIds: [lines[1]!.id],
        reason: 'wrong amount',
        requestedBy: 'kari',
        channel: 'cli',
      });
      await store.applyPlan(planWithdrawal(request, [lines[1]!], lines));
      await store.payments.applyBankStatus([lines[0]!.id], { status: 'RJCT', cause: 'test words', source: 'poll' });

      const story = await store.paymentViews.story((await store.paymentViews.find('cause-2'))[0]!);
      const english = story.history.map((h) => h.cause);
      const bokmal = story.history.map((h) => recordedSentence('nb', h.cause, h.said, { timeZone: 'Europe/Oslo' }));
      expect(english).toContain('submit run run-1');
      expect(english).toContain('cancelled by kari: wrong amount');
      expect(bokmal).toContain('sendekjøring run-1');
      expect(bokmal).toContain('kansellert av kari: wrong amount');
      expect(story.history.every((h) => h.said !== undefined)).toBe(true);
      for (const h of story.history) expect(recordedSentence('en', h.cause, h.said)).toBe(h.cause);

      // Plain words (a caller outside settle's jobs) are kept in English alone.
      const other = await store.paymentViews.story((await store.paymentViews.find('cause-1'))[0]!);
      const last = other.history.at(-1)!;
      expect(last.cause).toBe('test words');
      expect(last.said).toBeUndefined();
      expect(recordedSentence('nb', last.cause, last.said)).toBe('test words');
    });

    it('keeps an audit entry’s recorded reason in its hash', async () => {
      const entry = await store.audit.append({
        actor: 'settle',
        action: 'controls.load',
        subject: { type: 'controls', id: 'acme' },
        ...auditReason.controlsFirstLoad(),
        origin: 'pickup',
      });
      await store.audit.append({
        actor: 'kari',
        action: 'finding.acknowledge',
        subject: { type: 'finding', id: 'acme/F-1' },
        reason: 'known fee',
        origin: 'cli@host',
        details: { company: 'acme' },
      });
      const [read] = await store.audit.list({ subject: { type: 'controls', id: 'acme' } });
      expect(read!.reason).toBe('first load of the payment controls');
      expect(recordedSentence('nb', read!.reason!, read!.said)).toBe('første innlasting av betalingskontrollene');
      const [person] = await store.audit.list({ subject: { type: 'finding', id: 'acme/F-1' } });
      expect(person!.said).toBeUndefined();
      expect(await store.audit.verify({ from: 'genesis' })).toMatchObject({ ok: true, entries: 2 });

      await db
        .knex('audit_trail')
        .where({ seq: entry.seq })
        .update({
          reason_text: JSON.stringify({ key: 'auditEntry.reason.controlsChanged' }),
        });
      expect(await store.audit.verify({ from: 'genesis' })).toMatchObject({ ok: false, brokenAt: entry.seq });
    });
  });
});
