// The console's Today lists on SQLite and on MariaDB: each pages exactly the company's rows that
// need a person (never another company's, never one twice across a page boundary with equal
// sort keys), and each is one index read (migration 0420) among many rows that need nobody.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, openDatabase, type Database, type Row, type Store } from '../../src/store/index.js';
import { allPages } from '../support/keyset.js';
import { captureQueries, expectIndexRead, type CapturedQuery } from '../support/query-plan.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../support/engines.js';

const NOW = '2026-01-05T08:00:00.000Z';
const SOON = new Date('2026-01-12T08:00:00.000Z');
/** Rows that need nobody: they make each index selective, as on a real install. */
const QUIET = 300;
const stamp = { created_at: NOW, updated_at: NOW };
const pad = (n: number) => String(n).padStart(4, '0');

async function insert(db: Database, table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 40) await db.knex(table).insert(rows.slice(i, i + 40));
}

/** Rows of both companies: `acme` has `n` needing a person in each list, `other` has some too. */
async function seed(db: Database): Promise<void> {
  const file = (company: string, id: string, state: string, at: string): Row => ({
    id,
    company,
    file_name: `${id}.csv`,
    sha256: id.padEnd(64, '0'),
    format: 'csv:test',
    size_bytes: 1,
    received_at: at,
    state,
    ...stamp,
  });
  await insert(db, 'payment_files', [
    ...Array.from({ length: QUIET }, (_, i) => file('acme', `fa-${pad(i)}`, 'accepted', NOW)),
    // Rejected files two by two at the same instant: equal sort keys at page boundaries.
    ...Array.from({ length: 23 }, (_, i) =>
      file('acme', `fr-${pad(i)}`, 'rejected', `2026-01-0${1 + (Math.floor(i / 2) % 4)}T07:00:00.000Z`),
    ),
    ...Array.from({ length: 9 }, (_, i) => file('other', `fo-${pad(i)}`, 'rejected', NOW)),
  ]);
  const bulk = (company: string, id: string, state: string): Row => ({
    id,
    file_id: 'fa-0000',
    position: Number(id.slice(-4)) + (company === 'acme' ? 0 : 10_000) + (state === 'unknown' ? 20_000 : 0),
    company,
    debtor_iban: 'NO9386011117947',
    execution_date: '2026-01-06',
    batch_booking: false,
    idempotency_key: `k-${id}`,
    state,
    line_count: 3,
    ...stamp,
  });
  await insert(db, 'bulks', [
    ...Array.from({ length: QUIET }, (_, i) => bulk('acme', `ba-${pad(i)}`, 'accepted')),
    ...Array.from({ length: 17 }, (_, i) => bulk('acme', `bu-${pad(i)}`, 'unknown')),
    ...Array.from({ length: 6 }, (_, i) => bulk('other', `bo-${pad(i)}`, 'unknown')),
  ]);
  const finding = (company: string, id: string, present: boolean, decision: string): Row => ({
    company,
    id,
    type: 'unmatched_payment',
    fact_hash: 'h',
    subject: `payment ${id}`,
    summary: 'not booked',
    first_seen_at: `2026-01-0${1 + (Number(id.slice(-4)) % 3)}T06:00:00.000Z`,
    last_seen_at: NOW,
    last_run_id: 'run-1',
    present,
    decision,
  });
  await insert(db, 'findings', [
    ...Array.from({ length: QUIET }, (_, i) => finding('acme', `FA${pad(i)}`, true, 'acknowledged')),
    ...Array.from({ length: QUIET }, (_, i) => finding('acme', `FG${pad(i)}`, false, 'open')),
    ...Array.from({ length: 19 }, (_, i) => finding('acme', `FO${pad(i)}`, true, 'open')),
    ...Array.from({ length: 7 }, (_, i) => finding('other', `FO${pad(i)}`, true, 'open')),
  ]);
  const consent = (company: string, bank: string, expiresAt: string | null): Row => ({
    company,
    bank_id: bank,
    consent_id: `c-${company}-${bank}`,
    status: 'valid',
    expires_at: expiresAt,
    status_at: NOW,
    source: 'refresh',
    ...stamp,
  });
  await insert(db, 'consents', [
    ...Array.from({ length: QUIET }, (_, i) => consent('acme', `far-${pad(i)}`, '2027-01-01T00:00:00.000Z')),
    ...Array.from({ length: 11 }, (_, i) =>
      consent('acme', `near-${pad(i)}`, `2026-01-${String(3 + (i % 4)).padStart(2, '0')}T00:00:00.000Z`),
    ),
    consent('acme', 'never', null),
    ...Array.from({ length: 4 }, (_, i) => consent('other', `near-${pad(i)}`, '2026-01-06T00:00:00.000Z')),
  ]);
  const basket = (company: string, id: string, state: string, expiresAt: string | null): Row => ({
    id,
    company,
    bank_basket_id: `BB-${id}`,
    idempotency_key: `k-${id}`,
    sca_link: expiresAt ? 'https://bank.example/approve' : null,
    sca_link_expires_at: expiresAt,
    state,
    ...stamp,
  });
  await insert(db, 'baskets', [
    ...Array.from({ length: QUIET }, (_, i) =>
      basket('acme', `sa-${pad(i)}`, 'authorised', '2026-01-06T00:00:00.000Z'),
    ),
    ...Array.from({ length: 13 }, (_, i) =>
      basket('acme', `sl-${pad(i)}`, 'link_issued', `2026-01-0${5 + (i % 3)}T00:00:00.000Z`),
    ),
    ...Array.from({ length: 5 }, (_, i) => basket('acme', `sf-${pad(i)}`, 'link_issued', '2026-03-01T00:00:00.000Z')),
    ...Array.from({ length: 3 }, (_, i) => basket('other', `so-${pad(i)}`, 'link_issued', '2026-01-06T00:00:00.000Z')),
  ]);
  const accounts = [...Array.from({ length: 12 }, (_, i) => ['acme', `acc-a${pad(i)}`]), ['other', 'acc-o0000']];
  await insert(
    db,
    'accounts',
    accounts.map(([company, id]) => ({ id, company, iban: `NO${id}`, ...stamp })),
  );
  const days: Row[] = [];
  for (const [, id] of accounts)
    for (let d = 0; d < 40; d++) {
      const day = new Date(Date.UTC(2025, 10, 1 + d)).toISOString().slice(0, 10);
      const continuity = d % 9 === 4 ? 'gap' : d % 9 === 7 ? 'mismatch' : 'ok';
      days.push({ account_id: id, day, currency: 'NOK', continuity, checked_at: NOW, entry_count: 0 });
    }
  await insert(db, 'statement_days', days);
}

const contract: EngineSuite = (name, open) => {
  describe(`Today lists on ${name}`, () => {
    let target: EngineTarget;
    let db: Database;
    let store: Store;
    let queries: CapturedQuery[] = [];

    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, new ManualClock(NOW));
      await seed(db);
      // Fresh statistics, as a running install has them: MariaDB plans by them.
      if (!name.startsWith('SQLite'))
        for (const t of ['payment_files', 'bulks', 'findings', 'consents', 'baskets', 'accounts', 'statement_days'])
          await db.knex.raw(`analyze table ${t}`);
      queries = captureQueries(db);
    }, 120_000);

    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('pages rejected files newest first, each once, only the company’s', async () => {
      const { rows, pages } = await allPages((q) => store.today.rejectedFiles('acme', q), 4);
      expect(rows.map((f) => f.id).sort()).toEqual(Array.from({ length: 23 }, (_, i) => `fr-${pad(i)}`));
      expect(pages).toBe(6);
      const keys = rows.map((f) => `${f.receivedAt.toISOString()}|${f.id}`);
      expect(keys).toEqual([...keys].sort().reverse());
    });

    it('pages unknown bulks, open findings of the latest run, and statement gaps of the company', async () => {
      const bulks = await allPages((q) => store.today.unknownBulks('acme', q), 5);
      expect(bulks.rows.map((b) => b.id)).toEqual(Array.from({ length: 17 }, (_, i) => `bu-${pad(i)}`));
      const findings = await allPages((q) => store.today.openFindings('acme', q), 3);
      expect(findings.rows.map((f) => f.id).sort()).toEqual(Array.from({ length: 19 }, (_, i) => `FO${pad(i)}`));
      expect(findings.rows.every((f) => f.company === 'acme' && f.decision === 'open')).toBe(true);
      const gaps = await allPages((q) => store.today.statementGaps('acme', q), 7);
      // 40 days per account, a gap or a mismatch on days 4, 7, 13, 16, 22, 25, 31, 34: 8 each.
      expect(gaps.rows).toHaveLength(12 * 8);
      expect(new Set(gaps.rows.map((g) => `${g.accountId}|${g.day}`)).size).toBe(12 * 8);
      expect(gaps.rows.every((g) => g.accountId.startsWith('acc-a') && g.continuity !== 'ok')).toBe(true);
    });

    it('pages consents and approval links expiring before the horizon, soonest first', async () => {
      const consents = await allPages((q) => store.today.consentsExpiringBy('acme', SOON, q), 3);
      expect(consents.rows.map((c) => c.bankId).sort()).toEqual(Array.from({ length: 11 }, (_, i) => `near-${pad(i)}`));
      const times = consents.rows.map((c) => c.expiresAt.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
      const links = await allPages((q) => store.today.linksExpiringBy('acme', SOON, q), 2);
      expect(links.rows.map((l) => l.basketId).sort()).toEqual(Array.from({ length: 13 }, (_, i) => `sl-${pad(i)}`));
      expect(links.rows.every((l) => l.expiresAt <= SOON)).toBe(true);
    });

    it('reads each list with one index read, never a scan or a sort', async () => {
      const cursor = async (load: (q: { limit: number }) => Promise<{ next?: string }>) =>
        (await load({ limit: 2 })).next!;
      const cases: [string, () => Promise<unknown>, string][] = [
        [
          'rejected files',
          async () =>
            store.today.rejectedFiles('acme', { after: await cursor((q) => store.today.rejectedFiles('acme', q)) }),
          'payment_files_today_ix',
        ],
        [
          'unknown bulks',
          async () =>
            store.today.unknownBulks('acme', { after: await cursor((q) => store.today.unknownBulks('acme', q)) }),
          'bulks_console_state_ix',
        ],
        [
          'open findings',
          async () =>
            store.today.openFindings('acme', { after: await cursor((q) => store.today.openFindings('acme', q)) }),
          'findings_today_ix',
        ],
        [
          'consents',
          async () =>
            store.today.consentsExpiringBy('acme', SOON, {
              after: await cursor((q) => store.today.consentsExpiringBy('acme', SOON, q)),
            }),
          'consents_today_ix',
        ],
        [
          'links',
          async () =>
            store.today.linksExpiringBy('acme', SOON, {
              after: await cursor((q) => store.today.linksExpiringBy('acme', SOON, q)),
            }),
          'baskets_today_link_ix',
        ],
        [
          'statement gaps',
          async () =>
            store.today.statementGaps('acme', { after: await cursor((q) => store.today.statementGaps('acme', q)) }),
          'statement_days_today_ix',
        ],
      ];
      for (const [label, run, index] of cases) {
        await run();
        // The last query is the page after the cursor: the harder one to keep an index range.
        const last = queries.at(-1)!;
        await expectIndexRead(db, last, index, label);
      }
    });
  });
};

await onBothEngines(contract);
