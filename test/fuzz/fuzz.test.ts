// A short fuzz run in every `npm test` (the full 10,000-case campaign is `npm run fuzz`), and
// every input that ever broke a reader, replayed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/tmp.js';
import { campaign } from './campaign.js';
import { brokenPromise, fuzzTargets, type FuzzTarget } from './targets.js';

const targets = await fuzzTargets();
const regression = fileURLToPath(new URL('../fixtures/regression/', import.meta.url));
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await makeTempDir()));
afterAll(() => cleanup());

describe.each(targets.map((t) => [t.name, t] as [string, FuzzTarget]))('fuzzing the %s reader', (_name, target) => {
  it('survives 150 mutated inputs: no crash, no hang, every refusal located', async () => {
    const result = await campaign(target, { cases: 150, seed: 20260105, dir, hangMs: 5000, saveCrashers: false });
    expect(result.failures).toEqual([]);
    expect(result.cases).toBe(150);
    expect(result.refused).toBeGreaterThan(0);
  });

  const saved = join(regression, target.name);
  const cases = existsSync(saved) ? readdirSync(saved).filter((f) => !f.endsWith('.md')) : [];
  it.each(cases.length ? cases : ['(none yet)'])('replays regression input %s', async (file) => {
    if (file === '(none yet)') return;
    const verdict = await target.run(readFileSync(join(saved, file)), dir);
    expect(brokenPromise(verdict)).toBeUndefined();
  });
});
