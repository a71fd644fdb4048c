// Bank records (src/bank, canonical shapes) to the store's inputs. Nothing is dropped silently:
// a booked entry the ledger could not place (no booking date, unreadable amount) fails the
// account's fetch with ERR_STATEMENT_BANK_DATA instead of vanishing from a statement.
import type { Account, Balance, Transaction } from '../../src/bank/index.js';
import { SettleError } from '../../src/domain/errors.js';
import { datePart, type LocalDate } from '../../src/domain/local-date.js';
import { parseAmount, type Money } from '../../src/domain/money.js';
import type { BalanceInput, BankTransactionInput } from '../../src/store/index.js';

/** The balance types settle reads, in the store's canonical spelling (facts §7 BalanceType). */
export const CLOSING_BOOKED = 'closingBooked';
export const OPENING_BOOKED = 'openingBooked';

const BALANCE_TYPE_ALIASES: Readonly<Record<string, string>> = {
  closingbooked: CLOSING_BOOKED,
  clbd: CLOSING_BOOKED,
  openingbooked: OPENING_BOOKED,
  opbd: OPENING_BOOKED,
};

export function canonicalBalanceType(type: string): string {
  return BALANCE_TYPE_ALIASES[type.toLowerCase()] ?? type;
}

function bankDataError(accountId: string, message: string): SettleError {
  return new SettleError('ERR_STATEMENT_BANK_DATA', `account ${accountId}: ${message}`, {
    details: { accountId },
  });
}

function money(text: string, currency: string | undefined, accountId: string, what: string): Money {
  if (currency === undefined) throw bankDataError(accountId, `${what} has no currency and the account has none either`);
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw bankDataError(accountId, `${what}: ${parsed.message}`);
  return parsed.money;
}

/** A booked or pending bank transaction as a store row; undefined for `information` entries. */
export function toTransactionInput(account: Account, tx: Transaction): BankTransactionInput | undefined {
  const status = tx.bookingStatus ?? 'booked';
  if (status !== 'booked' && status !== 'pending') return undefined;
  const amount = money(
    tx.transactionAmount.amount,
    tx.transactionAmount.currency ?? account.currency,
    account.id,
    `transaction ${tx.transactionId}`,
  );
  const bookingDate = tx.bookingDate === undefined ? undefined : datePart(tx.bookingDate);
  if (status === 'booked' && bookingDate === undefined)
    throw bankDataError(account.id, `booked transaction ${tx.transactionId} has no booking date`);
  const valueDate = tx.valueDate === undefined ? undefined : datePart(tx.valueDate);
  // The other side: the creditor of money paid out, the debtor of money received.
  const debit = amount.minor < 0n;
  const counterpartyName = debit ? tx.creditorName : tx.debtorName;
  const counterpartyIban = (debit ? tx.creditorAccount : tx.debtorAccount)?.iban;
  const input: BankTransactionInput = { bankTransactionId: tx.transactionId, status, amount, raw: tx.raw };
  if (bookingDate !== undefined) input.bookingDate = bookingDate;
  if (valueDate !== undefined) input.valueDate = valueDate;
  if (tx.entryReference !== undefined) input.entryReference = tx.entryReference;
  // A batch-booked bulk names every line's end-to-end id: none of them is the entry's own.
  if (tx.endToEndIds.length === 1) input.endToEndId = tx.endToEndIds[0];
  if (counterpartyName !== undefined) input.counterpartyName = counterpartyName;
  if (counterpartyIban !== undefined) input.counterpartyIban = counterpartyIban;
  if (tx.remittanceInformation !== undefined) input.remittance = tx.remittanceInformation;
  if (tx.accountServicerReference !== undefined) input.accountServicerRef = tx.accountServicerReference;
  if (tx.additionalInformation !== undefined) input.additionalInfo = tx.additionalInformation;
  if (tx.bankTransactionCode !== undefined) input.bankTransactionCode = tx.bankTransactionCode;
  if (tx.proprietaryBankTransactionCode !== undefined)
    input.proprietaryBankTransactionCode = tx.proprietaryBankTransactionCode;
  if (tx.instructionId !== undefined) input.instructionId = tx.instructionId;
  if (tx.paymentId !== undefined) input.bankPaymentId = tx.paymentId;
  if (tx.returnReason !== undefined) input.returnReason = tx.returnReason;
  const instructed = tx.instructedAmount;
  if (instructed !== undefined) {
    input.instructedAmount = money(
      instructed.amount,
      instructed.currency ?? account.currency,
      account.id,
      `instructed amount of transaction ${tx.transactionId}`,
    );
  }
  if (tx.creditorReference !== undefined)
    input.creditorReference = {
      reference: tx.creditorReference.reference.slice(0, 140),
      type: tx.creditorReference.type.slice(0, 35),
    };
  return input;
}

/** A balance as a store row; undefined when it has no reference date (it cannot be placed on a day). */
export function toBalanceInput(account: Account, balance: Balance): BalanceInput | undefined {
  const referenceDate: LocalDate | undefined =
    balance.referenceDate === undefined ? undefined : datePart(balance.referenceDate);
  if (referenceDate === undefined) return undefined;
  const amount = money(
    balance.balanceAmount.amount,
    balance.balanceAmount.currency ?? account.currency,
    account.id,
    `${balance.balanceType} balance of ${referenceDate}`,
  );
  const input: BalanceInput = { type: canonicalBalanceType(balance.balanceType), referenceDate, amount };
  const changed = balance.lastChangeDate === undefined ? undefined : Date.parse(balance.lastChangeDate);
  if (changed !== undefined && !Number.isNaN(changed)) input.lastChangeAt = new Date(changed);
  return input;
}
