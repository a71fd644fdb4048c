// Helpers of the statement jobs (jobs/fetch-statements.ts, jobs/export-statements.ts).
export {
  canonicalBalanceType,
  CLOSING_BOOKED,
  OPENING_BOOKED,
  toBalanceInput,
  toTransactionInput,
} from './bank-mapping.js';
export { buildStatement, statementId, type StatementPeriod } from './build-statement.js';
export { checkAccountDays, type CheckDaysDeps } from './check-days.js';
export { checkDay, type DayFigures, type DayVerdict } from './continuity.js';
export { FORMAT_FILES, renderStatement, type Rendered, type StatementFormat } from './render.js';
export { endOfDay, startOfDay } from './zone-time.js';
