// One line per step of the nightly chain, whatever the number of companies: the chain runs company
// by company, and its step results are merged here by adding their outcomes (numbers added,
// lists joined); a failure is kept beside them with its company. `describeStep` renders a step
// in a person's language; the English rendering is the `summary` JSON and logs carry.
import { translate, type Locale } from '../../src/i18n/index.js';
import { addOutcomes, describeOutcome, type StepOutcome } from './outcome.js';
import type { StepName, StepResult } from './step-result.js';
import { addTo } from '../../src/domain/group.js';

export function mergeSteps(perCompany: readonly StepResult[][]): StepResult[] {
  const byStep = new Map<StepName, StepResult[]>();
  for (const steps of perCompany) for (const step of steps) addTo(byStep, step.step, step);
  return [...byStep.values()].map((results) => (results.length === 1 ? results[0]! : mergeStep(results)));
}

function mergeStep(results: readonly StepResult[]): StepResult {
  const [first] = results as [StepResult, ...StepResult[]];
  const done = results.filter((r) => !r.claimedElsewhere);
  const outcomes = done.flatMap((r) => (r.ok && r.outcome ? [r.outcome] : []));
  const outcome = outcomes.length > 0 ? outcomes.reduce((a: StepOutcome, b) => addOutcomes(a, b)) : undefined;
  const failures = done.flatMap((r) =>
    !r.ok && r.error ? [{ company: r.company ?? '?', code: r.error.code, message: r.error.message }] : [],
  );
  const error = results.find((r) => r.error)?.error;
  const merged: StepResult = {
    step: first.step,
    ok: results.every((r) => r.ok),
    ...(outcome ? { outcome } : {}),
    summary: '',
    needsPerson: results.some((r) => r.needsPerson),
    files: results.flatMap((r) => r.files),
    ...(error ? { error } : {}),
    ...(done.length === 0 ? { claimedElsewhere: true } : {}),
    claimedCompanies: results.length - done.length,
    failures,
  };
  return { ...merged, summary: describeStep(merged, 'en') };
}

/** A step's line for people in `locale`: what it did, or why it failed or was skipped. */
export function describeStep(s: StepResult, locale: Locale): string {
  if (s.company !== undefined) {
    if (s.claimedElsewhere) return translate(locale, 'run.skipped', { claimedBy: s.claimedBy ?? '' });
    if (!s.ok && s.error) return translate(locale, 'run.failed', s.error);
    return s.outcome ? describeOutcome(s.outcome, locale) : s.summary;
  }
  const parts = [
    ...(s.outcome ? [describeOutcome(s.outcome, locale)] : []),
    ...(s.failures ?? []).map((f) => `${f.company}: ${translate(locale, 'run.failed', f)}`),
    ...((s.claimedCompanies ?? 0) > 0
      ? [translate(locale, 'run.claimedByAnotherRun', { count: s.claimedCompanies ?? 0 })]
      : []),
  ];
  return parts.join('; ');
}
