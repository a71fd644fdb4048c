// What every entry point does with units of work (src/store/unit-claims.ts): one UnitClaims per
// run, a job done per company it can claim, the units it found claimed by others named for the person who
// ran it, and the documented "already running" exit when it could claim none of them.
import { hostname } from 'node:os';
import type { CompanyConfig } from '../config/index.js';
import { SettleError } from '../domain/errors.js';
import { describeClaimed, UnitClaims, type Database } from '../store/index.js';
import type { App } from './app.js';

/** The claims of one run; the holder names this host, process and run. */
export function unitClaims(app: App, runId: string): UnitClaims {
  return new UnitClaims({
    leases: app.store.leases,
    holder: `${hostname()}:${process.pid}:${runId.slice(0, 8)}`,
    ttlMs: app.config.schedule.claimTtl,
    logger: app.logger,
    onDone: (units) => app.store.jobSuccesses.recordAll(units, runId),
  });
}

/** Runs `job` for each company whose unit (job, company) this run can claim; the others are recorded as claimed elsewhere. */
export async function forEachCompany<T>(
  units: UnitClaims,
  job: string,
  companies: readonly CompanyConfig[],
  fn: (company: CompanyConfig) => Promise<T[]>,
): Promise<T[]> {
  const out: T[] = [];
  for (const company of companies) {
    const run = await units.run({ job, company: company.id }, () => fn(company));
    // One by one: a company's results (a bulk per line at maxLinesPerBulk 1) can be more than a
    // spread call's arguments may be.
    if (run.ran) for (const result of run.result) out.push(result);
  }
  return out;
}

/** One line per unit another process has claimed: "skipped  submit acme: claimed by … since …". */
export function claimedLines(units: UnitClaims): string[] {
  return units.claimedElsewhere.map((c) => `skipped  ${describeClaimed(c)}`);
}

/** Throws ERR_ALREADY_RUNNING (exit 4) when every unit the run asked for was claimed elsewhere. */
export function checkNotAllClaimed(units: UnitClaims): void {
  if (!units.allClaimedElsewhere) return;
  const holders = [...new Set(units.claimedElsewhere.map((c) => c.holder ?? 'another settle process'))];
  throw new SettleError(
    'ERR_ALREADY_RUNNING',
    `Nothing done: every unit of work asked for is claimed by another settle process (${holders.join(', ')}). It does the work; if it was killed, its claims lapse after schedule.claimTtl and the next run takes over.`,
    { details: { held: units.claimedElsewhere.length } },
  );
}

/**
 * Refuses to work when a newer settle has migrated the database since this process started
 * (several instances upgraded one by one): its schema may mean things this build does not know.
 */
export async function checkSchemaKnown(db: Database): Promise<void> {
  const { unknown } = await db.migrationStatus();
  if (unknown.length === 0) return;
  throw new SettleError(
    'ERR_DB_SCHEMA_NEWER',
    `The database (${db.description}) was migrated by a newer settle (${unknown.join(', ')}); this instance does no more work on it. Upgrade it to that version.`,
    { details: { unknown } },
  );
}
