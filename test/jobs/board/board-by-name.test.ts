// The board by name on SQLite and on MariaDB: the companies' names sorted as the reader's
// language sorts them (bokmål puts Æ, Ø, Å after Z; English files them under A and O), their
// places handed to the one grouped query, which orders and pages by them. Without a sort the
// board keeps its order by what needs attention.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBoard, type BoardSort } from '../../../jobs/board/index.js';
import { STEP_NAMES } from '../../../jobs/nightly/index.js';
import { ManualClock } from '../../../src/domain/clock.js';
import type { Locale } from '../../../src/i18n/index.js';
import { createStore, openDatabase, type Database, type Store } from '../../../src/store/index.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../../support/engines.js';

const NOW = new Date('2026-01-05T08:00:00.000Z');
/** In configuration order; the ids say nothing of the names' order. */
const COMPANIES = [
  ['c1', 'Øst AS'],
  ['c2', 'Aker AS'],
  ['c3', 'Zeta AS'],
  ['c4', 'Ærlig AS'],
  ['c5', 'Åsen AS'],
  ['c6', 'Berg AS'],
] as const;
const NAMES = new Map<string, string>(COMPANIES);
const IDS = COMPANIES.map(([id]) => id);

const contract: EngineSuite = (name, open) => {
  describe(`the board by name on ${name}`, () => {
    let target: EngineTarget;
    let db: Database;
    let store: Store;

    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, new ManualClock(NOW.toISOString()));
      // Berg alone is onboarded with its night done: by attention it comes last, by name second.
      const stamp = { created_at: NOW.toISOString(), updated_at: NOW.toISOString() };
      await db.knex('consents').insert({
        company: 'c6',
        bank_id: 'testbank',
        consent_id: 'c-c6',
        status: 'Valid',
        expires_at: '2027-01-01T00:00:00.000Z',
        status_at: NOW.toISOString(),
        source: 'refresh',
        ...stamp,
      });
      await db
        .knex('accounts')
        .insert({ id: 'acc-c6', company: 'c6', iban: 'NO-c6', account_status: 'enabled', ...stamp });
      await db
        .knex('job_successes')
        .insert(
          STEP_NAMES.map((job) => ({ job, company: 'c6', succeeded_at: '2026-01-05T02:00:00.000Z', run_id: 'r1' })),
        );
    }, 120_000);

    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    /** Every page of the board in turn, as names. */
    async function names(locale: Locale, sort: BoardSort | undefined, pageSize: number): Promise<string[][]> {
      const pages: string[][] = [];
      for (let page = 1; ; page++) {
        const board = await readBoard(store, {
          companies: IDS,
          now: NOW,
          ...(sort === undefined ? {} : { sort }),
          byName: { names: NAMES, locale },
          page,
          pageSize,
        });
        expect(board.total).toBe(6);
        pages.push(board.rows.map((r) => NAMES.get(r.company)!));
        if (page >= board.pages) return pages;
      }
    }

    it('sorts by name in bokmål, Æ, Ø and Å after Z, and pages across the boundary', async () => {
      expect(await names('nb', 'name', 4)).toEqual([
        ['Aker AS', 'Berg AS', 'Zeta AS', 'Ærlig AS'],
        ['Øst AS', 'Åsen AS'],
      ]);
    });

    it('sorts by name as English does, which differs from bokmål', async () => {
      const english = [...NAMES.values()].sort(new Intl.Collator('en', { sensitivity: 'base' }).compare);
      const pages = await names('en', 'name', 4);
      expect(pages.flat()).toEqual(english);
      expect(pages).toEqual([english.slice(0, 4), english.slice(4)]);
      expect(pages.flat()).not.toEqual(['Aker AS', 'Berg AS', 'Zeta AS', 'Ærlig AS', 'Øst AS', 'Åsen AS']);
    });

    it('keeps the filter under the sort: only the companies not onboarded, by name', async () => {
      const board = await readBoard(store, {
        companies: IDS,
        now: NOW,
        filter: 'not-onboarded',
        sort: 'name',
        byName: { names: NAMES, locale: 'nb' },
      });
      expect(board.rows.map((r) => NAMES.get(r.company))).toEqual([
        'Aker AS',
        'Zeta AS',
        'Ærlig AS',
        'Øst AS',
        'Åsen AS',
      ]);
    });

    it('without a sort, orders by attention as before: the onboarded company last, the rest in configuration order', async () => {
      expect((await names('nb', undefined, 50)).flat()).toEqual([
        'Øst AS',
        'Aker AS',
        'Zeta AS',
        'Ærlig AS',
        'Åsen AS',
        'Berg AS',
      ]);
      // By name, Berg's attention figures do not move it.
      expect((await names('nb', 'name', 50)).flat()[1]).toBe('Berg AS');
    });
  });
};

await onBothEngines(contract);
