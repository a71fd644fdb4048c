// Benchmark of a query as history grows (`npm run bench`): a bureau's database gains a night of
// files, payments and bookings every night and keeps them for years (retention: five years by
// default). Reconciliation's period query — a company's sent lines of the period and the
// bookings of its accounts, exactly as `settle run reconcile` reads them — must cost the same
// after five years of nights as after one night. One SQLite database is filled night by night
// (two companies, each night a file of N payments, sent in one bulk and booked the same day);
// beside it a second one, open in the same process, holds only the measured period's own nights.
// After one year and after five years of nights before the period, the query is timed on both in
// paired rounds, the two in turns (which goes first swapping each round), close in time, until
// each side has used two seconds of CPU in all (scaled down with the sizes). The rows' baseline is
// the rate with no history: a ratio of 1 is flat. The ratio is the median of the rounds' ratios,
// which a machine's load changing during the run moves less than the median of each side; the
// rate is the median with history, the baseline rate the rate ÷ that ratio. Timed at different
// moments (the baseline before the history was added), a query of milliseconds measured the
// machine's neighbours more than the code. The notes also time the read this replaced (every
// sent line of the company, filtered after), which grows with the years. The same nights carry
// their statement days, delivered files and sequence numbers, and a second pair of rows times the
// nightly statement export of an account with nothing new to write (`settle run export` as the
// chain runs it: what it plans from and what it checks), paired the same way: it reads from its
// export floor, so it too must not grow with the years; the notes time one run from the first day
// (the floor set back), as the export read before.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExportStatements, type ExportStatementsDeps } from '../jobs/statements/export.js';
import { sentPayments, widened } from '../jobs/reconcile/inputs.js';
import { exportUnits } from '../jobs/statements/render.js';
import { configSchema, type CompanyConfig } from '../src/config/index.js';
import { ManualClock, systemClock } from '../src/domain/clock.js';
import { addDays, type LocalDate } from '../src/domain/local-date.js';
import { foldForSearch } from '../src/domain/search-fold.js';
import { BANK_STATUSES } from '../src/domain/states.js';
import { silentLogger } from '../src/log/index.js';
import { createStore, FIRST_DAY, openDatabase, type Database, type Store } from '../src/store/index.js';
import { LocalFileStore } from '../src/transport/index.js';
import { median, scaledSize, type Bench, type BenchRow } from './row.js';
import type { Knex } from 'knex';

const COMPANIES = ['acme', 'beta'];
/** The day reconciled: the measured period is it widened by the matcher's 3-day window. */
const TODAY = '2031-06-02' as LocalDate;
/**
 * The paired rounds of a full-size run: at least MIN_ROUNDS, and more until each side has used
 * CPU_MS of CPU in all, at most MAX_ROUNDS. Each side of a round runs the read as many times as
 * make about SAMPLE_MS of CPU (once if it takes longer): the export's runs cost some 5 ms more
 * every few runs (likely garbage collection), which a sample of one run would catch on one side
 * more than the other. Below full size both are the scale's share, so a smoke run stays quick;
 * a quick run times single runs.
 */
const MIN_ROUNDS = 31;
const MAX_ROUNDS = 1001;
const CPU_MS = 2000;
const SAMPLE_MS = 30;
/** Runs of each side before the timed rounds: the JIT and SQLite's page cache. */
const WARM_UPS = 3;
/** The years of nights before the measured period, in the order they are added. */
const HISTORIES = [
  { key: 'history-reconcile-1y', exportKey: 'history-export-1y', years: 1 },
  { key: 'history-reconcile-5y', exportKey: 'history-export-5y', years: 5 },
];
/** The statement formats every night was delivered in. */
const FORMATS = ['camt.053.001.02', 'csv'] as const;

interface Timed {
  /** CPU milliseconds of one query. */
  cpuMs: number;
  /** Lines of the period the query returned (payments + bookings). */
  lines: number;
}

/** One side of a database: the store, the export as the chain runs it, and the seeder that fills it. */
interface Side {
  db: Database;
  store: Store;
  seeder: Seeder;
  exportNight: () => Promise<void>;
}

export const bench: Bench = async ({ quick, scale }) => {
  const perNight = quick ? 20 : scaledSize(200, scale, { step: 10, min: 10 });
  const share = quick ? 0 : Math.min(1, scale);
  const rounds: Rounds = { min: MIN_ROUNDS, max: MAX_ROUNDS, cpuMs: CPU_MS * share, sampleMs: SAMPLE_MS * share };
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-history-'));
  // The measured period: a reconciliation of one day, widened by the matcher's 3-day window.
  const period = widened({ from: TODAY, to: TODAY }, 3);
  // The export runs the morning after the last night: every day is delivered.
  const exportDay = addDays(period.from, 7);
  const opened: Database[] = [];
  try {
    /** A database in its own folder with the period's own nights and nothing before them. */
    const side = async (name: string): Promise<Side> => {
      const db = await openDatabase({ url: `sqlite:${join(dir, `${name}.sqlite`)}` });
      opened.push(db);
      await db.migrate();
      const company = exportingCompany(join(dir, name));
      // settle never creates a company's root (the operator does, or `settle company init`).
      await mkdir(company.root, { recursive: true });
      const seeder = new Seeder(
        db,
        perNight,
        exportUnits(company.statements).map((u) => u.exportFormat),
      );
      for (const c of COMPANIES) await seeder.account(c);
      await seeder.nights(period.from, 7);
      const exportNight = exportRun(db, company, exportDay);
      // The first runs set the export floors at the period, as the nights before any history did.
      for (let i = 0; i < WARM_UPS; i++) await exportNight();
      return { db, store: createStore(db, systemClock), seeder, exportNight };
    };
    // The baseline, kept open beside the one that grows: its period is the same nights, the same rows.
    const none = await side('none');
    const grown = await side('history');
    const rows: BenchRow[] = [];
    let nightsBefore = 0;
    for (const h of HISTORIES) {
      const nights = h.years * 365 - nightsBefore;
      await grown.seeder.nights(addDays(period.from, -(nightsBefore + nights)), nights);
      nightsBefore += nights;
      const query = await paired(
        () => periodQuery(none.store, period),
        () => periodQuery(grown.store, period),
        rounds,
      );
      const lines = query.result;
      const before = await timeAllSent(grown.store, period);
      const rate = (lines / query.history) * 1000;
      const baselineRate = rate / query.ratio;
      const payments = grown.seeder.payments;
      rows.push({
        key: h.key,
        name: `reconciliation's period query after ${h.years} year${h.years > 1 ? 's' : ''} of nights (${payments.toLocaleString('en')} payments, ${perNight} per company a night), SQLite`,
        size: payments,
        unit: 'payments',
        rate,
        baselineName: 'the same query with no history',
        baselineRate,
        peakRssBytes: 0,
        notes:
          `rates: period lines read per CPU second (${lines} lines of one company, the same with and without history); ${pairedNote(query)}; ` +
          `the read it replaced (every sent line of the company, filtered after): ${before.cpuMs.toFixed(0)} ms for ${before.lines.toLocaleString('en')} lines`,
      });
      // The floors as the baseline's: a run from the first day (below, or the 1-year row's) must not be timed.
      await sameFloors(none.db, grown.db);
      const exports = await paired(none.exportNight, grown.exportNight, rounds);
      const exportBefore = await timeExportFromFirstDay(grown.db, grown.exportNight);
      rows.push({
        key: h.exportKey,
        name: `an account's nightly statement export with nothing new, after ${h.years} year${h.years > 1 ? 's' : ''} of delivered days (${FORMATS.join(' + ')}), SQLite`,
        size: h.years * 365 + 7,
        unit: 'runs',
        rate: 1000 / exports.history,
        baselineName: 'the same export with no history',
        baselineRate: 1000 / exports.history / exports.ratio,
        peakRssBytes: 0,
        notes:
          `rates: runs per CPU second; ${pairedNote(exports)}; ` +
          `one run from the first day (the floor set back, as every run read before migration 0520): ${exportBefore.toFixed(0)} ms`,
      });
    }
    return rows;
  } finally {
    for (const db of opened) await db.close();
    await rm(dir, { recursive: true, force: true });
  }
};

/** Reconciliation's inputs of the period for one company, as jobs/reconcile/reconcile.ts reads them. */
async function periodQuery(store: Store, period: { from: LocalDate; to: LocalDate }): Promise<number> {
  const payments = await sentPayments(store, COMPANIES[0]!, period);
  const booked = await store.statements.listBookedOfCompany(COMPANIES[0]!, period.from, period.to);
  return payments.length + booked.length;
}

interface Rounds {
  min: number;
  max: number;
  /** The CPU each side must have used in all before the rounds may stop. */
  cpuMs: number;
  /** The CPU a side's sample should take: runs of the read, as many as make it. */
  sampleMs: number;
}

interface Paired<T> {
  /** Median CPU milliseconds of one run with no history, and with history. */
  none: number;
  history: number;
  /** Median of the rounds' ratios (no history's CPU ÷ history's: the ratio of the rates). */
  ratio: number;
  rounds: number;
  /** Runs of each side in a round. */
  runs: number;
  /** CPU milliseconds each side used in all, timed. */
  noneTotal: number;
  historyTotal: number;
  /** What every run of both sides returned (the same, or it throws). */
  result: T;
}

/**
 * Runs with no history and with history in paired rounds, one of each a round, which goes first
 * swapping each round, so both meet the same machine, heap and moment; CPU of the whole process.
 */
async function paired<T>(none: () => Promise<T>, history: () => Promise<T>, rounds: Rounds): Promise<Paired<T>> {
  const expected = await none();
  const timed = async (side: string, run: () => Promise<T>, runs: number): Promise<number> => {
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) {
      const got = await run();
      if (got !== expected)
        throw new Error(`the period's result differs ${side}: ${String(expected)} → ${String(got)}`);
    }
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / 1000;
  };
  // Warm: the JIT and SQLite's page cache; the fastest warm run sizes the samples.
  let fastest = Infinity;
  for (let i = 0; i < WARM_UPS; i++)
    fastest = Math.min(fastest, await timed('with no history', none, 1), await timed('with history', history, 1));
  const runs = Math.max(1, Math.round(rounds.sampleMs / fastest));
  const noneMs: number[] = [];
  const historyMs: number[] = [];
  let noneTotal = 0;
  let historyTotal = 0;
  while (
    noneMs.length < rounds.max &&
    (noneMs.length < rounds.min || Math.min(noneTotal, historyTotal) < rounds.cpuMs)
  ) {
    const first = noneMs.length % 2 === 0;
    if (first) noneMs.push(await timed('with no history', none, runs));
    historyMs.push(await timed('with history', history, runs));
    if (!first) noneMs.push(await timed('with no history', none, runs));
    noneTotal += noneMs.at(-1)!;
    historyTotal += historyMs.at(-1)!;
  }
  return {
    none: median(noneMs) / runs,
    history: median(historyMs) / runs,
    ratio: median(noneMs.map((n, i) => n / historyMs[i]!)),
    rounds: noneMs.length,
    runs,
    noneTotal,
    historyTotal,
    result: expected,
  };
}

const pairedNote = (p: Paired<unknown>) =>
  `${p.rounds} paired rounds in turns, ${p.runs} run${p.runs > 1 ? 's' : ''} a side each (${p.historyTotal.toFixed(0)} ms and ${p.noneTotal.toFixed(0)} ms of CPU timed in all); ` +
  `the ratio is the median of the rounds' ratios, ${p.ratio.toFixed(2)}× (the baseline rate is the rate ÷ it); ` +
  `medians ${p.history.toFixed(1)} ms vs ${p.none.toFixed(1)} ms a run with no history`;

/** Throws unless both databases' export floors stand on the same days (the baseline's are the period's). */
async function sameFloors(none: Database, grown: Database): Promise<void> {
  const floors = async (db: Database) =>
    JSON.stringify(
      await db.knex('export_floors').select('account_id', 'format', 'from_day').orderBy(['account_id', 'format']),
    );
  const [a, b] = [await floors(none), await floors(grown)];
  if (a !== b) throw new Error(`the export floors differ from the baseline's: ${a} vs ${b}`);
}

/** The former read: every sent line of the company, the period picked out afterwards. */
async function timeAllSent(store: Store, period: { from: LocalDate; to: LocalDate }): Promise<Timed> {
  const cpu0 = process.cpuUsage();
  const all = await store.payments.listByState(['sent', 'unknown', ...BANK_STATUSES], COMPANIES[0]);
  const inPeriod = all.filter((p) => p.requestedExecutionDate >= period.from && p.requestedExecutionDate <= period.to);
  const cpu = process.cpuUsage(cpu0);
  if (inPeriod.length === 0) throw new Error('no sent line in the period');
  return { cpuMs: (cpu.user + cpu.system) / 1000, lines: all.length };
}

/** A company whose statements go out in FORMATS, its folder in the bench's directory. */
function exportingCompany(dir: string): CompanyConfig {
  return configSchema.parse({
    companies: [
      {
        id: COMPANIES[0],
        name: 'Acme AS',
        organisationNumber: '999999999',
        root: join(dir, COMPANIES[0]!),
        statements: { formats: [...FORMATS] },
      },
    ],
  }).companies[0]!;
}

/** `settle run export` for the company as the nightly chain runs it, on the morning of `day`. */
function exportRun(db: Database, company: CompanyConfig, day: LocalDate): () => Promise<void> {
  const clock = new ManualClock(`${day}T06:00:00Z`);
  const store = createStore(db, clock);
  const fileStore = new LocalFileStore(company.root);
  const deps: ExportStatementsDeps = {
    statements: store.statements,
    days: store.statementDays,
    exports: store.exports,
    payments: store.payments,
    legalSequence: store.legalSequence,
    exportFloors: store.exportFloors,
    clock,
    logger: silentLogger(),
    timeZone: 'Europe/Oslo',
    fileStore: () => Promise.resolve(fileStore),
  };
  return async () => {
    const result = await runExportStatements(deps, [company]);
    // Every day was delivered: a run that writes, withholds or reports anything measures something else.
    const done = result.files.length + result.withheld.length + result.changed.length;
    if (done > 0)
      throw new Error(`the export found work in a delivered history: ${JSON.stringify(result).slice(0, 300)}`);
  };
}

/** One run with the floors set back below every day: the export reads the whole history, as before 0520. */
async function timeExportFromFirstDay(db: Database, run: () => Promise<void>): Promise<number> {
  await db.knex('export_floors').update({ from_day: FIRST_DAY });
  const cpu0 = process.cpuUsage();
  await run();
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / 1000;
}

/**
 * Writes nights of history straight into the tables (a fixture: five years through the jobs
 * would take hours): per company and night a file, one bulk, its payments in ACSC, and their
 * bookings on the company's account the same day.
 */
class Seeder {
  payments = 0;
  private serial = 0;

  private sequence = 0;

  constructor(
    private readonly db: Database,
    private readonly perNight: number,
    private readonly exportFormats: readonly string[],
  ) {}

  async account(company: string): Promise<void> {
    const at = new Date().toISOString();
    await this.db
      .knex('accounts')
      .insert({ id: `acc-${company}`, company, iban: iban(company), currency: 'NOK', created_at: at, updated_at: at });
  }

  async nights(first: LocalDate, count: number): Promise<void> {
    await this.db.transaction(async (trx) => {
      for (let n = 0; n < count; n++) {
        const day = addDays(first, n);
        for (const company of COMPANIES) {
          const at = `${day}T06:00:00.000Z`;
          const file = `f-${company}-${day}`;
          const bulk = `b-${company}-${day}`;
          const stamps = { created_at: at, updated_at: at };
          await trx('payment_files').insert({
            id: file,
            company,
            file_name: `pay-${day}.csv`,
            sha256: `${company}${day}`.padEnd(64, '0'),
            format: 'csv:generic',
            size_bytes: 100 * this.perNight,
            received_at: at,
            state: 'accepted',
            line_count: this.perNight,
            accepted_count: this.perNight,
            ...stamps,
          });
          await trx('bulks').insert({
            id: bulk,
            file_id: file,
            position: 1,
            company,
            debtor_iban: iban(company),
            execution_date: day,
            batch_booking: false,
            idempotency_key: bulk,
            state: 'ACSC',
            line_count: this.perNight,
            ...stamps,
          });
          const payments = [];
          const bookings = [];
          for (let i = 1; i <= this.perNight; i++) {
            const id = `p-${++this.serial}`;
            const e2e = `E2E-${this.serial}`;
            const amount = 100 + (this.serial % 50_000);
            payments.push({
              id,
              file_id: file,
              line_number: i + 1,
              company,
              end_to_end_id: e2e,
              debtor_iban: iban(company),
              debtor_name: company,
              execution_date: day,
              amount_minor: amount,
              currency: 'NOK',
              creditor_iban: `NO83${String(30000000000 + (this.serial % 5000))}`,
              creditor_name: 'Creditor AS',
              creditor_name_folded: foldForSearch('Creditor AS'),
              state: 'ACSC',
              bulk_id: bulk,
              ...stamps,
            });
            bookings.push({
              id: `t-${this.serial}`,
              account_id: `acc-${company}`,
              bank_transaction_id: `bt-${this.serial}`,
              booking_date: day,
              value_date: day,
              amount_minor: -amount,
              currency: 'NOK',
              end_to_end_id: e2e,
              status: 'booked',
              first_seen_at: at,
              updated_at: at,
            });
          }
          // 100 rows a statement stays under SQLite's bound-variable limit (32,766).
          for (let i = 0; i < payments.length; i += 100) await trx('payments').insert(payments.slice(i, i + 100));
          for (let i = 0; i < bookings.length; i += 100) await trx('transactions').insert(bookings.slice(i, i + 100));
          this.payments += payments.length;
          await this.delivered(trx, company, day, bookings);
        }
      }
    });
  }

  /**
   * The day's statement as delivered: its checked day, a file in each format (recorded without
   * a SHA-256, so the export's check of its window renders nothing) and its numbers.
   */
  private async delivered(
    trx: Knex.Transaction,
    company: string,
    day: LocalDate,
    bookings: readonly { amount_minor: number }[],
  ): Promise<void> {
    const account = `acc-${company}`;
    const at = `${day}T23:00:00.000Z`;
    const sum = bookings.reduce((total, b) => total + b.amount_minor, 0);
    await trx('statement_days').insert({
      account_id: account,
      day,
      currency: 'NOK',
      opening_minor: 0,
      closing_minor: sum,
      booked_sum_minor: sum,
      entry_count: bookings.length,
      continuity: 'ok',
      checked_at: at,
    });
    const number = ++this.sequence;
    await trx('legal_sequence_numbers').insert({
      account_id: account,
      day,
      year: Number(day.slice(0, 4)),
      number,
      assigned_at: at,
    });
    for (const format of this.exportFormats) {
      const file = { account_id: account, format, period: day, last_day: day, number, assigned_at: at };
      await trx('electronic_sequence_numbers').insert(file);
      await trx('exports').insert({
        id: `x-${format}-${account}-${day}`,
        company,
        format,
        subject_id: account,
        period: day,
        last_day: day,
        version: 1,
        file_name: `${account}-${day}.${format}`,
        entry_count: bookings.length,
        exported_at: at,
      });
    }
  }
}

function iban(company: string): string {
  return company === 'acme' ? 'NO9386011117947' : 'NO8330001234567';
}
