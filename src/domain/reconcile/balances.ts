// What finance checks first: per account and currency, the period's opening balance, what
// settle sent, what the bank booked out and in, the closing balance that follows from them, the
// bank's own closing balance and the difference; and how old the open items are, in business
// days after their execution date.
import type { BusinessCalendar } from '../business-calendar.js';
import type { LocalDate } from '../local-date.js';
import type { Money } from '../money.js';
import type { Finding } from './findings.js';
import type { BookedTransaction, SentPayment, StatementPeriod } from './inputs.js';

export interface AccountBalance {
  accountIban: string;
  currency: string;
  /** Opening balance of the first statement day in the period. */
  opening?: Money;
  /** Payments settle sent for execution in the period (expected to be booked). */
  sent: Money;
  bookedOut: Money;
  bookedIn: Money;
  /** Opening − booked out + booked in. */
  closing?: Money;
  /** The bank's closing balance of the last statement day in the period. */
  reported?: Money;
  /** Closing − reported: not zero means a booking is missing or doubled. */
  difference?: Money;
}

export function accountBalances(
  scope: { from: LocalDate; to: LocalDate },
  payments: readonly SentPayment[],
  transactions: readonly BookedTransaction[],
  statements: readonly StatementPeriod[],
): AccountBalance[] {
  const rows = new Map<
    string,
    { sent: bigint; out: bigint; in: bigint; first?: StatementPeriod; last?: StatementPeriod }
  >();
  const row = (iban: string, currency: string) => {
    const key = `${iban} ${currency}`;
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { sent: 0n, out: 0n, in: 0n }));
    return r;
  };
  const inside = (d: LocalDate) => d >= scope.from && d <= scope.to;
  for (const p of payments)
    if (inside(p.requestedExecutionDate) && (p.outcome === 'sent' || p.outcome === 'unknown'))
      row(p.debtorIban, p.amount.currency).sent += p.amount.minor;
  for (const t of transactions) {
    if (!inside(t.bookingDate)) continue;
    const r = row(t.accountIban, t.amount.currency);
    if (t.amount.minor < 0n) r.out -= t.amount.minor;
    else r.in += t.amount.minor;
  }
  for (const s of statements) {
    if (!inside(s.from) && !inside(s.to)) continue;
    const r = row(s.accountIban, s.closingBalance.currency);
    if (!r.first || s.from < r.first.from) r.first = s;
    if (!r.last || s.to > r.last.to) r.last = s;
  }
  return [...rows]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, r]) => {
      const [accountIban, currency] = key.split(' ') as [string, string];
      const m = (minor: bigint): Money => ({ minor, currency });
      const opening = r.first?.openingBalance.minor;
      const closing = opening === undefined ? undefined : opening - r.out + r.in;
      const reported = r.last?.closingBalance.minor;
      return {
        accountIban,
        currency,
        ...(opening === undefined ? {} : { opening: m(opening) }),
        sent: m(r.sent),
        bookedOut: m(r.out),
        bookedIn: m(r.in),
        ...(closing === undefined ? {} : { closing: m(closing) }),
        ...(reported === undefined ? {} : { reported: m(reported) }),
        ...(closing === undefined || reported === undefined ? {} : { difference: m(closing - reported) }),
      };
    });
}

export const AGE_BUCKETS = ['0–2', '3–5', 'over 5'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];

export interface AgedItems {
  bucket: AgeBucket;
  count: number;
  /** Per currency, alphabetical. */
  totals: Money[];
}

const OPEN_TYPES = new Set(['not_booked', 'awaiting_booking', 'unknown_outcome']);

/** Open payments (sent, not booked) by business days since their execution date. */
export function agedItems(
  findings: readonly Finding[],
  today: LocalDate,
  calendar: Pick<BusinessCalendar, 'addBusinessDays'>,
): AgedItems[] {
  const buckets = AGE_BUCKETS.map((bucket) => ({ bucket, count: 0, totals: new Map<string, bigint>() }));
  for (const f of findings) {
    if (!OPEN_TYPES.has(f.type) || !f.executionDate || !f.amount) continue;
    const b = buckets[bucketOf(businessDaysSince(f.executionDate, today, calendar))]!;
    b.count++;
    b.totals.set(f.amount.currency, (b.totals.get(f.amount.currency) ?? 0n) + f.amount.minor);
  }
  return buckets.map((b) => ({
    bucket: b.bucket,
    count: b.count,
    totals: [...b.totals]
      .sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))
      .map(([currency, minor]) => ({ currency, minor })),
  }));
}

function bucketOf(days: number): number {
  return days <= 2 ? 0 : days <= 5 ? 1 : 2;
}

/** Business days from `date` to `today` (0 on the day itself), counted up to 6 (enough for the buckets). */
function businessDaysSince(
  date: LocalDate,
  today: LocalDate,
  calendar: Pick<BusinessCalendar, 'addBusinessDays'>,
): number {
  let n = 0;
  while (n < 6 && calendar.addBusinessDays(date, n + 1) <= today) n++;
  return n;
}
