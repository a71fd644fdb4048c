// The nightly chain's dependencies (jobs/nightly/nightly.ts) from the App: the App's bank client is
// shared by the payment and statement steps of the run.
import { consentListPerRun } from '../../jobs/consents/index.js';
import type { NightlyDeps } from '../../jobs/nightly/index.js';
import type { App } from './app.js';
import { paymentJobs } from './payment-jobs.js';
import { exportStatementsDeps, fetchStatementsDeps } from './statement-jobs.js';
import { checkSchemaKnown, unitClaims } from './work-units.js';

export function nightlyDeps(app: App): NightlyDeps {
  const bank = app.bank();
  const payments = paymentJobs(app, { bank });
  // One read of the bank's consent list for all of a run's companies (it lists every company's).
  const consentList = consentListPerRun({ bank, clock: app.clock });
  return {
    logger: app.logger,
    clock: app.clock,
    pickup: (runId) => app.pickupDeps(runId),
    payments: (job, runId) => payments.deps(job, runId),
    fetch: (runId) => fetchStatementsDeps(app, runId, bank),
    export: (runId) => exportStatementsDeps(app, runId),
    reconcile: (runId) => app.reconcileDeps(runId),
    consents: (runId) => ({ store: app.store, bank, clock: app.clock, logger: app.logger, listed: consentList(runId) }),
    units: (runId) => unitClaims(app, runId),
    checkSchema: () => checkSchemaKnown(app.db),
    companiesAtOnce: app.config.schedule.companiesAtOnce,
    close: () => payments.close(),
  };
}
