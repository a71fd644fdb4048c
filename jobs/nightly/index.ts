// The nightly use case: what the rest of settle may use of it. Its other files are its own.
export { runNightly, type StepResult, type NightlyResult, type NightlyOptions, type NightlyDeps } from './nightly.js';
export {
  approveOutcome,
  describeWaiting,
  needsPerson,
  statusOutcome,
  statusReportOutcome,
  submitOutcome,
  exportOutcome,
  fetchOutcome,
  pickupOutcome,
  reconcileOutcome,
} from './outcome.js';
export { describeStep } from './step-merge.js';
export { STEP_NAMES } from './step-result.js';
