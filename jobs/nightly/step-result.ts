// What one step of the nightly chain reports (jobs/nightly/nightly.ts), for one company or merged.
import type { ErrorCode } from '../../src/domain/errors.js';
import type { StepOutcome } from './outcome.js';

/**
 * The steps of the chain, in the order it runs them. The status report follows the statements
 * fetch: a return the fetch brings reaches the same night's pain.002 and status CSV.
 */
export const STEP_NAMES = [
  'pickup',
  'submit',
  'approve',
  'status',
  'fetch',
  'status-report',
  'export',
  'consents',
  'reconcile',
] as const;

export type StepName = (typeof STEP_NAMES)[number];

export interface StepResult {
  step: StepName;
  /** The company the step ran for; absent on a step merged over several companies. */
  company?: string;
  ok: boolean;
  /** What the step did, as numbers and lists, when it ran (merged: over the companies it ran for). */
  outcome?: StepOutcome;
  /** One line for people, in English (JSON, logs); `describeStep` says it in another language. */
  summary: string;
  /** Something in this step's result needs a person (rejected file, unknown payment, gap, …). */
  needsPerson: boolean;
  /** Files written, relative to the company's root (reports, statements, status files). */
  files: string[];
  error?: { code: ErrorCode; message: string };
  /** Another process had claimed the step's unit, so this run did not do it (`held` in `--json`). */
  claimedElsewhere?: boolean;
  /** Who had claimed it, in the operator's words (a step of one company). */
  claimedBy?: string;
  /** Companies another process had claimed this step for (merged steps only). */
  claimedCompanies?: number;
  /** The steps that failed, per company (merged steps only). */
  failures?: { company: string; code: ErrorCode; message: string }[];
}
