// A stored account day as a camt.054 notification. Like the statement, everything in it is a
// function of the stored data and the day (id, sequence number, creation time), so writing the
// same day again gives the same bytes, which the re-export check relies on.
import type { Notification, NotificationKind } from '../../src/domain/notification.js';
import { endOfDay } from '../../src/domain/zoned-time.js';
import type { StatementDay, StatementRepository, StoredAccount } from '../../src/store/index.js';
import { byLedgerOrder, statementAccount, statementId } from './build-statement.js';
import { describeBookings, type DescribeSources } from './describe-bookings.js';

export interface NotificationDay {
  kind: NotificationKind;
  account: StoredAccount;
  company: string;
  ownerName: string;
  day: StatementDay;
  sequenceNumber: number;
  timeZone: string;
}

export interface NotificationSources extends DescribeSources {
  statements: StatementRepository;
}

export async function buildNotification(sources: NotificationSources, period: NotificationDay): Promise<Notification> {
  const { account, day, kind } = period;
  const booked = (await sources.statements.listTransactions(account.id, { status: 'booked', bookingDate: day.day }))
    .filter((t) => (kind === 'credit' ? t.amount.minor > 0n : t.amount.minor < 0n))
    .sort(byLedgerOrder);
  if (kind === 'debit' && sources.ownPayments === undefined)
    throw new Error('debit notifications need the own payment source');
  // The statement's description of each booking; a debit notification shows settle's own payments only.
  const described = await describeBookings(
    sources,
    { company: period.company, iban: account.iban ?? account.id },
    booked,
  );
  const entries = described.filter((d) => kind === 'credit' || d.ownLines).map((d) => d.entry);
  return {
    kind,
    id: `${statementId(account.id, day.day, day.day)}-${kind === 'credit' ? 'C' : 'D'}`,
    sequenceNumber: period.sequenceNumber,
    createdAt: endOfDay(day.day, period.timeZone),
    account: statementAccount(account, period.ownerName, day.currency),
    fromDate: day.day,
    toDate: day.day,
    entries,
  };
}
