// The domain: money, identifiers, dates, issues and the payment model. Pure; imports nothing of ours.
export { checkBic, checkIban, normalizeIban, type IbanCheck } from './account-id.js';
export { businessCalendar, type BusinessCalendar } from './business-calendar.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
export { parseCreditorReference, type CreditorReference, type CreditorReferenceKind } from './creditor-reference.js';
export { currencyExponent, isCurrencyCode } from './currency.js';
export { ExitCode, isSettleError, SettleError, type SettleErrorOptions } from './errors.js';
export { formatLocation, hasErrors, type Issue, type IssueLocation, type Severity } from './issue.js';
export {
  addDays,
  dateInZone,
  datePart,
  dayOfWeek,
  daysBetween,
  isLocalDate,
  isWeekend,
  parseDate,
  toLocalDate,
  today,
  type LocalDate,
} from './local-date.js';
export {
  addMoney,
  formatAmount,
  formatMinor,
  money,
  parseAmount,
  totalsByCurrency,
  type AmountProblem,
  type DecimalFormat,
  type Money,
  type ParseAmountResult,
} from './money.js';
export type { InstructionPriority, PaymentInstruction } from './payment.js';
export type {
  PaymentLineStatus,
  PaymentStatusGroup,
  PaymentStatusLine,
  PaymentStatusReport,
} from './payment-status.js';
export {
  BANK_STATUSES,
  BASKET_STATES,
  LIVE_BASKETS,
  BULK_STATES,
  FILE_STATES,
  PAYMENT_STATES,
  TERMINAL_BANK_STATUSES,
  bankStatusMachine,
  bankStatusRank,
  basketMachine,
  bulkMachine,
  canTransition,
  canonicalBankStatus,
  decideUpdate,
  fileMachine,
  isBankStatus,
  isState,
  paymentMachine,
  transition,
  type BankStatus,
  type BasketState,
  type BulkState,
  type FileState,
  type PaymentState,
  type StateMachine,
  type UpdateDecision,
} from './states.js';
export {
  absoluteMoney,
  creditDebit,
  type BankTransactionCode,
  type Counterparty,
  type CreditDebit,
  type Remittance,
  type Statement,
  type StatementAccount,
  type StatementBalance,
  type StatementEntry,
} from './statement.js';
