// Helpers of the statement jobs (jobs/fetch-statements.ts, jobs/export-statements.ts).
export {
  canonicalBalanceType,
  CLOSING_BOOKED,
  OPENING_BOOKED,
  toBalanceInput,
  toTransactionInput,
} from './bank-mapping.js';
export { buildStatement, statementId, type StatementPeriod } from './build-statement.js';
export { checkAccountsDays, type AccountDays, type CheckDaysDeps } from './check-days.js';
export { checkDay, type DayFigures, type DayVerdict } from '../../src/domain/statement-day-continuity.js';
export { FORMAT_FILES, renderStatement, type Rendered, type StatementFormat } from './render.js';
export { endOfDay, startOfDay } from '../../src/domain/zoned-time.js';
