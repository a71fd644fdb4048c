// Balances are derived from booked transactions, so a settled payment moves them by itself.
import type { LocalDate } from '../domain/local-date.js';
import type { Account } from './model.js';
import type { SandboxState } from './state.js';

export function bookedBalance(state: SandboxState, account: Account, onOrBefore: LocalDate): bigint {
  let total = account.openingMinor;
  for (const t of state.transactionsOf(account.id)) if (t.bookingDate <= onOrBefore) total += t.minor;
  return total;
}

/** Accepted but not yet booked outgoing amounts (ACSP lines): they reduce interimAvailable. */
export function reservedAmount(state: SandboxState, account: Account): bigint {
  let total = 0n;
  for (const bulk of state.bulks.values()) {
    if (bulk.accountId !== account.id) continue;
    for (const line of bulk.lines) if (line.status === 'ACSP') total += line.minor;
  }
  return total;
}

/** The latest day on or before `date` on which the account had a booking (for lastChangeDate). */
export function lastChangeDate(state: SandboxState, account: Account, onOrBefore: LocalDate): LocalDate | null {
  let latest: LocalDate | null = null;
  for (const t of state.transactionsOf(account.id)) {
    if (t.bookingDate <= onOrBefore && (latest === null || t.bookingDate > latest)) latest = t.bookingDate;
  }
  return latest;
}
