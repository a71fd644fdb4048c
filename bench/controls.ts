// Benchmark of the payment controls (docs/controls.md): the pickup of a 100,000-line CSV with
// every rule on (changed and new account against the company's history, the three limits, the
// hours) beside the same pickup with the rules off, each into a fresh SQLite database that holds
// the same history (a baseline file of 3,000 lines paying every creditor at every account the big
// file pays it at, so the account rules hold nothing and the limits are set above the file:
// what is measured is the rules' cost, one history read per file and one check per line, not
// the holds a real file would cause). Five paired runs in turns, in-process, medians; the aim is pickup
// with the controls on within 1.2× the time with them off.
import { constants, copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPickup } from '../jobs/pickup/pickup.js';
import { ManualClock } from '../src/domain/clock.js';
import type { LocalDate } from '../src/domain/local-date.js';
import type { ControlSetup } from '../src/domain/controls/index.js';
import { openPickupWorld } from '../test/support/pickup-world.js';
import { csvLines, write } from './intake-files.js';
import { median, scaledSize, type Bench } from './row.js';

const FULL = 100_000;
const BASELINE_LINES = 3000;
const REPEATS = 5;

/** Every rule on, with limits above anything the bench file pays, and every hour expected. */
const EVERY_RULE: ControlSetup = {
  settings: {
    changedAccount: true,
    newAccount: true,
    goLive: '2026-01-01' as LocalDate,
    limits: {
      perLine: { NOK: '1000000.00' },
      perFile: { NOK: '100000000000.00' },
      perDebtorDay: { NOK: '100000000000.00' },
    },
    accountLimits: {},
    hours: { from: '00:00', to: '23:59', days: [0, 1, 2, 3, 4, 5, 6] },
  },
  known: [],
  timeZone: 'Europe/Oslo',
  today: '2026-01-05' as LocalDate,
};

/** The bench file's first lines under other ids and references: history, never a duplicate. */
function* baselineLines(): Generator<string> {
  for (const line of csvLines(BASELINE_LINES))
    yield line
      .replace('ACME-2026-', 'BASE-2026-')
      .replace(/,\d{13},normal\n$/, ',,normal\n')
      .replace('Faktura ', 'Base ');
}

/** Milliseconds of the big file's pickup, after the baseline's, with the controls on or off. */
async function pickupMs(file: string, baseline: string, on: boolean): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-controls-'));
  try {
    const clock = new ManualClock('2026-01-05T09:00:00Z');
    const { db, deps, company } = await openPickupWorld(dir, clock);
    const withControls = on ? { ...deps, controls: () => Promise.resolve(EVERY_RULE) } : deps;
    // Copies, not hard links: pickup refuses a file with a second name (docs/transport.md).
    await copyFile(baseline, join(company.root, 'inbox', 'base.csv'), constants.COPYFILE_FICLONE);
    await runPickup(withControls, [company]);
    clock.advance(60_000);
    await copyFile(file, join(company.root, 'inbox', 'pay.csv'), constants.COPYFILE_FICLONE);
    const started = performance.now();
    const [picked] = await runPickup(withControls, [company]);
    const ms = performance.now() - started;
    await db.close();
    if (picked?.outcome !== 'accepted' || picked.held !== undefined)
      throw new Error(`benchmark file was not accepted whole: ${JSON.stringify(picked)}`);
    return ms;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const bench: Bench = async ({ quick, scale }) => {
  const n = quick ? 5000 : scaledSize(FULL, scale, { step: 1000, min: 5000 });
  const dir = await mkdtemp(join(tmpdir(), 'settle-bench-controls-files-'));
  try {
    const file = join(dir, 'pay.csv');
    const baseline = join(dir, 'base.csv');
    await write(file, () => csvLines(n));
    await write(baseline, baselineLines);
    const on: number[] = [];
    const off: number[] = [];
    // In turns that swap which goes first, so neither side always meets the heap and the page
    // cache the other left behind.
    for (let i = 0; i < REPEATS; i++) {
      for (const controls of i % 2 === 0 ? [false, true] : [true, false])
        (controls ? on : off).push(await pickupMs(file, baseline, controls));
    }
    return [
      {
        key: 'pickup-controls',
        name: `pickup with every payment control on, ${n.toLocaleString('en')} lines`,
        size: n,
        unit: 'lines',
        rate: n / (median(on) / 1000),
        baselineName: 'the same pickup with the controls off',
        baselineRate: n / (median(off) / 1000),
        peakRssBytes: 0,
        notes: `medians of ${REPEATS} paired runs: on ${on.map((m) => m.toFixed(0)).join('/')} ms, off ${off.map((m) => m.toFixed(0)).join('/')} ms`,
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
