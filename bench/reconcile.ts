// Benchmark of reconciliation matching (`npm run bench`): 1,000,000 payments against 1,000,000
// booked transactions with a realistic mix (most booked with their end-to-end id, some only
// recognisable by amount + creditor + date, a few batch-booked lump sums, unmatched payments,
// fees and other debits settle did not send), settle's three-rule matcher beside a plain hash
// join on endToEndId over the same data. Each case runs in its own child process so peak RSS
// (process.resourceUsage().maxRSS) belongs to that case; the data is generated in the child,
// deterministically, and its resident size is reported so the matcher's own share is visible.
// Matcher and join take turns, three times each, and the row gives the medians; the whole
// reconcile() with its findings runs in a child of its own, so its memory is not the matcher's.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median, scaledSize, type Bench, type BenchRow } from './row.js';
import type { BookedTransaction, SentPayment } from '../src/domain/reconcile/index.js';
import type { LocalDate } from '../src/domain/local-date.js';

const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHILD_ENV = 'SETTLE_BENCH_RECONCILE_CHILD';

type Mode = 'settle' | 'hash-join' | 'reconcile';
interface Measured {
  /** Wall-clock and CPU time (user + system, every thread: garbage collection counts) of the work alone. */
  matchMs: number;
  matchCpuMs: number;
  matchedPayments: number;
  byRule: Record<string, number>;
  findings?: number;
  dataRssBytes: number;
  maxRssBytes: number;
}

const REPEATS = 3;

/** Deterministic xorshift32, so both children see the same data. */
export function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

function addDays(date: string, days: number): LocalDate {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10) as LocalDate;
}

export function generate(n: number): { payments: SentPayment[]; transactions: BookedTransaction[] } {
  const next = random(20260302);
  const dates = Array.from({ length: 40 }, (_, i) => addDays('2026-03-02', i));
  const debtors = Array.from({ length: 20 }, (_, i) => `NO93860111${String(17947 + i).padStart(5, '0')}`);
  const creditor = (): string => `NO83${String(30000000000 + (next() % 200_000))}`;
  const payments: SentPayment[] = [];
  const transactions: BookedTransaction[] = [];
  const tx = (t: Omit<BookedTransaction, 'id' | 'company'>): void =>
    void transactions.push({ id: `T${transactions.length}`, company: 'acme', ...t });
  let lump: { bulkId: string; debtor: string; date: LocalDate; sum: bigint; lines: number } | undefined;
  for (let i = 0; i < n; i++) {
    const kind = i % 100;
    const debtorIban = debtors[next() % debtors.length]!;
    const date = dates[next() % dates.length]!;
    const minor = BigInt(1 + (next() % 10_000_000));
    const p: SentPayment = {
      id: `P${i}`,
      company: 'acme',
      endToEndId: `E2E-${i}`,
      amount: { minor, currency: 'NOK' },
      debtorIban,
      creditorIban: creditor(),
      requestedExecutionDate: date,
      bulkId: `B${i >> 8}`,
      batchBooking: false,
      outcome: kind === 98 ? 'rejected' : kind === 99 ? 'unknown' : 'sent',
    };
    if (kind < 85) {
      // Booked with its end-to-end id; one in 200 with a small amount difference.
      tx({
        accountIban: debtorIban,
        amount: { minor: -(i % 200 === 0 ? minor + 1n : minor), currency: 'NOK' },
        bookingDate: addDays(date, next() % 2),
        endToEndId: p.endToEndId,
        counterpartyIban: p.creditorIban,
      });
    } else if (kind < 92) {
      // The bank lost the end-to-end id: recognisable only by amount, creditor and date.
      tx({
        accountIban: debtorIban,
        amount: { minor: -minor, currency: 'NOK' },
        bookingDate: addDays(date, next() % 3),
        endToEndId: 'NOTPROVIDED',
        counterpartyIban: p.creditorIban,
      });
    } else if (kind < 95) {
      // Lines of batch-booked bulks of 10, each bulk booked as one lump sum.
      if (!lump) lump = { bulkId: `L${i}`, debtor: debtorIban, date, sum: 0n, lines: 0 };
      Object.assign(p, {
        bulkId: lump.bulkId,
        batchBooking: true,
        debtorIban: lump.debtor,
        requestedExecutionDate: lump.date,
      });
      lump.sum += minor;
      if (++lump.lines === 10) {
        tx({ accountIban: lump.debtor, amount: { minor: -lump.sum, currency: 'NOK' }, bookingDate: lump.date });
        lump = undefined;
      }
    }
    payments.push(p);
  }
  // Fees, direct debits and credits fill the statement up to n transactions.
  while (transactions.length < n) {
    const credit = next() % 4 === 0;
    tx({
      accountIban: debtors[next() % debtors.length]!,
      amount: { minor: (credit ? 1n : -1n) * BigInt(1 + (next() % 100_000)), currency: 'NOK' },
      bookingDate: dates[next() % dates.length]!,
      counterpartyIban: creditor(),
    });
  }
  // The bank's order is not settle's order.
  for (let i = transactions.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [transactions[i], transactions[j]] = [transactions[j]!, transactions[i]!];
  }
  return { payments, transactions };
}

/** Runs one case in a fresh process and returns what it measured. */
function measure(mode: Mode, n: number): Measured {
  const out = execFileSync(process.execPath, ['--max-old-space-size=8192', '--expose-gc', '--import', 'tsx', SELF], {
    cwd: ROOT,
    env: { ...process.env, [CHILD_ENV]: JSON.stringify({ mode, n }) },
    maxBuffer: 1 << 20,
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Measured;
}

/** Times `work` in wall-clock and CPU milliseconds. */
function timed<T>(work: () => T): { value: T; ms: number; cpuMs: number } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpuMs: (used.user + used.system) / 1000 };
}

async function child(mode: Mode, n: number): Promise<Measured> {
  const { payments, transactions } = generate(n);
  globalThis.gc?.();
  const dataRssBytes = process.memoryUsage().rss;
  const peak = (): number => process.resourceUsage().maxRSS * 1024;
  if (mode === 'hash-join') {
    // The baseline: what a hand-written join on the end-to-end id alone does.
    const {
      value: matched,
      ms,
      cpuMs,
    } = timed(() => {
      const byId = new Map<string, number>();
      for (let i = 0; i < transactions.length; i++) {
        const id = transactions[i]!.endToEndId;
        if (id !== undefined && id !== 'NOTPROVIDED') byId.set(id, i);
      }
      const pairs = new Int32Array(payments.length).fill(-1);
      let count = 0;
      for (let p = 0; p < payments.length; p++) {
        const t = byId.get(payments[p]!.endToEndId);
        if (t !== undefined) {
          pairs[p] = t;
          count++;
        }
      }
      return count;
    });
    return {
      matchMs: ms,
      matchCpuMs: cpuMs,
      matchedPayments: matched,
      byRule: { 'hash-join': matched },
      dataRssBytes,
      maxRssBytes: peak(),
    };
  }
  const { matchPayments, reconcile, DEFAULT_RECONCILE_CONFIG } = await import('../src/domain/reconcile/index.js');
  if (mode === 'reconcile') {
    const { businessCalendar } = await import('../src/domain/business-calendar.js');
    const calendar = businessCalendar('NO');
    const {
      value: full,
      ms,
      cpuMs,
    } = timed(() =>
      reconcile(
        { payments, transactions },
        { today: '2026-04-30' as LocalDate, now: new Date('2026-04-30T06:00:00Z'), calendar },
      ),
    );
    return {
      matchMs: ms,
      matchCpuMs: cpuMs,
      matchedPayments: 0,
      byRule: {},
      findings: full.findings.length,
      dataRssBytes,
      maxRssBytes: peak(),
    };
  }
  const { value: result, ms, cpuMs } = timed(() => matchPayments(payments, transactions, DEFAULT_RECONCILE_CONFIG));
  const byRule: Record<string, number> = {};
  let matchedPayments = 0;
  // Counted outside the timed work: building each match's object is the report's cost, not the matcher's.
  for (let k = 0; k < result.count; k++) {
    const m = result.match(k);
    byRule[m.rule] = (byRule[m.rule] ?? 0) + m.payments.length;
    matchedPayments += m.payments.length;
  }
  return { matchMs: ms, matchCpuMs: cpuMs, matchedPayments, byRule, dataRssBytes, maxRssBytes: peak() };
}

const MB = (b: number): string => `${(b / 1024 / 1024).toFixed(0)} MB`;

export const bench: Bench = ({ quick, scale }) => {
  // In hundreds: the generated mix repeats every 100 payments (i % 100).
  const n = quick ? 100_000 : scaledSize(1_000_000, scale, { step: 100, min: 1000 });
  const joins: Measured[] = [];
  const ours: Measured[] = [];
  for (let i = 0; i < REPEATS; i++) {
    joins.push(measure('hash-join', n));
    ours.push(measure('settle', n));
  }
  const full = measure('reconcile', n);
  const perCpu = (m: Measured): number => (n / m.matchCpuMs) * 1000;
  const perWall = (m: Measured): number => (n / m.matchMs) * 1000;
  const rate = median(ours.map(perCpu));
  const baselineRate = median(joins.map(perCpu));
  const peakRss = median(ours.map((m) => m.maxRssBytes));
  const joinPeak = median(joins.map((m) => m.maxRssBytes));
  const counts = ours[0]!;
  const rule = (name: string): string => (counts.byRule[name] ?? 0).toLocaleString('en');
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  const row: BenchRow = {
    key: 'reconcile',
    name: `reconcile match, ${n.toLocaleString('en')} payments × ${n.toLocaleString('en')} transactions`,
    size: n,
    unit: 'payments',
    rate,
    baselineName: 'hash join on endToEndId',
    baselineRate,
    peakRssBytes: peakRss,
    figures: { peakRatio: peakRss / joinPeak },
    notes:
      `rates per CPU second, medians of ${REPEATS} paired runs; ${(rate / baselineRate).toFixed(2)}× the join ` +
      `(wall: ${(median(ours.map(perWall)) / median(joins.map(perWall))).toFixed(2)}×); ` +
      `match ${seconds(median(ours.map((m) => m.matchCpuMs)))} CPU vs join ${seconds(median(joins.map((m) => m.matchCpuMs)))}; ` +
      `peak ${MB(peakRss)} vs join peak ${MB(joinPeak)} = ${(peakRss / joinPeak).toFixed(2)}×, data alone ${MB(counts.dataRssBytes)}; ` +
      `matched ${counts.matchedPayments.toLocaleString('en')} payments (end-to-end ${rule('end-to-end')}, lump sums ${rule('batch-lump-sum')}, amount+account+date ${rule('amount-account-date')}) ` +
      `vs join ${joins[0]!.matchedPayments.toLocaleString('en')}; ` +
      `whole reconcile() with ${(full.findings ?? 0).toLocaleString('en')} findings ${seconds(full.matchCpuMs)} CPU, peak ${MB(full.maxRssBytes)} (its own process)`,
  };
  return Promise.resolve([row]);
};

const childSpec = process.env[CHILD_ENV];
if (childSpec) {
  const { mode, n } = JSON.parse(childSpec) as { mode: Mode; n: number };
  process.stdout.write(JSON.stringify(await child(mode, n)) + '\n');
}
