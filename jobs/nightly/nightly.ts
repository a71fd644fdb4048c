// The nightly chain: pickup → submit → approve → status → fetch → status reports to the ERP →
// export → consents → reconcile. The status reports come after the fetch, because a payment the
// bank booked back (a return) is known from the statements: the night that fetches the return
// reports it. Each step is a job that is safe to repeat; a step that fails is reported
// and the independent steps after it still run (statements and reconciliation do not need the
// payment steps to succeed). `settle run nightly`, `settle serve` and `settle demo` all use it.
// The chain runs company by company under claims (src/store/unit-claims.ts): the unit
// (nightly, company) for the whole chain and (step, company) for each step — the steps' claims
// taken together when the chain starts — so processes that run at once divide the companies
// between them and skip what another one has claimed. Statements
// are fetched and exported under per-account claims as well (jobs/statements/account-units.ts),
// which exclude `settle serve`'s statements job working on the same account at the same time.
import type { CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { mapConcurrent } from '../../src/domain/concurrent.js';
import { ExitCode, isSettleError } from '../../src/domain/errors.js';
import { redactText, type Logger } from '../../src/log/index.js';
import { describeDatabaseError, describeClaimed, type ClaimedUnit, type UnitClaims } from '../../src/store/index.js';
import { runApprove } from '../approve/index.js';
import { runSyncConsents, type SyncConsentsDeps } from '../consents/index.js';
import {
  runExportStatements,
  type ExportStatementsDeps,
  runFetchStatements,
  type FetchStatementsDeps,
} from '../statements/index.js';
import {
  approveOutcome,
  consentsOutcome,
  describeOutcome,
  exportOutcome,
  fetchOutcome,
  needsPerson,
  pickupOutcome,
  reconcileOutcome,
  statusOutcome,
  statusReportOutcome,
  submitOutcome,
  type StepOutcome,
} from './outcome.js';
import { mergeSteps } from './step-merge.js';
import { STEP_NAMES, type StepName, type StepResult } from './step-result.js';
import type { PaymentJobDeps } from '../payments/index.js';
import { lookAtInboxes, runPickup, type PickedFile, type PickupDeps } from '../pickup/index.js';
import type { EarlierLook } from '../../src/transport/index.js';
import { runReconcile, type CompanyReconciliation, type ReconcileDeps } from '../reconcile/index.js';
import { runStatusReport, type WrittenStatusReport, runStatus } from '../status/index.js';
import { runSubmit } from '../submit/index.js';
import { translate } from '../../src/i18n/index.js';

export type { StepName, StepResult };

export interface NightlyResult {
  runId: string;
  steps: StepResult[];
  reconciliations: CompanyReconciliation[];
  /** What pickup did with each file (for alerts). */
  picked: PickedFile[];
  /** The status reports written, with the lines the bank refused (for alerts). */
  statusReports: WrittenStatusReport[];
  /** Units another process had claimed, which this run skipped (`heldByOthers` in `--json`). */
  claimedElsewhere: ClaimedUnit[];
  /** 0 all well, 1 something needs a person, 3 a step failed. */
  exitCode: number;
}

export interface NightlyOptions {
  runId: string;
  /** Called after each step (progress display, logs). */
  onStep?: (result: StepResult) => void;
  /** Between steps, e.g. the demo moves the sandbox clock and completes SCA. */
  between?: (finished: StepName) => Promise<void>;
  /** The run's claims, when the caller wants to read them afterwards (default: the run's own). */
  units?: UnitClaims;
}

/** Each step's dependencies for one run, built by the composition root (src/main/nightly-deps.ts). */
export interface NightlyDeps {
  logger: Logger;
  /** The clock the claims are recorded by. */
  clock: Clock;
  pickup(runId: string): PickupDeps;
  payments(job: string, runId: string): PaymentJobDeps;
  fetch(runId: string): FetchStatementsDeps;
  export(runId: string): ExportStatementsDeps;
  reconcile(runId: string): ReconcileDeps;
  consents(runId: string): SyncConsentsDeps;
  /** The run's claims on units of work (job, company). */
  units(runId: string): UnitClaims;
  /** Refuses to work on a schema a newer settle migrated. */
  checkSchema(): Promise<void>;
  /** How many companies' chains run at once (schedule.companiesAtOnce); default 1. */
  companiesAtOnce?: number;
  /** After the last step: gives back what the run opened. */
  close(): Promise<void>;
}

export async function runNightly(
  deps: NightlyDeps,
  companies: readonly CompanyConfig[],
  options: NightlyOptions,
): Promise<NightlyResult> {
  const { runId } = options;
  await deps.checkSchema();
  const units = options.units ?? deps.units(runId);
  let chains: CompanyChain[] = [];
  // A company whose chain another process finished since this run began is not run again. Real
  // time (as the done marks are written), not settle's clock, which may follow a bank's.
  const startedAt = new Date();
  try {
    // Company by company, so several processes share a night: each claims the next company
    // whose chain nobody runs, and a company's steps run in order, never twice at once. Up to
    // `companiesAtOnce` chains run at once, so one company's wait on the bank overlaps with
    // another's work; results stay in company order. With more companies than run at once, every
    // inbox is looked at first, so a later company's pickup need not wait stableFor on its own.
    const earlierLooks =
      companies.length > (deps.companiesAtOnce ?? 1)
        ? await lookAtInboxes(deps.pickup(runId), companies, deps.companiesAtOnce ?? 1)
        : undefined;
    const ran = await mapConcurrent(companies, deps.companiesAtOnce ?? 1, (company) =>
      units.run(
        { job: 'nightly', company: company.id },
        () => runCompanyChain(deps, company, units, options, earlierLooks),
        // The chain's steps and accounts record their successes with the chain's, in one write.
        { doneSince: startedAt, collectDone: true },
      ),
    );
    chains = ran.flatMap((chain) => (chain.ran ? [chain.result] : []));
  } finally {
    if (!options.units) units.close();
    await deps.close();
  }
  const steps = mergeSteps(chains.map((c) => c.steps));
  const exitCode = steps.some((s) => !s.ok)
    ? ExitCode.runtime
    : steps.some((s) => s.needsPerson)
      ? ExitCode.needsPerson
      : ExitCode.ok;
  return {
    runId,
    steps,
    reconciliations: chains.flatMap((c) => c.reconciliations),
    picked: chains.flatMap((c) => c.picked),
    statusReports: chains.flatMap((c) => c.statusReports),
    claimedElsewhere: [...units.claimedElsewhere],
    exitCode,
  };
}

interface CompanyChain {
  steps: StepResult[];
  reconciliations: CompanyReconciliation[];
  picked: PickedFile[];
  statusReports: WrittenStatusReport[];
}

/** The chain for one company: each step is the unit (step, company), skipped when another run has claimed it. */
async function runCompanyChain(
  deps: NightlyDeps,
  company: CompanyConfig,
  units: UnitClaims,
  options: NightlyOptions,
  earlierLooks: ReadonlyMap<string, EarlierLook> | undefined,
): Promise<CompanyChain> {
  const { runId } = options;
  const companies = [company];
  const steps: StepResult[] = [];
  let reconciliations: CompanyReconciliation[] = [];
  let picked: PickedFile[] = [];
  let statusReports: WrittenStatusReport[] = [];
  const step = async (
    name: StepName,
    body: () => Promise<{ outcome: StepOutcome; files: string[] }>,
  ): Promise<void> => {
    let result: StepResult;
    try {
      const run = await units.run({ job: name, company: company.id }, body);
      result = run.ran
        ? {
            step: name,
            company: company.id,
            ok: true,
            outcome: run.result.outcome,
            summary: describeOutcome(run.result.outcome, 'en'),
            needsPerson: needsPerson(run.result.outcome),
            files: run.result.files,
          }
        : {
            step: name,
            company: company.id,
            ok: true,
            summary: translate('en', 'run.skipped', { claimedBy: describeClaimed(run.claimed) }),
            claimedBy: describeClaimed(run.claimed),
            needsPerson: false,
            files: [],
            claimedElsewhere: true,
          };
    } catch (thrown) {
      const error = describeDatabaseError(thrown);
      const code = isSettleError(error) ? error.code : 'ERR_INTERNAL';
      const message = redactText(error instanceof Error ? error.message : String(error));
      deps.logger.error(`nightly step ${name} failed`, { runId, step: name, code, error: message });
      result = {
        step: name,
        company: company.id,
        ok: false,
        summary: translate('en', 'run.failed', { code, message }),
        needsPerson: true,
        files: [],
        error: { code, message },
      };
    }
    steps.push(result);
    options.onStep?.(result);
    await options.between?.(name);
  };
  // The steps' units are claimed with the chain's, in one statement, and released together after.
  await units.together(
    STEP_NAMES.map((job) => ({ job, company: company.id })),
    async () => {
      await step('pickup', async () => {
        picked = await runPickup({ ...deps.pickup(runId), ...(earlierLooks ? { earlierLooks } : {}) }, companies);
        return {
          outcome: pickupOutcome(picked),
          files: picked.flatMap((p) =>
            p.outcome === 'waiting' || p.outcome === 'refused' ? [] : [p.movedTo, ...(p.report ? [p.report] : [])],
          ),
        };
      });
      await step('submit', async () => ({
        outcome: submitOutcome(await runSubmit(deps.payments('submit', runId), companies)),
        files: [],
      }));
      await step('approve', async () => {
        const a = await runApprove(deps.payments('approve', runId), companies);
        return { outcome: approveOutcome(a), files: a.baskets.flatMap((b) => (b.report ? [b.report] : [])) };
      });
      await step('status', async () => ({
        outcome: statusOutcome(await runStatus(deps.payments('status', runId), companies)),
        files: [],
      }));
      await step('fetch', async () => ({
        outcome: fetchOutcome(await runFetchStatements({ ...deps.fetch(runId), units }, companies)),
        files: [],
      }));
      await step('status-report', async () => {
        statusReports = await runStatusReport(deps.payments('status-report', runId), companies);
        return {
          outcome: statusReportOutcome(statusReports),
          files: statusReports.flatMap((w) => [...w.paths, ...(w.humanReport ? [w.humanReport] : [])]),
        };
      });
      await step('export', async () => {
        const e = await runExportStatements({ ...deps.export(runId), units }, companies);
        return { outcome: exportOutcome(e), files: e.files.map((f) => f.path) };
      });
      await step('consents', async () => ({
        outcome: consentsOutcome(await runSyncConsents(deps.consents(runId), companies)),
        files: [],
      }));
      await step('reconcile', async () => {
        reconciliations = await runReconcile(deps.reconcile(runId), companies);
        return { outcome: reconcileOutcome(reconciliations), files: reconciliations.flatMap((r) => [r.html, r.csv]) };
      });
    },
  );
  return { steps, reconciliations, picked, statusReports };
}
