// The domain: money, identifiers, dates, issues and the payment model. Pure; imports nothing of ours.
export { checkBic, checkIban, normalizeIban, type IbanCheck } from './account-id.js';
export { businessCalendar, type BusinessCalendar } from './business-calendar.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
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
