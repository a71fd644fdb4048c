// The outcome of a finished job run, named as the glossary says: a run that left something a
// person must decide "needs a person". Its machine value stays `findings`: it is stored in
// job_runs.outcome, is the label value outcome="findings" of settle_job_runs_total and the
// `outcome` of the run summary's webhook payload, which scripts and dashboards read.
export const JobOutcomes = { ok: 'ok', needsPerson: 'findings', failed: 'failed' } as const;

/** A finished run's outcome as stored: `ok`, `findings` (needs a person) or `failed`. */
export type FinishedOutcome = (typeof JobOutcomes)[keyof typeof JobOutcomes];
