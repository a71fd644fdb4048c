// The counters /metrics reads (src/store/state-counts.ts): a scrape reads a few rows per company
// instead of counting years of payments, so the counters must stay what a count of the rows
// would say. The repository contract's last case checks them after its whole suite; here, what
// it cannot reach: a transaction that fails leaves them as they were, two instances moving one
// company's bulks at once leave them right (MariaDB's row locks, no deadlock), migrations 0550
// and 0768 fill them from the rows, and a scrape's read does not grow with the rows. Each case
// also holds every bulk's count of its lines per state (bulk_line_counts) against its lines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { up as stateCountsUp } from '../../src/store/migrations/0550-state-counts.js';
import { up as bulkLineCountsUp } from '../../src/store/migrations/0768-state-index-at-rest.js';
import { AT_REST_CONDITION } from '../../src/store/state-index.js';
import { createStore, openDatabase, RetentionRepository, type Database, type Store } from '../../src/store/index.js';
import { transition } from '../../src/store/transitions.js';
import { onBothEngines } from '../support/engines.js';
import { stateCountDrift } from '../support/state-counts.js';
import { payment, paymentFile } from './fixtures.js';

await onBothEngines((engine, open) => {
  describe(`state counters (${engine})`, () => {
    let db: Database;
    let store: Store;
    let url: string;
    let cleanup: () => Promise<void>;
    const clock = new ManualClock('2031-06-02T08:00:00Z');

    beforeEach(async () => {
      const target = await open();
      url = target.url;
      cleanup = () => target.cleanup();
      db = await openDatabase({ url });
      await db.migrate();
      store = createStore(db, clock);
    });
    afterEach(async () => {
      await db.close();
      await cleanup();
    });

    /** A file of `lines` payments of `company` in `bulks` bulks, queued. */
    async function queuedFile(company: string, name: string, lines: number, bulks = 1): Promise<string[]> {
      const file = await store.files.recordAcceptedFile(
        paymentFile(`${company}-${name}`, { company }),
        Array.from({ length: lines }, (_, i) => payment(i + 1, { endToEndId: `${name}-${i}` })),
      );
      const ids = (await store.payments.listByFile(file.id)).map((p) => p.id);
      const per = Math.ceil(lines / bulks);
      const made = await store.bulks.createBulks(
        file.id,
        Array.from({ length: bulks }, (_, b) => ({
          position: b,
          debtorIban: 'NO9386011117947',
          executionDate: '2031-06-03' as LocalDate,
          batchBooking: false,
          paymentIds: ids.slice(b * per, (b + 1) * per),
        })),
      );
      return made.map((b) => b.id);
    }

    it('a transaction that fails changes no counter', async () => {
      const [bulk] = await queuedFile('acme', 'f1', 4);
      const before = await store.attention.countByState('payment');
      expect(before).toEqual(new Map([['queued', 4]]));
      await expect(
        db.transaction(async (trx) => {
          await transition(trx, {
            kind: 'payment',
            ids: { bulkId: bulk! },
            to: 'sent',
            cause: 'test',
            source: 'submit',
            at: clock.now(),
          });
          throw new Error('the POST failed after the lines moved');
        }),
      ).rejects.toThrow('the POST failed');
      expect(await store.attention.countByState('payment')).toEqual(before);
      expect(await stateCountDrift(db.knex)).toEqual({});
    });

    it("two instances moving one company's bulks at once leave the counters right", async () => {
      // SQLite has one writer; two connections in one process would wait on each other's locks
      // inside the same event loop. Its case is the suite's others.
      if (engine !== 'MariaDB') return;
      const bulks = await queuedFile('acme', 'f2', 40, 8);
      const other = await openDatabase({ url });
      try {
        const stores = [store, createStore(other, clock)];
        await Promise.all(
          bulks.map((id, i) =>
            stores[i % 2]!.bulks.applyBankStatusToPayments(id, i % 4 === 0 ? 'RJCT' : 'ACSC', 'status', 'poll'),
          ),
        );
      } finally {
        await other.close();
      }
      expect(await store.attention.countByState('payment')).toEqual(
        new Map([
          ['ACSC', 30],
          ['RJCT', 10],
        ]),
      );
      expect(await stateCountDrift(db.knex)).toEqual({});
    });

    it("the purge's recount corrects a company's counters a change left wrong, and says which", async () => {
      await queuedFile('acme', 'r1', 3);
      await queuedFile('beta', 'r2', 2);
      // What an old instance mid-run, or a hand edit, would leave: a line moved without its difference.
      const [line] = await db.knex('payments').where({ company: 'acme' }).select('id', 'bulk_id');
      await db.knex('payments').where({ id: line.id }).update({ state: 'RJCT' });
      await db.knex('state_counts').where({ kind: 'bulk', company: 'acme' }).update({ n: 7 });
      const retention = new RetentionRepository(db, { batchSize: 100 });
      expect(await retention.recountStates('acme')).toEqual([
        'bulk/pending: 7 → 1',
        'payment/RJCT: 0 → 1',
        'payment/queued: 3 → 2',
        `bulk_line/${line.bulk_id}/RJCT: 0 → 1`,
        `bulk_line/${line.bulk_id}/queued: 3 → 2`,
      ]);
      expect(await stateCountDrift(db.knex)).toEqual({});
      expect(await retention.recountStates('acme')).toEqual([]);
      expect(await retention.recountStates('beta')).toEqual([]);
    });

    it('migration 0550 fills the counters from the rows', async () => {
      await queuedFile('acme', 'f3', 3);
      await queuedFile('beta', 'f4', 2, 2);
      await db.knex.schema.dropTable('state_counts');
      await stateCountsUp(db.knex);
      expect(await stateCountDrift(db.knex)).toEqual({});
      expect(await store.attention.countByState('bulk')).toEqual(new Map([['pending', 3]]));
      expect(await store.attention.countByState('payment_file')).toEqual(new Map([['accepted', 2]]));
    });

    it("migration 0768 fills the bulks' counts of their lines from the lines, and on SQLite keeps the states at rest in the state index", async () => {
      await queuedFile('acme', 'f5', 3);
      await queuedFile('beta', 'f6', 2, 2);
      const [line] = await db.knex('payments').where({ company: 'beta' }).pluck('id');
      await db.transaction((trx) =>
        transition(trx, { kind: 'payment', ids: [line], to: 'sent', cause: 'test', source: 'submit', at: clock.now() }),
      );
      expect(await stateCountDrift(db.knex)).toEqual({});
      await db.knex.schema.dropTable('bulk_line_counts');
      if (engine === 'SQLite') {
        // As migration 0240 made it.
        await db.knex.raw('drop index payments_console_state_ix');
        await db.knex.raw('create index payments_console_state_ix on payments (company, state, execution_date, id)');
      }
      await bulkLineCountsUp(db.knex);
      expect(await stateCountDrift(db.knex)).toEqual({});
      // acme's bulk (3 queued), and beta's two bulks of one line (one sent, one queued)
      expect(Number((await db.knex('bulk_line_counts').count({ n: '*' }).first())?.n)).toBe(3);
      if (engine === 'SQLite') {
        const [index] = await db.knex('sqlite_master').where({ name: 'payments_console_state_ix' }).pluck('sql');
        expect(index).toBe(
          `CREATE INDEX payments_console_state_ix on payments (company, state, execution_date, id) where ${AT_REST_CONDITION}`,
        );
      }
    });

    it("a scrape's read does not grow with the rows", async () => {
      if (engine !== 'MariaDB') return; // the rows read are counted by MariaDB's Handler_* counters
      const scrape = async () => {
        const single = await openDatabase({ url, poolMax: 1 });
        try {
          const counters = async () => {
            const [rows] = (await single.knex.raw(`show session status where variable_name like 'Handler_read%'`)) as [
              { Value: string }[],
            ];
            return rows.reduce((sum, r) => sum + Number(r.Value), 0);
          };
          const before = await counters();
          await createStore(single, clock).attention.countByState('payment');
          return (await counters()) - before;
        } finally {
          await single.close();
        }
      };
      await queuedFile('acme', 'f5', 10);
      const small = await scrape();
      await queuedFile('acme', 'f6', 400, 4);
      expect(await scrape()).toBe(small);
    });
  });
});
