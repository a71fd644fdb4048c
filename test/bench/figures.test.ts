// The figures of docs/performance.md come from a bench run's JSON: each row judged against its aim
// in bench/aims.ts (against its own baseline, or another row of the same run), and the table
// written between the page's markers and nowhere else.
import { describe, expect, it } from 'vitest';
import { judge } from '../../bench/aims.js';
import {
  figuresBlock,
  FIGURES_END,
  FIGURES_START,
  parseBenchJson,
  runsOf,
  withFigures,
  type BenchJson,
} from '../../bench/figures.js';
import type { BenchRow } from '../../bench/row.js';

function row(key: string, rate: number, baselineRate: number, more: Partial<BenchRow> = {}): BenchRow {
  return {
    key,
    name: `${key} row`,
    size: 1000,
    unit: 'lines',
    rate,
    baselineName: 'the baseline',
    baselineRate,
    peakRssBytes: 100 * 2 ** 20,
    ...more,
  };
}

describe('a row judged against its aim', () => {
  it('compares a throughput aim with the rate over its own baseline', () => {
    expect(judge(row('intake-csv', 1300, 1000), [])).toEqual({ met: true, text: 'yes: 1.30×, peakMiB 100' });
    expect(judge(row('intake-csv', 1100, 1000), [])).toEqual({ met: false, text: 'no: 1.10×, peakMiB 100' });
    expect(judge(row('intake-csv', 1300, 1000, { peakRssBytes: 600 * 2 ** 20 }), []).met).toBe(false);
  });

  it('compares a cost aim with another row of the same run when the aim names one', () => {
    const floor = row('payments-floor', 30_000, 100_000);
    expect(judge(row('payments-single', 25_000, 100_000), [floor])).toEqual({ met: true, text: 'yes: 1.20× the cost' });
    expect(judge(row('payments-single', 18_000, 100_000), [floor])).toEqual({ met: false, text: 'no: 1.67× the cost' });
    expect(judge(row('payments-single', 25_000, 100_000), [])).toEqual({
      met: undefined,
      text: 'no measured payments-floor row to compare',
    });
  });

  it('holds the figures an aim names to their most, and fails a figure the row did not report', () => {
    const search = (p95Ms?: number) =>
      row('console-search', 50, 180, { peakRssBytes: 0, ...(p95Ms === undefined ? {} : { figures: { p95Ms } }) });
    expect(judge(search(150), [])).toEqual({ met: true, text: 'yes: p95Ms 150' });
    expect(judge(search(250), [])).toEqual({ met: false, text: 'no: p95Ms 250' });
    expect(judge(search(), [])).toEqual({ met: false, text: 'no: p95Ms not measured' });
  });

  it('says a row that measured nothing did not meet its aim, and leaves a row without an aim alone', () => {
    expect(judge(row('payments-processes-2', 0, 1), [])).toEqual({ met: false, text: 'not measured (see the notes)' });
    expect(judge(row('camt053-xmlbuilder2-cb', 276, 176_442), [])).toEqual({ met: undefined, text: '' });
  });
});

const run: BenchJson = {
  machine: '2 × Test CPU, 8 GiB, Linux 6.1, Node v20.20.2, load 0.50 at start',
  date: '2026-12-06 10:00 UTC',
  quick: true,
  scale: 1,
  rows: [
    row('intake-csv', 36_000, 25_000, { name: 'validate generic CSV, 20,000 lines', size: 20_000 }),
    row('camt053-xmlbuilder2-cb', 276, 176_442, { name: 'xmlbuilder2 createCB | streaming', unit: 'entries' }),
  ],
};

describe('the figures block', () => {
  it('gives the machine line, the sizes and one row per measured row, with its aim and verdict', () => {
    expect(figuresBlock(run).split('\n').slice(0, 8)).toEqual([
      'Machine: `2 × Test CPU, 8 GiB, Linux 6.1, Node v20.20.2, load 0.50 at start; 2026-12-06 10:00 UTC`',
      '',
      'Sizes: quick sizes (`--quick`): a smoke run, which shows that every row works, not what settle does at full size.',
      '',
      expect.stringMatching(/^\| key +\| what +\| size +\| figure +\| baseline +\| ratio \| aim +\| met\? +\|$/),
      expect.stringMatching(/^\| -+ \| -+ \|/),
      expect.stringMatching(
        /^\| `intake-csv` +\| validate generic CSV, 20,000 lines +\| 20,000 lines +\| 36,000 lines\/s +\| the baseline: 25,000 lines\/s +\| 1\.44 +\| ≥ 1\.2× csv-parse alone; peak ≤ 512 MiB \| yes: 1\.44×, peakMiB 100 +\|$/,
      ),
      expect.stringMatching(
        /^\| `camt053-xmlbuilder2-cb` \| xmlbuilder2 createCB \\\| streaming +\| 1,000 entries +\| 276 entries\/s +\| the baseline: 176,442 entries\/s \| 0\.00 +\| — +\| — +\|$/,
      ),
    ]);
  });

  it('names the aims that have no row in the run', () => {
    const last = figuresBlock(run).split('\n').at(-1)!;
    expect(last).toMatch(/^Aims with no row in this run: `startup-version` \(≤ 1\.2× the CPU of node -e 0\); /);
    expect(last).toContain('`camt054` (≥ 0.8× the string template)');
    expect(last).not.toContain('`intake-csv`');
  });

  it('names the modules that failed in the run, so a missing row is never silent', () => {
    const failed = {
      ...run,
      failed: [{ module: 'controls', scale: 1, error: 'benchmark file was not accepted whole' }],
    };
    expect(figuresBlock(failed).split('\n').at(-1)).toBe(
      'Modules that failed in this run: `controls` (benchmark file was not accepted whole).',
    );
    expect(figuresBlock(run)).not.toContain('failed');
  });

  it("puts in a later run's rows of the modules it ran, names its machine line, and forgets their failure", () => {
    const first = {
      ...run,
      failed: [{ module: 'history', scale: 1, error: 'the company root does not exist' }],
    };
    const later: BenchJson = {
      machine: '2 × Test CPU, later',
      date: '2026-12-07 01:00 UTC',
      quick: true,
      modules: ['history', 'intake'],
      rows: [
        row('history-export-1y', 300, 330, { name: 'export after a year', unit: 'runs' }),
        row('intake-csv', 50_000, 25_000, { name: 'validate generic CSV again', size: 20_000 }),
      ],
    };
    const block = figuresBlock(first, [later]);
    expect(block).toContain(
      'Rows `history-export-1y`, `intake-csv` from a later run: `2 × Test CPU, later; 2026-12-07 01:00 UTC`.',
    );
    expect(block).toContain('validate generic CSV again');
    expect(block).not.toContain('validate generic CSV, 20,000 lines');
    expect(block).not.toContain('Modules that failed');
    // In the order of the aims: intake, then camt053's companion row, then history.
    const keys = [...block.matchAll(/^\| `([a-z0-9-]+)`/gm)].map((m) => m[1]);
    expect(keys).toEqual(['intake-csv', 'camt053-xmlbuilder2-cb', 'history-export-1y']);
  });

  it('shows the largest scale of a --scaling run', () => {
    const scaling: BenchJson = {
      machine: run.machine,
      date: run.date,
      runs: [
        { scale: 1, rows: [row('camt053', 90_000, 100_000, { unit: 'entries' })] },
        { scale: 0.01, rows: [row('camt053', 50_000, 100_000, { unit: 'entries' })] },
      ],
    };
    const block = figuresBlock(scaling);
    expect(block).toContain('Sizes: scale 1, the largest of a --scaling run.');
    expect(block).toContain('| 90,000 entries/s ');
    expect(block).not.toContain('50,000 entries/s');
    expect(() => figuresBlock({ machine: 'm', date: 'd' })).toThrow('the JSON holds no rows');
  });
});

describe('the JSON file', () => {
  it("skips the lines npm prints before the bench's JSON", () => {
    const text = `\n> settle@0.1.0 bench\n> tsx bench/run.ts --quick --json\n\n${JSON.stringify(run, null, 2)}\n`;
    expect(parseBenchJson(text)).toEqual(run);
    expect(() => parseBenchJson('> settle@0.1.0 bench\n')).toThrow('no JSON in the file');
  });
});

describe('the runs kept behind the page', () => {
  it('starts from a run and the later ones given, and from the kept runs adds the later ones to theirs', () => {
    const later: BenchJson = { ...run, date: '2026-12-08 01:00 UTC', modules: ['payments'] };
    const again: BenchJson = { ...run, date: '2026-12-09 01:00 UTC', modules: ['writers'] };
    const kept = runsOf([`> settle@0.1.0 bench\n${JSON.stringify(run)}`, JSON.stringify(later)]);
    expect(kept).toEqual({ kept: 'settle bench runs', first: run, later: [later] });
    expect(runsOf([JSON.stringify(kept, null, 1), JSON.stringify(again)])).toEqual({
      kept: 'settle bench runs',
      first: run,
      later: [later, again],
    });
    expect(() => runsOf([])).toThrow('no run given');
  });
});

describe('the page', () => {
  const page = `# Performance\n\nHow to run it.\n\n${FIGURES_START}\nold table\n${FIGURES_END}\n\n## After\n`;

  it('replaces what lies between the markers, and only that', () => {
    expect(withFigures(page, 'new table')).toBe(
      `# Performance\n\nHow to run it.\n\n${FIGURES_START}\nnew table\n${FIGURES_END}\n\n## After\n`,
    );
    expect(withFigures(withFigures(page, 'a'), 'b')).toBe(withFigures(page, 'b'));
  });

  it('refuses a page without its markers, or with them twice or out of order', () => {
    expect(() => withFigures('# Performance\n', 'x')).toThrow('needs one');
    expect(() => withFigures(`${FIGURES_END}\n${FIGURES_START}\n`, 'x')).toThrow('needs one');
    expect(() => withFigures(`${page}${FIGURES_START}\n`, 'x')).toThrow('needs one');
  });
});
