// Benchmark of the console's Payments search (`npm run bench`): a SQLite database holding
// 1,000,000 payments (quick: 50,000) of one company in 1,000-line files, seeded with set-based
// INSERT … SELECT over a recursive counter (no row-by-row inserts), every index of the schema in
// place. Then N searches of each kind through the Payments page's own load() — form reading, the
// keyset query, payroll rules and the HTML — with values drawn from the data: end-to-end id,
// reference, creditor name, creditor IBAN, exact amount, a week of execution dates, a state, a
// state's second page (through its cursor); the worst kind's p95 is the figure its aim names.
// The row's rate is searches per second over all kinds; its baseline is a lookup of one payment
// by primary key on the same database, the floor of any query.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { systemClock } from '../src/domain/clock.js';
import type { Role } from '../src/domain/roles.js';
import type { ConsoleDeps, PageRequest } from '../src/server/console/page.js';
import { paymentsPage } from '../src/server/console/pages/payments.js';
import { createStore, openDatabase, type Database } from '../src/store/index.js';
import { random } from './reconcile.js';
import { scaledSize, type Bench } from './row.js';

/**
 * How row i looks; the SQL below computes the same, so searches hit real rows. The creditor name's
 * folded form (src/domain/search-fold.ts) is its lower case: the names are ASCII, and SQL writes it.
 */
const CREDITORS = 50_000;
const AMOUNTS = 100_000;
const REFERENCES = 200_000;
const STATES = ['ACSC', 'ACSC', 'ACSC', 'ACSC', 'ACSC', 'ACSP', 'sent', 'RJCT', 'accepted', 'queued'];
/**
 * A file's lines as a night leaves them: each file of 1,000 lines is one bulk, its lines in its
 * STATES entry (file number mod 10) and of one execution date; a file of `accepted` lines waits
 * in no bulk; in a settled (ACSC) bulk one line in a hundred was rejected on its own.
 */
const BULK_STATE: Record<string, string> = {
  ACSC: 'done',
  ACSP: 'sent',
  sent: 'sent',
  RJCT: 'rejected',
  queued: 'pending',
};
/** Lines of the oldest settled bulk the bank still reports pending: few, and behind all the others by date. */
const RARE_STATE = 'PDNG';
const FEW_AND_OLD = 10;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const creditorName = (i: number) => `Creditor ${pad((i * 31) % CREDITORS, 5)}`;
const creditorIban = (i: number) => `NO83${pad((i * 31) % CREDITORS, 11)}`;
const amountMinor = (i: number) => ((i * 7919) % AMOUNTS) + 100;
const reference = (i: number) => pad(i % REFERENCES, 10);

async function seed(db: Database, n: number): Promise<void> {
  const knex = db.knex;
  const now = '2026-01-05T07:00:00.000Z';
  // A cache the size of the indexes being built: with SQLite's default 2 MB every index insert
  // of a million rows misses it, and the seeding, not the search, would take the bench's time.
  await knex.raw('pragma cache_size = -1048576');
  // SQLite's recursive CTE counts the rows; one INSERT … SELECT per table writes them.
  const counter = (limit: number) =>
    `with recursive n(i) as (select 0 union all select i + 1 from n where i < ${limit - 1})`;
  await knex.raw(
    `${counter(Math.ceil(n / 1000))}
     insert into payment_files (id, company, file_name, sha256, format, size_bytes, received_at, state,
       line_count, accepted_count, rejected_count, totals_json, created_at, updated_at)
     select printf('f%07d', i), 'acme', printf('pay-%07d.csv', i), printf('%064d', i), 'csv:generic', 100000,
       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' minutes'), 'completed', 1000, 1000, 0, '{}', ?, ?
     from n`,
    [now, now],
  );
  const fileState = (file: string) =>
    `case ${file} % 10 ${STATES.map((state, k) => `when ${k} then '${state}'`).join(' ')} end`;
  const bulkState = (file: string) =>
    `case ${file} % 10 ${STATES.flatMap((state, k) => (BULK_STATE[state] ? [`when ${k} then '${BULK_STATE[state]}'`] : [])).join(' ')} end`;
  const fileDate = (file: string) => `date('2026-01-01', '+' || (${file} % 365) || ' days')`;
  await knex.raw(
    `${counter(Math.ceil(n / 1000))}
     insert into bulks (id, file_id, position, company, debtor_iban, execution_date, batch_booking, idempotency_key,
       state, line_count, attempts, created_at, updated_at)
     select printf('b%07d', i), printf('f%07d', i), 0, 'acme', 'NO9386011117947', ${fileDate('i')}, 1,
       printf('k%07d', i), ${bulkState('i')},
       1000, 1, ?, ?
     from n where ${fileState('i')} <> 'accepted'`,
    [now, now],
  );
  await knex.raw(
    `${counter(n)}
     insert into payments (id, file_id, line_number, company, end_to_end_id, debtor_iban, debtor_name,
       execution_date, amount_minor, currency, creditor_iban, creditor_name, creditor_name_folded, remittance,
       creditor_reference, state, bulk_id, created_at, updated_at)
     select printf('p%09d', i), printf('f%07d', i / 1000), i % 1000 + 1, 'acme', printf('E2E-%09d', i),
       'NO9386011117947', 'Acme AS', ${fileDate('(i / 1000)')},
       (i * 7919) % ${AMOUNTS} + 100, 'NOK', 'NO83' || printf('%011d', (i * 31) % ${CREDITORS}),
       'Creditor ' || printf('%05d', (i * 31) % ${CREDITORS}),
       'creditor ' || printf('%05d', (i * 31) % ${CREDITORS}), printf('Invoice %d', i),
       printf('%010d', i % ${REFERENCES}),
       case when i < ${FEW_AND_OLD} then '${RARE_STATE}'
         when ${fileState('(i / 1000)')} = 'ACSC' and i % 100 = 37 then 'RJCT' else ${fileState('(i / 1000)')} end,
       case when ${fileState('(i / 1000)')} = 'accepted' then null else printf('b%07d', i / 1000) end, ?, ?
     from n`,
    [now, now],
  );
  // The counters settle keeps beside the rows (src/store/state-counts.ts): a search for a state the
  // console's index does not hold reads them first.
  const counted: [string, string][] = [
    ['payment', 'payments'],
    ['payment_file', 'payment_files'],
    ['bulk', 'bulks'],
  ];
  for (const [kind, table] of counted)
    await knex.raw(
      `insert into state_counts (kind, company, state, n) select ?, company, state, count(*) from ${table} group by company, state`,
      [kind],
    );
  await knex.raw(
    'insert into bulk_line_counts (bulk_id, state, company, n) select bulk_id, state, company, count(*) from payments where bulk_id is not null group by bulk_id, state, company',
  );
  await knex.raw('analyze');
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? NaN;
}

export const bench: Bench = async ({ quick, scale }) => {
  const n = quick ? 50_000 : scaledSize(1_000_000, scale, { step: 1000, min: 10_000 });
  const searches = quick ? 20 : 100;
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-console-'));
  const db = await openDatabase({ url: `sqlite:${join(dir, 'console.sqlite')}` });
  try {
    await db.migrate();
    const seedStart = performance.now();
    await seed(db, n);
    const seedMs = performance.now() - seedStart;
    const deps: ConsoleDeps = {
      store: createStore(db, systemClock),
      clock: systemClock,
      companies: [
        { id: 'acme', name: 'Acme AS', timeZone: 'Europe/Oslo', organisationNumber: '999999999', bankIds: [] },
      ],
    };
    const request = (query: Record<string, string>): PageRequest => ({
      user: {
        id: 'local:bench',
        person: 'bench',
        name: 'bench',
        rolesByCompany: new Map([['acme', new Set<Role>(['viewer'])]]),
      },
      company: 'acme',
      query: new URLSearchParams({ company: 'acme', ...query }),
      params: {},
      csrfToken: 'bench',
    });
    const next = random(20260105);
    const pick = () => next() % n;
    const secondPage = async (state: string): Promise<Record<string, string>> => {
      const first = await deps.store.consoleViews.searchPayments({ company: 'acme', states: [state as never] });
      return { state, ...(first.next ? { after: first.next } : {}) };
    };
    const kinds: [string, () => Promise<Record<string, string>> | Record<string, string>][] = [
      ['end-to-end id', () => ({ e2e: `E2E-${pad(pick(), 9)}` })],
      ['reference', () => ({ ref: reference(pick()) })],
      ['creditor name', () => ({ creditor: creditorName(pick()) })],
      ['creditor IBAN', () => ({ creditor: creditorIban(pick()) })],
      ['amount', () => ({ amount: (amountMinor(pick()) / 100).toFixed(2), currency: 'NOK' })],
      [
        'week of dates',
        () => {
          const day = new Date(Date.UTC(2026, 0, 1 + (next() % 358)));
          const to = new Date(day.getTime() + 6 * 86_400_000);
          return { from: day.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
        },
      ],
      ['state', () => ({ state: STATES[next() % STATES.length]! })],
      ['state, page 2', () => secondPage(STATES[next() % STATES.length]!)],
      ['a state few and old lines are in', () => ({ state: RARE_STATE })],
    ];
    const results: { kind: string; p95: number; rows: number }[] = [];
    let totalMs = 0;
    let count = 0;
    for (const [kind, make] of kinds) {
      const times: number[] = [];
      let rows = 0;
      for (let k = 0; k < searches; k++) {
        const query = await make();
        const start = performance.now();
        const page = await paymentsPage.load(deps, request(query));
        times.push(performance.now() - start);
        if (page.status !== undefined && page.status !== 200) throw new Error(`search ${kind} answered ${page.status}`);
        rows += (page.body.match(/<tr><td>/g) ?? []).length;
      }
      // Every kind's values are drawn from the data: a kind that finds nothing measures nothing.
      if (rows === 0) throw new Error(`no search of kind "${kind}" found a payment`);
      totalMs += times.reduce((a, b) => a + b, 0);
      count += times.length;
      results.push({ kind, p95: p95(times), rows: Math.round(rows / searches) });
    }
    const lookups: number[] = [];
    for (let k = 0; k < searches * 4; k++) {
      const id = `p${pad(pick(), 9)}`;
      const start = performance.now();
      await db.knex('payments').where({ id }).first();
      lookups.push(performance.now() - start);
    }
    const lookupMs = lookups.reduce((a, b) => a + b, 0) / lookups.length;
    const worst = Math.max(...results.map((r) => r.p95));
    return [
      {
        key: 'console-search',
        name: `console Payments search, ${n.toLocaleString('en')} payments, SQLite`,
        size: n,
        unit: 'searches',
        rate: (count / totalMs) * 1000,
        baselineName: 'one payment by primary key',
        baselineRate: 1000 / lookupMs,
        peakRssBytes: process.resourceUsage().maxRSS * 1024,
        figures: { p95Ms: worst },
        notes:
          `p95 per kind of ${searches} searches through the page's load(): ` +
          results.map((r) => `${r.kind} ${r.p95.toFixed(1)} ms (~${r.rows} rows)`).join(', ') +
          `; worst ${worst.toFixed(1)} ms; seeded in ${(seedMs / 1000).toFixed(1)} s`,
      },
    ];
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
};
