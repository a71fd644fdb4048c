// Benchmark of a query as history grows (`npm run bench`): a bureau's database gains a night of
// files, payments and bookings every night and keeps them for years (retention: five years by
// default). Reconciliation's period query — a company's sent lines of the period and the
// bookings of its accounts, exactly as `settle run reconcile` reads them — must cost the same
// after five years of nights as after one night. One SQLite database is filled night by night
// (two companies, each night a file of N payments, sent in one bulk and booked the next day),
// and the query is timed with no history, then with one year and five years of nights before
// the measured period. The rows' baseline is the rate with no history: a ratio of 1 is flat.
// The notes also time the read this replaced (every sent line of the company, filtered after),
// which grows with the years.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sentPayments, widened } from '../jobs/reconcile-inputs.js';
import { systemClock } from '../src/domain/clock.js';
import { addDays, type LocalDate } from '../src/domain/local-date.js';
import { BANK_STATUSES } from '../src/domain/states.js';
import { createStore, openDatabase, type Database, type Store } from '../src/store/index.js';
import { median, scaledSize, type Bench, type BenchRow } from './row.js';

const COMPANIES = ['acme', 'beta'];
/** The measured period: a reconciliation of one day, widened by the matcher's 3-day window. */
const TODAY = '2031-06-02' as LocalDate;
const REPEATS = 15;
/** The years of nights before the measured period, in the order they are added. */
const HISTORIES = [
  { key: 'history-reconcile-1y', years: 1 },
  { key: 'history-reconcile-5y', years: 5 },
];

interface Timed {
  /** CPU milliseconds of one query (median of REPEATS). */
  cpuMs: number;
  /** Lines of the period the query returned (payments + bookings). */
  lines: number;
}

export const bench: Bench = async ({ quick, scale }) => {
  const perNight = quick ? 20 : scaledSize(200, scale, { step: 10, min: 10 });
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-history-'));
  const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
  try {
    await db.migrate();
    const store = createStore(db, systemClock);
    const seeder = new Seeder(db, perNight);
    for (const company of COMPANIES) await seeder.account(company);
    // The measured period's own nights (the widened window), then nothing before them.
    const period = widened({ from: TODAY, to: TODAY }, 3);
    await seeder.nights(period.from, 7);
    const none = await time(store, period);
    const rows: BenchRow[] = [];
    let nightsBefore = 0;
    for (const h of HISTORIES) {
      const nights = h.years * 365 - nightsBefore;
      await seeder.nights(addDays(period.from, -(nightsBefore + nights)), nights);
      nightsBefore += nights;
      const withHistory = await time(store, period);
      const before = await timeAllSent(store, period);
      if (withHistory.lines !== none.lines)
        throw new Error(`the period's lines changed with history: ${none.lines} → ${withHistory.lines}`);
      const rate = (withHistory.lines / withHistory.cpuMs) * 1000;
      const baselineRate = (none.lines / none.cpuMs) * 1000;
      const payments = seeder.payments;
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
          `rates: period lines read per CPU second (${withHistory.lines} lines of one company, medians of ${REPEATS}); ` +
          `${withHistory.cpuMs.toFixed(1)} ms vs ${none.cpuMs.toFixed(1)} ms with no history; aim flat (ratio ≥ 0.7); ` +
          `the read it replaced (every sent line of the company, filtered after): ${before.cpuMs.toFixed(0)} ms for ${before.lines.toLocaleString('en')} lines`,
      });
    }
    return rows;
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
};

/** Reconciliation's inputs of the period for one company, as jobs/reconcile.ts reads them. */
async function periodQuery(store: Store, period: { from: LocalDate; to: LocalDate }): Promise<number> {
  const payments = await sentPayments(store, COMPANIES[0]!, period);
  const booked = await store.statements.listBookedOfCompany(COMPANIES[0]!, period.from, period.to);
  return payments.length + booked.length;
}

async function time(store: Store, period: { from: LocalDate; to: LocalDate }): Promise<Timed> {
  // Warm: the JIT and SQLite's page cache.
  for (let i = 0; i < 3; i++) await periodQuery(store, period);
  const samples: number[] = [];
  let lines = 0;
  for (let i = 0; i < REPEATS; i++) {
    const cpu0 = process.cpuUsage();
    lines = await periodQuery(store, period);
    const cpu = process.cpuUsage(cpu0);
    samples.push((cpu.user + cpu.system) / 1000);
  }
  return { cpuMs: median(samples), lines };
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

/**
 * Writes nights of history straight into the tables (a fixture: five years through the jobs
 * would take hours): per company and night a file, one bulk, its payments in ACSC, and their
 * bookings on the company's account the same day.
 */
class Seeder {
  payments = 0;
  private serial = 0;

  constructor(
    private readonly db: Database,
    private readonly perNight: number,
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
        }
      }
    });
  }
}

function iban(company: string): string {
  return company === 'acme' ? 'NO9386011117947' : 'NO8330001234567';
}
