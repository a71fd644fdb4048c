// Incoming payments booked on a sandbox account by the control API (POST /__sandbox/credits):
// a customer paying an invoice, so tests and the demo can show credits matched to receivables.
import { checkIban } from '../domain/account-id.js';
import { dateInZone, isLocalDate } from '../domain/local-date.js';
import { parseAmount } from '../domain/money.js';
import type { Transaction } from './model.js';
import { badRequest } from './problems.js';
import type { Sandbox } from './sandbox.js';
import { BANK_TIME_ZONE } from './time.js';

export function bookCredit(sb: Sandbox, b: Record<string, unknown>): Transaction {
  const iban = typeof b.iban === 'string' ? checkIban(b.iban) : undefined;
  if (!iban?.ok) throw badRequest('iban must be the IBAN of a sandbox account.');
  const account = [...sb.state.accounts.values()].find((a) => a.iban === iban.iban);
  if (!account) throw badRequest(`no sandbox account has the IBAN ${iban.iban}.`);
  const amount = typeof b.amount === 'string' ? parseAmount(b.amount, account.currency) : undefined;
  if (!amount?.ok || amount.money.minor <= 0n) throw badRequest('amount must be a positive decimal such as "125.00".');
  const date = b.bookingDate ?? dateInZone(sb.clock.now(), BANK_TIME_ZONE);
  if (typeof date !== 'string' || !isLocalDate(date))
    throw badRequest('bookingDate must be a date such as 2026-01-07.');
  const seq = sb.state.nextSeq();
  const tx: Transaction = {
    transactionId: `00000000-0000-4000-9000-${seq.toString().padStart(12, '0')}`,
    accountId: account.id,
    entryReference: `SBX${seq.toString().padStart(9, '0')}`,
    endToEndId: null,
    bookingDate: date,
    valueDate: date,
    minor: amount.money.minor,
    currency: account.currency,
    counterpartyName: typeof b.name === 'string' ? b.name : 'Customer',
    counterpartyIban: typeof b.counterpartyIban === 'string' ? b.counterpartyIban : null,
    remittance: typeof b.remittance === 'string' ? b.remittance : '',
    transactionType: 'credit',
    paymentId: null,
    bookedAt: `${date}T09:00:00Z`,
  };
  sb.state.transactions.push(tx);
  return tx;
}
