// A job run started by the CLI — by hand or by a systemd timer — is recorded in job_runs as the
// scheduler records its own runs (src/server/scheduler.ts): started, then finished with its
// outcome and summary. Today, /healthz and /metrics of any `settle serve` on the same database
// read job_runs, so they show the run whichever process ran it.
import { hostname } from 'node:os';
import { ExitCode, isSettleError } from '../domain/errors.js';
import type { App } from '../main/app.js';
import { redactText } from '../log/redact.js';
import type { JobOutcome } from '../store/index.js';
import { JobOutcomes } from '../domain/job-outcome.js';

/** How a run ended: its exit code (docs/errors.md) and, for the record, counts and finding keys. */
export interface RunEnd {
  exitCode: number;
  counts?: Record<string, number>;
  findings?: readonly string[];
}

/** Runs `work` as the run `runId` of `job`, records it in job_runs, and sets the exit code. */
export async function recordedRun(
  app: Pick<App, 'store'>,
  job: string,
  runId: string,
  work: () => Promise<RunEnd>,
): Promise<void> {
  const { jobRuns } = app.store;
  const record = await jobRuns.start(job, runId, `cli ${hostname()}:${process.pid}`);
  let end: RunEnd;
  try {
    end = await work();
  } catch (error) {
    const code = isSettleError(error) ? error.code : 'ERR_INTERNAL';
    // Every unit was claimed by another process: it does the work and records its own run; this one did nothing and failed at nothing.
    const outcome = code === 'ERR_ALREADY_RUNNING' ? 'ok' : 'failed';
    const message = redactText(error instanceof Error ? error.message : String(error));
    await jobRuns.finish(record.id, outcome, { counts: {}, findings: [], error: { code, message } });
    throw error;
  }
  await jobRuns.finish(record.id, outcomeOf(end.exitCode), {
    counts: end.counts ?? {},
    findings: end.findings ?? [],
  });
  process.exitCode = end.exitCode;
}

function outcomeOf(exitCode: number): Exclude<JobOutcome, 'running'> {
  if (exitCode === ExitCode.ok) return 'ok';
  return exitCode === ExitCode.needsPerson ? JobOutcomes.needsPerson : JobOutcomes.failed;
}
