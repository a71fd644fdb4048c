// A company's nightly writes must touch its own rows, not the bureau's: each write below is made
// once beside a few other companies and once beside ten times more, and the rows MariaDB's
// storage engine read and wrote for it must not grow (SQLite has no such counter: there the
// engine's plan for the statement must search an index, not scan the table). Each once read
// every row of the bureau, and under MariaDB's REPEATABLE READ locked them: the account status a
// fetch writes into the account directory (every company's accounts, held until the fetch's
// transaction ended, so every other instance's fetch waited on it) and the status job's purge of
// expired leases (every lease of every company, once for each company a night).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { writeAccountStatus } from '../../src/store/account-status.js';
import { createStore, openDatabase, type Database, type Store } from '../../src/store/index.js';
import { onBothEngines } from '../support/engines.js';
import { captureQueries, expectIndexRead } from '../support/query-plan.js';
import { rowsTouched } from '../support/rows-touched.js';

const HOUR_MS = 3_600_000;

await onBothEngines((engine, open) => {
  describe(`bureau-bounded nightly writes (${engine})`, () => {
    let url: string;
    let db: Database;
    let store: Store;
    let cleanup: () => Promise<void>;
    const clock = new ManualClock('2031-06-02T08:00:00Z');

    beforeEach(async () => {
      const target = await open();
      url = target.url;
      cleanup = () => target.cleanup();
      // One connection: MariaDB's session counters are the calls' own.
      db = await openDatabase({ url, poolMax: 1 });
      await db.migrate();
      store = createStore(db, clock);
      clock.set('2031-06-02T08:00:00Z');
    });
    afterEach(async () => {
      await db.close();
      await cleanup();
    });

    /** `count` more companies, each with a directory of three accounts. */
    async function companies(from: number, count: number): Promise<void> {
      for (let c = from; c < from + count; c++)
        await store.bankAccounts.replace(
          `co-${c}`,
          [1, 2, 3].map((a) => ({ accountId: `acc-${c}-${a}`, bankId: 'bank', status: 'enabled' })),
        );
    }

    /**
     * Asserts `write` touches no more rows beside ten times more companies (MariaDB), or (SQLite)
     * that each of its statements on the table reads the index `reads` gives for it.
     */
    async function flat(
      write: () => Promise<unknown>,
      grow: () => Promise<void>,
      reads: readonly [statement: RegExp, index: string][],
      label: string,
    ) {
      const queries = captureQueries(db);
      const small = await rowsTouched(db, engine, write);
      await grow();
      if (small === undefined) {
        for (const [statement, index] of reads) {
          const matching = queries.filter((q) => statement.test(q.sql));
          expect(matching.length, `${label}: ${String(statement)}`).toBeGreaterThan(0);
          for (const q of matching) await expectIndexRead(db, q, index, label);
        }
        return;
      }
      const large = await rowsTouched(db, engine, write);
      expect(large, `${label}: rows touched ${small} before, ${large} beside ten times more`).toBeLessThanOrEqual(
        small + 2,
      );
    }

    it("an account's status reaches its own directory rows, not every company's", async () => {
      await companies(0, 5);
      let n = 0;
      const write = () =>
        store.accountStatus.record(
          'acc-1-2',
          n++ % 2 === 0 ? 'disabled' : 'enabled',
          new Date(clock.now().getTime() + n),
        );
      await flat(
        write,
        () => companies(5, 45),
        [
          [/^select .* from [`"]?bank_accounts/i, 'bank_accounts_account_ix (account_id=?)'],
          [/^update [`"]?bank_accounts/i, 'sqlite_autoindex_bank_accounts_1 (company=? AND account_id=?)'],
        ],
        'the directory status write',
      );
      const listed = (await store.bankAccounts.directory('co-1'))!.accounts.find((a) => a.accountId === 'acc-1-2');
      expect(listed?.status).toBe(n % 2 === 1 ? 'disabled' : 'enabled');
      const other = (await store.bankAccounts.directory('co-2'))!.accounts.find((a) => a.accountId === 'acc-2-2');
      expect(other?.status).toBe('enabled');
    });

    it("the purge of expired leases reads the expired ones, not every company's live ones", async () => {
      // Leases the bureau's companies hold for the rest of the year (a "not before" of each bulk's poll, say).
      const live = async (from: number, count: number) => {
        for (let c = from; c < from + count; c++)
          expect(await store.leases.acquire(`poll:co-${c}`, 'i1', 300 * 24 * HOUR_MS)).toBeDefined();
      };
      let round = 0;
      const purge = async () => {
        // Two leases that lapsed more than a day ago, gone at each purge; the live ones stay.
        for (const k of [1, 2]) expect(await store.leases.acquire(`poll:old-${round}-${k}`, 'i1', 1)).toBeDefined();
        round++;
        clock.advance(2 * 24 * HOUR_MS);
        expect(await store.leases.purgeExpired(24 * HOUR_MS)).toBe(2);
      };
      await live(0, 10);
      await flat(
        purge,
        () => live(10, 90),
        [
          [/^select .* from [`"]?leases[`"]? where [`"]?expires_at/i, 'leases_expires_ix (expires_at<?)'],
          [/^delete from [`"]?leases/i, 'sqlite_autoindex_leases_1 (name=?)'],
        ],
        'the purge of expired leases',
      );
    });

    if (engine === 'MariaDB')
      it("one fetch's open transaction does not hold another company's account status write", async () => {
        await companies(0, 3);
        const other = await openDatabase({ url, poolMax: 1 });
        try {
          await other.knex.raw('set session innodb_lock_wait_timeout = 1');
          const otherStore = createStore(other, clock);
          await db.transaction(async (trx) => {
            await writeAccountStatus(trx, clock.now().toISOString(), {
              accountId: 'acc-0-1',
              status: 'disabled',
              at: clock.now(),
            });
            // While that fetch's transaction is open, another instance writes another company's status.
            await expect(otherStore.accountStatus.record('acc-2-1', 'disabled', clock.now())).resolves.toBe('recorded');
          });
        } finally {
          await other.close();
        }
      });
  });
});
