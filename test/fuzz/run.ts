// `npm run fuzz [-- --cases N] [-- --seed S|commit] [-- --only READER]`: a fuzz campaign (10,000
// cases per reader by default). `--seed commit` derives the seed from the checked-out commit, so
// CI explores new inputs on every commit while any failure reproduces from the printed seed.
// Prints its figures; saves every crasher under test/fixtures/regression/<reader>/ (commit it:
// `npm test` replays it from then on); exits 1 when any case broke a reader's promise.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
const seed = values.seed === 'commit' ? commitSeed() : Number(values.seed);
const dir = await mkdtemp(join(tmpdir(), 'settle-fuzz-'));
let failed = 0;
try {
  console.log(`fuzz: ${cases} cases per reader, seed ${seed}${values.seed === 'commit' ? ' (from the commit)' : ''}`);
  const baseline = process.memoryUsage().rss;
  for (const target of await fuzzTargets()) {
    if (values.only && target.name !== values.only) continue;
    const started = performance.now();
    const r = await campaign(target, { cases, seed, dir, hangMs: 5000, saveCrashers: true });
    const rssMiB = (process.memoryUsage().rss - baseline) / 2 ** 20;
    console.log(
      `${r.target.padEnd(12)} ${r.cases} cases in ${((performance.now() - started) / 1000).toFixed(1)} s: ${r.accepted} accepted, ${r.refused} refused with ${r.problems} located problems; slowest ${r.slowestMs.toFixed(0)} ms; RSS +${rssMiB.toFixed(0)} MiB; failures ${r.failures.length}`,
    );
    for (const f of r.failures.slice(0, 10)) {
      console.log(`   ${f.reason}${f.file ? ` → ${f.file}` : ''}`);
      // A CI log outlives the CI workspace: a small crasher is printed so it can be restored from the log alone.
      if (f.file) {
        const bytes = await readFile(f.file);
        if (bytes.length <= 4096) console.log(`     base64: ${bytes.toString('base64')}`);
      }
    }
    failed += r.failures.length;
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
console.log(
  failed
    ? `fuzz: ${failed} failing case(s); reproduce with: npm run fuzz -- --seed ${seed} --cases ${cases}`
    : 'fuzz: no crash, no hang, every refusal located',
);
process.exitCode = failed ? 1 : 0;

/** The first 32 bits of HEAD's commit hash. */
function commitSeed(): number {
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  return Number.parseInt(head.slice(0, 8), 16);
}
