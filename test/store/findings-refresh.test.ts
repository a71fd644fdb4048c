// A reconcile run refreshes the findings it already knows, 500 to a statement: each comes back
// with its facts as found now, and keeps when it was first seen and the decision a person took
// on it; the ones not seen again are marked absent. On both engines (SQLite's ON CONFLICT,
// MariaDB's ON DUPLICATE KEY UPDATE).
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, type FindingSeen } from '../../src/store/index.js';
import { onBothEngines, withMigrated } from '../support/engines.js';
import { captureQueries } from '../support/query-plan.js';

const seen = (n: number, summary: string): FindingSeen[] =>
  Array.from({ length: n }, (_, k) => ({
    id: `F-${k}`,
    type: 'unexpected_debit',
    factHash: 'h'.repeat(64),
    subject: `booking t-${k}`,
    summary: `${summary} ${k}`,
    amount: { minor: BigInt(100 + k), currency: 'NOK' },
    factDate: '2026-01-07',
  }));

await onBothEngines((engine, open) => {
  describe(`a run's known findings (${engine})`, () => {
    it('are refreshed in a few statements, keeping when they were first seen and their decision', async () => {
      await withMigrated(open, async (db) => {
        const clock = new ManualClock('2026-01-08T06:00:00Z');
        const store = createStore(db, clock);
        await store.findings.recordRun('acme', 'night-1', seen(1_200, 'first'));
        await store.findings.decide('acme', 'F-7', {
          decision: 'acknowledged',
          actor: 'finance',
          origin: 'test',
          reason: 'known fee',
        });
        clock.set('2026-01-09T06:00:00Z');
        const queries = captureQueries(db);
        // Seen again but the last one: 1,199 known findings refreshed, one gone.
        await store.findings.recordRun('acme', 'night-2', seen(1_199, 'again'));
        const writes = queries.filter((q) => /^\s*(insert|update)/i.test(q.sql) && /findings/.test(q.sql));
        expect(writes.length).toBeLessThanOrEqual(4);

        const [f7] = await store.findings.find('F-7', 'acme');
        expect(f7).toMatchObject({
          summary: 'again 7',
          lastRunId: 'night-2',
          present: true,
          decision: 'acknowledged',
          amount: { minor: 107n, currency: 'NOK' },
        });
        expect(f7!.firstSeenAt.toISOString()).toBe('2026-01-08T06:00:00.000Z');
        expect(f7!.lastSeenAt.toISOString()).toBe('2026-01-09T06:00:00.000Z');
        const [gone] = await store.findings.find('F-1199', 'acme');
        expect(gone).toMatchObject({ present: false, summary: 'first 1199', lastRunId: 'night-1' });
        const present = (await store.findings.list({ company: 'acme' })).length;
        expect(present).toBe(1_199);
      });
    });
  });
});
