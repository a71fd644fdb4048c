// Runs a fuzz campaign against one target: N mutated inputs from its seeds, each checked for
// crashes, hangs (a per-case time limit) and broken promises (brokenPromise). Crashers are
// saved as regression fixtures so they are replayed by every later `npm test`.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { seededRandom } from '../../src/domain/random.js';
import { mutate } from './mutator.js';
import { brokenPromise, type FuzzTarget } from './targets.js';

export interface CampaignResult {
  target: string;
  cases: number;
  accepted: number;
  refused: number;
  problems: number;
  slowestMs: number;
  failures: { reason: string; file?: string }[];
}

const regressionRoot = fileURLToPath(new URL('../fixtures/regression/', import.meta.url));

export async function campaign(
  target: FuzzTarget,
  options: { cases: number; seed: number; dir: string; hangMs: number; saveCrashers: boolean },
): Promise<CampaignResult> {
  const random = seededRandom(options.seed);
  const result: CampaignResult = {
    target: target.name,
    cases: 0,
    accepted: 0,
    refused: 0,
    problems: 0,
    slowestMs: 0,
    failures: [],
  };
  for (let i = 0; i < options.cases; i++) {
    const seed = target.seeds[Math.floor(random() * target.seeds.length)]!;
    const other = target.seeds[Math.floor(random() * target.seeds.length)];
    const input = mutate(seed, random, other);
    const started = performance.now();
    let reason: string | undefined;
    try {
      const verdict = await target.run(input, options.dir);
      if (verdict.accepted) result.accepted++;
      else result.refused++;
      result.problems += verdict.problems.length;
      reason = brokenPromise(verdict);
    } catch (error) {
      reason = `crash: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
    }
    const ms = performance.now() - started;
    result.slowestMs = Math.max(result.slowestMs, ms);
    if (!reason && ms > options.hangMs) reason = `took ${ms.toFixed(0)} ms (limit ${options.hangMs} ms)`;
    result.cases++;
    if (reason)
      result.failures.push({ reason, ...(options.saveCrashers ? { file: await saveCrasher(target, input) } : {}) });
  }
  return result;
}

async function saveCrasher(target: FuzzTarget, input: Buffer): Promise<string> {
  const dir = join(regressionRoot, target.name);
  await mkdir(dir, { recursive: true });
  const file = join(dir, `crash-${createHash('sha256').update(input).digest('hex').slice(0, 12)}${target.ext}`);
  await writeFile(file, input);
  return file;
}
