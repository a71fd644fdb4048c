// A stored account period as a domain Statement. Everything in it is a function of the stored
// bank data and the period, never of the run: the statement id, the sequence number and the
// creation time are derived, so writing the same period again gives the same bytes.
import { createHash } from 'node:crypto';
import type { LocalDate } from '../../src/domain/local-date.js';
import {
  summarizeEntries,
  type Statement,
  type StatementAccount,
  type StatementEntry,
} from '../../src/domain/statement.js';
import type { StatementDay, StatementRepository, StoredTransaction, StoredAccount } from '../../src/store/index.js';
import { describeBookings, type DescribeSources } from './describe-bookings.js';
import { endOfDay } from '../../src/domain/zoned-time.js';

export interface StatementPeriod {
  account: StoredAccount;
  /** The company's id: its own payments are looked up to quote their ids. */
  company: string;
  ownerName: string;
  /** The complete days of the period, in order (at least one). */
  days: readonly StatementDay[];
  sequenceNumber: number;
  /** LglSeqNb, when the period has one. */
  legalSequenceNumber?: number;
  timeZone: string;
  /** The account's booked transactions by day, when the caller read them already for many days. */
  booked?: ReadonlyMap<LocalDate, readonly StoredTransaction[]>;
}

export interface StatementSources extends DescribeSources {
  statements: StatementRepository;
}

/** Stmt/Id (≤ 35 characters): the period plus a digest of the bank's account id. */
export function statementId(accountId: string, from: LocalDate, to: LocalDate): string {
  const digest = createHash('sha256').update(accountId).digest('hex').slice(0, 12).toUpperCase();
  const compact = (d: LocalDate) => d.replaceAll('-', '');
  return from === to ? `${compact(from)}-${digest}` : `${compact(from)}-${compact(to)}-${digest}`;
}

export async function buildStatement(
  sources: StatementSources,
  period: StatementPeriod,
): Promise<{ statement: Statement; entries: StatementEntry[] }> {
  const first = period.days[0];
  const last = period.days.at(-1);
  if (first === undefined || last === undefined) throw new RangeError('a statement period needs at least one day');
  const { account } = period;
  const currency = account.currency ?? first.currency;
  const stored: StoredTransaction[] = [];
  for (const day of period.days) {
    const booked =
      period.booked === undefined
        ? await sources.statements.listTransactions(account.id, { status: 'booked', bookingDate: day.day })
        : [...(period.booked.get(day.day) ?? [])];
    // One by one: a busy account's day can have more entries than a spread's arguments may be.
    for (const t of booked.sort(byLedgerOrder)) stored.push(t);
  }
  const described = await describeBookings(
    sources,
    { company: period.company, iban: account.iban ?? account.id },
    stored,
  );
  const entries = described.map((d) => d.entry);
  const sum = stored.reduce((total, tx) => total + tx.amount.minor, 0n);
  const closing = last.closingMinor ?? 0n;
  // A day with a gap has no known opening; an explicit export then shows closing − entries.
  const opening = first.openingMinor ?? closing - sum;
  const statement: Statement = {
    id: statementId(account.id, first.day, last.day),
    sequenceNumber: period.sequenceNumber,
    ...(period.legalSequenceNumber === undefined ? {} : { legalSequenceNumber: period.legalSequenceNumber }),
    createdAt: endOfDay(last.day, period.timeZone),
    account: statementAccount(account, period.ownerName, currency),
    fromDate: first.day,
    toDate: last.day,
    openingBalance: { amount: { minor: opening, currency }, date: first.day },
    closingBalance: { amount: { minor: closing, currency }, date: last.day },
    summary: summarizeEntries(entries),
    entries,
  };
  return { statement, entries };
}

/** Booking date, then the bank's entry reference, then its id: stable whatever the insert order. */
export function byLedgerOrder(a: StoredTransaction, b: StoredTransaction): number {
  const key = (t: StoredTransaction) => [t.bookingDate ?? '', t.entryReference ?? '', t.bankTransactionId];
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
  return 0;
}

/** The account as the documents name it: IBAN (or the bank's id), currency, owner, servicer. */
export function statementAccount(account: StoredAccount, ownerName: string, currency: string): StatementAccount {
  return {
    iban: account.iban ?? account.id,
    currency: account.currency ?? currency,
    ownerName,
    ...(account.name === undefined ? {} : { name: account.name }),
    ...(account.servicerBic === undefined ? {} : { servicerBic: account.servicerBic }),
    ...(account.servicerName === undefined ? {} : { servicerName: account.servicerName }),
  };
}
