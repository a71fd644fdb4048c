// Benchmark of the bureau's board (`npm run bench -- --only board`): a MariaDB database holding
// 1,000 companies (quick: 200) as a bureau has them — consents and accounts (one company in
// twenty never onboarded), every step's last success (one in ten with last night's steps not
// done), 20 payment files and 50 payments each with the state counters beside them, a few held
// or unknown, baskets and findings mostly long decided — with every index of the schema. Then
// the Board page's own load() for a person who sees every company — the store's grouped query,
// the money and steps of the page's 50 companies, the HTML — on the first page, the filter
// "needs attention" and the last page. The figure is the median of all loads, which the aim
// holds to 200 ms; the baseline is one company's counters read by primary key, the floor of
// any query.
import { performance } from 'node:perf_hooks';
import { systemClock } from '../src/domain/clock.js';
import { foldForSearch } from '../src/domain/search-fold.js';
import type { Role } from '../src/domain/roles.js';
import type { ConsoleDeps, PageRequest } from '../src/server/console/page.js';
import { boardPage } from '../src/server/console/pages/board.js';
import { createStore, openDatabase, type Database, type Row } from '../src/store/index.js';
import { createThrowawayDatabase, mariaDbUnavailableReason } from '../test/support/mariadb.js';
import { STEP_NAMES } from '../jobs/nightly/step-result.js';
import { median, scaledSize, type Bench, type BenchRow } from './row.js';

const PAYMENTS = 50;
const FILES = 20;
const FINDINGS = 20;
const BASKETS = 5;

const company = (i: number) => `co${String(i).padStart(4, '0')}`;

async function insert(db: Database, table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.knex(table).insert(rows.slice(i, i + 500));
}

async function seed(db: Database, companies: number, now: Date): Promise<void> {
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const stamp = { created_at: at(0), updated_at: at(0) };
  const ids = Array.from({ length: companies }, (_, i) => company(i));
  const onboarded = ids.filter((_, i) => i % 20 !== 7);
  await insert(
    db,
    'consents',
    onboarded.map((c, i) => ({
      company: c,
      bank_id: 'testbank',
      consent_id: `consent-${c}`,
      status: 'Valid',
      // One in fifteen expires within the warning period.
      expires_at: i % 15 === 3 ? at(3 * 86_400_000) : at(120 * 86_400_000),
      status_at: at(0),
      source: 'refresh',
      ...stamp,
    })),
  );
  await insert(
    db,
    'accounts',
    onboarded.flatMap((c) =>
      [0, 1].map((k) => ({ id: `acc-${c}-${k}`, company: c, iban: `NO${c}${k}`, account_status: 'enabled', ...stamp })),
    ),
  );
  await insert(
    db,
    'job_successes',
    ids.flatMap((c, i) =>
      ['nightly', ...STEP_NAMES].map((job) => ({
        job,
        company: c,
        succeeded_at: i % 10 === 4 ? at(-3 * 86_400_000) : at(-5 * 3_600_000),
        run_id: 'run-1',
      })),
    ),
  );
  const files: Row[] = [];
  const payments: Row[] = [];
  const counts: Row[] = [];
  ids.forEach((c, i) => {
    const rejected = i % 9 === 2 ? 1 : 0;
    for (let f = 0; f < FILES; f++)
      files.push({
        id: `f-${c}-${f}`,
        company: c,
        file_name: `pay-${f}.csv`,
        sha256: `${c}-${String(f).padStart(3, '0')}`.padEnd(64, '0'),
        format: 'csv:generic',
        size_bytes: 1000,
        received_at: at(-f * 86_400_000),
        state: f < rejected ? 'rejected' : 'completed',
        ...stamp,
      });
    const held = i % 6 === 1 ? 2 : 0;
    const unknown = i % 25 === 5 ? 1 : 0;
    for (let p = 0; p < PAYMENTS; p++)
      payments.push({
        id: `p-${c}-${p}`,
        file_id: `f-${c}-${FILES - 1}`,
        line_number: p + 1,
        company: c,
        end_to_end_id: `E2E-${c}-${p}`,
        debtor_iban: 'NO9386011117947',
        debtor_name: 'Bureau client AS',
        execution_date: '2026-01-06',
        amount_minor: 10_000 + p * 137,
        currency: p % 10 === 0 ? 'EUR' : 'NOK',
        creditor_iban: 'NO8330001234567',
        creditor_name: `Creditor ${p}`,
        creditor_name_folded: foldForSearch(`Creditor ${p}`),
        state: p < held ? 'held' : p < held + unknown ? 'unknown' : 'ACSC',
        ...stamp,
      });
    counts.push(
      { kind: 'payment_file', company: c, state: 'completed', n: FILES - rejected },
      { kind: 'payment', company: c, state: 'ACSC', n: PAYMENTS - held - unknown },
      ...(rejected ? [{ kind: 'payment_file', company: c, state: 'rejected', n: rejected }] : []),
      ...(held ? [{ kind: 'payment', company: c, state: 'held', n: held }] : []),
      ...(unknown ? [{ kind: 'payment', company: c, state: 'unknown', n: unknown }] : []),
    );
  });
  await insert(db, 'payment_files', files);
  await insert(db, 'payments', payments);
  await insert(db, 'state_counts', counts);
  await insert(
    db,
    'baskets',
    ids.flatMap((c, i) =>
      Array.from({ length: BASKETS }, (_, b) => {
        const waiting = b === 0 && i % 4 === 0;
        return {
          id: `b-${c}-${b}`,
          company: c,
          idempotency_key: `k-${c}-${b}`,
          state: waiting ? 'link_issued' : 'authorised',
          sca_link_expires_at: at(waiting ? 3_600_000 : -86_400_000 * b),
          ...stamp,
        };
      }),
    ),
  );
  await insert(
    db,
    'findings',
    ids.flatMap((c, i) =>
      Array.from({ length: FINDINGS }, (_, k) => ({
        company: c,
        id: `F-${c}-${k}`,
        type: 'unmatched_payment',
        fact_hash: 'h',
        subject: `payment ${k}`,
        summary: 'not booked',
        first_seen_at: at(-k * 86_400_000),
        last_seen_at: at(0),
        last_run_id: 'run-1',
        present: k < 2,
        decision: k === 0 && i % 3 === 0 ? 'open' : k < 2 ? 'acknowledged' : 'open',
      })),
    ),
  );
  for (const t of [
    'consents',
    'accounts',
    'job_successes',
    'payment_files',
    'payments',
    'state_counts',
    'baskets',
    'findings',
  ])
    await db.knex.raw(`analyze table ${t}`);
}

export const bench: Bench = async ({ quick, scale }) => {
  const n = quick ? 200 : scaledSize(1000, scale, { step: 10, min: 50 });
  const loads = quick ? 10 : 30;
  const unavailable = await mariaDbUnavailableReason();
  const name = `console Board page, ${n.toLocaleString('en')} companies, MariaDB`;
  if (unavailable !== undefined)
    return [notMeasured(n, name, `MariaDB is not reachable (${unavailable}); nothing measured`)];
  const target = await createThrowawayDatabase();
  const db = await openDatabase({ url: target.url });
  try {
    await db.migrate();
    const now = new Date();
    const seedStart = performance.now();
    await seed(db, n, now);
    const seedMs = performance.now() - seedStart;
    const ids = Array.from({ length: n }, (_, i) => company(i));
    const deps: ConsoleDeps = {
      store: createStore(db, systemClock),
      clock: systemClock,
      companies: ids.map((id) => ({
        id,
        name: `Client ${id} AS`,
        timeZone: 'Europe/Oslo',
        organisationNumber: '999999999',
        bankIds: ['testbank'],
      })),
    };
    const roles = new Map(ids.map((id) => [id, new Set<Role>(['operator'])]));
    const request = (query: Record<string, string>): PageRequest => ({
      user: { id: 'local:bench', person: 'bench', name: 'bench', rolesByCompany: roles },
      company: ids[0]!,
      query: new URLSearchParams({ company: ids[0]!, ...query }),
      params: {},
      csrfToken: 'bench',
    });
    const lastPage = String(Math.ceil(n / 50));
    const kinds: [string, Record<string, string>][] = [
      ['first page', {}],
      ['needs attention', { filter: 'needs-attention' }],
      ['last page', { page: lastPage }],
    ];
    const results: { kind: string; median: number; rows: number }[] = [];
    const all: number[] = [];
    for (const [kind, query] of kinds) {
      const times: number[] = [];
      let rows = 0;
      // One load first, not counted: the server's caches as a morning's second reader finds them.
      await boardPage.load(deps, request(query));
      for (let k = 0; k < loads; k++) {
        const start = performance.now();
        const page = await boardPage.load(deps, request(query));
        times.push(performance.now() - start);
        if (page.status !== undefined && page.status !== 200)
          throw new Error(`the board (${kind}) answered ${page.status}`);
        rows = (page.body.match(/<tr class="red">|<tr>/g) ?? []).length - 1;
      }
      all.push(...times);
      results.push({ kind, median: median(times), rows });
    }
    const lookups: number[] = [];
    for (let k = 0; k < loads * 3; k++) {
      const start = performance.now();
      await db
        .knex('state_counts')
        .where({ kind: 'payment', company: ids[k % n]!, state: 'held' })
        .first();
      lookups.push(performance.now() - start);
    }
    const ms = median(all);
    const row: BenchRow = {
      key: 'bureau-board',
      name,
      size: n,
      unit: 'pages',
      rate: 1000 / ms,
      baselineName: "one company's counter by primary key",
      baselineRate: 1000 / median(lookups),
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      figures: { ms },
      notes:
        `median of ${loads} loads of the page's load() per kind: ` +
        results.map((r) => `${r.kind} ${r.median.toFixed(1)} ms (${r.rows} companies)`).join(', ') +
        `; all ${ms.toFixed(1)} ms (aim ≤ 200 ms); seeded in ${(seedMs / 1000).toFixed(1)} s`,
    };
    return [row];
  } finally {
    await db.close();
    await target.drop();
  }
};

function notMeasured(size: number, name: string, notes: string): BenchRow {
  return {
    key: 'bureau-board',
    name,
    size,
    unit: 'pages',
    rate: 0,
    baselineName: "one company's counter by primary key",
    baselineRate: 0,
    peakRssBytes: 0,
    notes,
  };
}
