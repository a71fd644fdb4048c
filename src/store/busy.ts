// A database lock that another process held longer than settle waits for. The drivers' errors
// quote the SQL statement; people get one sentence with a stable code instead.
import { SettleError } from '../domain/errors.js';

const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'ER_LOCK_WAIT_TIMEOUT']);

export function isDatabaseBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && BUSY_CODES.has(code);
}

/** The error as people should see it: a busy database becomes ERR_DB_BUSY, anything else is returned as it is. */
export function describeDatabaseError(error: unknown): unknown {
  if (!isDatabaseBusy(error)) return error;
  return new SettleError(
    'ERR_DB_BUSY',
    'The database stayed locked by another settle process longer than settle waits; nothing was changed by this step. Run it again; if this keeps happening, see docs/runbook.md ("several instances").',
    { details: { driverCode: (error as { code: string }).code } },
  );
}
