// Helpers of the statement jobs (jobs/statements/fetch.ts, jobs/statements/export.ts).
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
export { runExportStatements, type ExportStatementsDeps, type ExplicitExport, type ExportResult } from './export.js';
export {
  runFetchStatements,
  type FetchStatementsDeps,
  type AccountFetch,
  fetchNeedsAttention,
  fetchedPerBank,
} from './fetch.js';
export { ownPaymentSource } from './own-payments.js';
