// A stored account period as a domain Statement. Everything in it is a function of the stored
// bank data and the period, never of the run: the statement id, the sequence number and the
// creation time are derived, so writing the same period again gives the same bytes.
import { createHash } from 'node:crypto';
import type { LocalDate } from '../../src/domain/local-date.js';
import type { Statement, StatementEntry } from '../../src/domain/statement.js';
import type { StatementDay } from '../../src/store/index.js';
import type { StatementRepository, StoredTransaction } from '../../src/store/index.js';
import type { StoredAccount } from '../../src/store/index.js';
import { endOfDay } from '../../src/domain/zoned-time.js';

export interface StatementPeriod {
  account: StoredAccount;
  ownerName: string;
  /** The complete days of the period, in order (at least one). */
  days: readonly StatementDay[];
  sequenceNumber: number;
  timeZone: string;
}

/** Stmt/Id (≤ 35 characters): the period plus a digest of the bank's account id. */
export function statementId(accountId: string, from: LocalDate, to: LocalDate): string {
  const digest = createHash('sha256').update(accountId).digest('hex').slice(0, 12).toUpperCase();
  const compact = (d: LocalDate) => d.replaceAll('-', '');
  return from === to ? `${compact(from)}-${digest}` : `${compact(from)}-${compact(to)}-${digest}`;
}

export async function buildStatement(
  statements: StatementRepository,
  period: StatementPeriod,
): Promise<{ statement: Statement; entries: StatementEntry[] }> {
  const first = period.days[0];
  const last = period.days.at(-1);
  if (first === undefined || last === undefined) throw new RangeError('a statement period needs at least one day');
  const { account } = period;
  const currency = account.currency ?? first.currency;
  const entries: StatementEntry[] = [];
  let sum = 0n;
  for (const day of period.days) {
    const stored = await statements.listTransactions(account.id, { status: 'booked', bookingDate: day.day });
    stored.sort(byLedgerOrder);
    for (const tx of stored) {
      entries.push(toEntry(tx));
      sum += tx.amount.minor;
    }
  }
  const closing = last.closingMinor ?? 0n;
  // A day with a gap has no known opening; an explicit export then shows closing − entries.
  const opening = first.openingMinor ?? closing - sum;
  const statement: Statement = {
    id: statementId(account.id, first.day, last.day),
    sequenceNumber: period.sequenceNumber,
    createdAt: endOfDay(last.day, period.timeZone),
    account: {
      iban: account.iban ?? account.id,
      currency,
      ownerName: period.ownerName,
      ...(account.name === undefined ? {} : { name: account.name }),
      ...(account.servicerBic === undefined ? {} : { servicerBic: account.servicerBic }),
      ...(account.servicerName === undefined ? {} : { servicerName: account.servicerName }),
    },
    fromDate: first.day,
    toDate: last.day,
    openingBalance: { amount: { minor: opening, currency }, date: first.day },
    closingBalance: { amount: { minor: closing, currency }, date: last.day },
    entries,
  };
  return { statement, entries };
}

/** Booking date, then the bank's entry reference, then its id: stable whatever the insert order. */
function byLedgerOrder(a: StoredTransaction, b: StoredTransaction): number {
  const key = (t: StoredTransaction) => [t.bookingDate ?? '', t.entryReference ?? '', t.bankTransactionId];
  const [ka, kb] = [key(a), key(b)];
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
  return 0;
}

function accountServicerRef(tx: StoredTransaction): string | undefined {
  const raw = tx.raw as { references?: { accountServicerReference?: unknown } } | undefined;
  const ref = raw?.references?.accountServicerReference;
  return typeof ref === 'string' && ref !== '' ? ref : tx.entryReference;
}

function toEntry(tx: StoredTransaction): StatementEntry {
  const entry: StatementEntry = { amount: tx.amount, bookingDate: tx.bookingDate!, status: 'BOOK' };
  if (tx.valueDate !== undefined) entry.valueDate = tx.valueDate;
  const ref = accountServicerRef(tx);
  if (ref !== undefined) entry.accountServicerRef = ref;
  if (tx.endToEndId !== undefined) entry.endToEndId = tx.endToEndId;
  if (tx.counterpartyName !== undefined || tx.counterpartyIban !== undefined) {
    entry.counterparty = {
      ...(tx.counterpartyName === undefined ? {} : { name: tx.counterpartyName }),
      ...(tx.counterpartyIban === undefined ? {} : { iban: tx.counterpartyIban }),
    };
  }
  if (tx.remittance !== undefined && tx.remittance !== '') entry.remittance = { unstructured: tx.remittance };
  return entry;
}
