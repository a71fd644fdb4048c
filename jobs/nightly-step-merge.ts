// One line per step of the nightly chain, whatever the number of companies: the chain runs company
// by company, and its step results are merged here. Summaries of one step share one wording with
// different counts ("3 file(s): 2 accepted, …"), so they are merged by adding the counts in
// place; a summary with another wording (a failure, per-company text) is kept beside them.
import type { StepName, StepResult } from './nightly-step-result.js';

export function mergeSteps(perCompany: readonly StepResult[][]): StepResult[] {
  const byStep = new Map<StepName, StepResult[]>();
  for (const steps of perCompany)
    for (const step of steps) byStep.set(step.step, [...(byStep.get(step.step) ?? []), step]);
  return [...byStep.values()].map((results) => (results.length === 1 ? results[0]! : mergeStep(results)));
}

function mergeStep(results: readonly StepResult[]): StepResult {
  const [first] = results as [StepResult, ...StepResult[]];
  const done = results.filter((r) => !r.held);
  const held = results.length - done.length;
  const error = results.find((r) => r.error)?.error;
  const summaries = mergeSummaries(done.filter((r) => r.ok).map((r) => r.summary));
  const failed = done.filter((r) => !r.ok).map((r) => `${r.company ?? '?'}: ${r.summary}`);
  const parts = [
    ...summaries,
    ...failed,
    ...(held > 0 ? [`${held} compan${held === 1 ? 'y' : 'ies'} held by another run`] : []),
  ];
  return {
    step: first.step,
    ok: results.every((r) => r.ok),
    summary: parts.join('; '),
    needsPerson: results.some((r) => r.needsPerson),
    files: results.flatMap((r) => r.files),
    ...(error ? { error } : {}),
    ...(done.length === 0 ? { held: true } : {}),
  };
}

/** A count standing alone: not the digits of a company id ("client-0042"), a date or a time. */
const COUNT = /(?<![\w:.-])\d+(?![\w:.-])/g;

/** Adds up the numbers of summaries that share a wording; different wordings stay separate. */
function mergeSummaries(summaries: readonly string[]): string[] {
  const byShape = new Map<string, number[]>();
  const kept: string[] = [];
  for (const summary of summaries) {
    const shape = summary.replace(COUNT, '#');
    const numbers = [...summary.matchAll(COUNT)].map((m) => Number(m[0]));
    const sum = byShape.get(shape);
    if (sum === undefined) byShape.set(shape, numbers);
    else numbers.forEach((n, i) => (sum[i] = (sum[i] ?? 0) + n));
    if (sum === undefined) kept.push(shape);
  }
  return kept.map((shape) => {
    const numbers = byShape.get(shape) ?? [];
    let i = 0;
    return shape.replace(/#/g, () => String(numbers[i++] ?? 0));
  });
}
