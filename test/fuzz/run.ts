// `npm run fuzz [-- --cases N] [-- --seed S]`: the full fuzz campaign (10,000 cases per reader by
// default). Prints its figures; saves every crasher under test/fixtures/regression/<reader>/;
// exits 1 when any case broke a reader's promise.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { campaign } from './campaign.js';
import { fuzzTargets } from './targets.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '10000' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    only: { type: 'string' },
  },
});
const cases = Number(values.cases);
const seed = Number(values.seed);
const dir = await mkdtemp(join(tmpdir(), 'settle-fuzz-'));
let failed = 0;
try {
  console.log(`fuzz: ${cases} cases per reader, seed ${seed}`);
  const baseline = process.memoryUsage().rss;
  for (const target of await fuzzTargets()) {
    if (values.only && target.name !== values.only) continue;
    const started = performance.now();
    const r = await campaign(target, { cases, seed, dir, hangMs: 5000, saveCrashers: true });
    const rssMiB = (process.memoryUsage().rss - baseline) / 2 ** 20;
    console.log(
      `${r.target.padEnd(12)} ${r.cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s: ${r.accepted} accepted, ${r.refused} refused with ${r.problems} located problems; slowest ${r.slowestMs.toFixed(0)} ms; RSS +${rssMiB.toFixed(0)} MiB; failures ${r.failures.length}`,
    );
    for (const f of r.failures.slice(0, 10)) console.log(`   ${f.reason}${f.file ? ` → ${f.file}` : ''}`);
    failed += r.failures.length;
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log(failed ? `fuzz: ${failed} failing case(s)` : 'fuzz: no crash, no hang, every refusal located');
process.exitCode = failed ? 1 : 0;
