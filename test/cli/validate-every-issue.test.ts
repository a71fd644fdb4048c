// `settle validate` of a file with more issues than a result keeps (1,000) lists every one, as
// pickup's NAME.errors.json does: --json byte for byte what JSON.stringify makes of the whole
// list, the human form each issue under its row, after the summary line. Exit 1 as before. The
// issues past the kept ones wait in a work file, not in memory: 200,000 of them are listed by a
// process whose heap could not hold them (their list alone made a 40 MB heap fail; validate lists
// them all in 24 MB, the test gives it 32).
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_INTAKE, intakeValidation, toJson, validateFile } from '../../src/formats/intake/index.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import { loadProfile } from '../../src/formats/csv-profile/load-profile.js';
import { runSettle } from '../support/cli.js';
import { CLI_MAIN, ROOT } from '../support/cli-paths.js';
import { withTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
/** Every line has a negative amount, each a different one, so no two issues read alike. */
const LINES = 1500;
const csv = (lines: number) =>
  [
    HEADER,
    ...Array.from(
      { length: lines },
      (_, i) => `NO9386011117947,ACME AS,2026-01-07,E2E-${i + 1},-${i + 1}.00,NOK,NO0612000000009,Leverandor AS`,
    ),
  ].join('\n');

describe('settle validate of a file with more than 1,000 issues', () => {
  it('lists every issue, located by its row, in --json and in the human form', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'many.csv');
      await writeFile(file, `${csv(LINES)}\n`);
      // What the same validation finds with no limit.
      const all = await validateFile(file, {
        profile: await loadProfile('generic', [join(ROOT, 'config', 'profiles')]),
        validation: intakeValidation(DEFAULT_INTAKE, toLocalDate('2026-01-05')),
        maxIssues: Number.MAX_SAFE_INTEGER,
      });
      expect(all.issues.length).toBeGreaterThanOrEqual(LINES);

      const json = await runSettle(['validate', '--as-of', '2026-01-05', '--json', file]);
      expect(json.code, json.stderr).toBe(1);
      expect(json.stdout).toBe(JSON.stringify(toJson(all), null, 2) + '\n');

      const human = await runSettle(['validate', '--as-of', '2026-01-05', file]);
      expect(human.code, human.stderr).toBe(1);
      const text = human.stdout;
      // The summary first, counting every issue.
      expect(text.split('\n')[0]).toBe(
        `${file}: INVALID — csv:generic, ${LINES} payment(s), 0 valid; ${all.errors} error(s), ${all.warnings} warning(s)`,
      );
      // Each row's issue under its row, the last ones too.
      for (let row = 2; row <= LINES + 1; row++) {
        expect(text, `row ${row}`).toContain(`\nrow ${row}:\n`);
        expect(text, `row ${row}`).toContain(`"-${row - 1}.00"`);
      }
      expect(text).not.toContain('not listed');
    });
  }, 180_000); // two CLI processes on a loaded machine

  it('tells a bokmål accountant, in bokmål, how many problems are past those described and where every one is', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'many.csv');
      await writeFile(file, `${csv(LINES)}\n`);
      const config = join(dir, 'settle.yaml');
      await writeFile(
        config,
        `dataDir: ${dir}/data\ncompanies:\n  - id: acme\n    name: ACME AS\n    organisationNumber: "999999999"\n    root: ${dir}/acme\n    locale: nb\n`,
      );
      const human = await runSettle(['--config', config, 'validate', '--as-of', '2026-01-05', file], { cwd: dir });
      expect(human.code, human.stderr).toBe(1);
      const [accountant, operator] = human.stdout.split('For driften (IT): innstillinger og den tekniske listen\n');
      expect(operator).toBeDefined();
      // The count of the problems is every one of them; the first 1,000 are described, one a row.
      expect(accountant).toContain(`Hva som må rettes i filen (1\u00a0500 feil)`);
      expect(accountant!.match(/^ {2}Rad \d+, /gm)).toHaveLength(1000);
      expect(accountant).toContain(
        '\n  Rad 1001, kolonne «amount», verdi «-1000.00»: Beløpet må være større enn null.',
      );
      expect(accountant).not.toContain('Rad 1002,');
      // Problems 1,001–1,500 (rows 1002–1501): one line, in bokmål, saying how many and where.
      expect(accountant).toContain(
        '\n  … og 500 feil til, som ikke er beskrevet her for at rapporten skal kunne leses: hver av dem står til slutt i utskriften, etter den tekniske listen, i den rekkefølgen de ble funnet.\n',
      );
      // No English sentence in the accountant's part (its values are the file's own: "amount", "-1000.00").
      expect(accountant).not.toMatch(/\b(the|more|issues?|listed|found|past|first|end)\b/i);
      // And there they are: the technical listing (English, for the operator) lists every one at its end.
      const rest = operator!.split('\n500 more issue(s), past the first 1000, in the order found:\n');
      expect(rest).toHaveLength(2);
      for (let row = 1002; row <= LINES + 1; row++)
        expect(rest[1], `row ${row}`).toContain(`\nrow ${row}:\n  error   AMOUNT_NOT_POSITIVE`);
    });
  }, 180_000);

  it('lists 200,000 issues with a heap too small to hold them', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'huge.csv');
      const lines = 200_000;
      await writeFile(file, `${csv(lines)}\n`);
      const env = { NODE_OPTIONS: '--max-old-space-size=32' };
      const json = await runSettle(['validate', '--as-of', '2026-01-05', '--json', file], { env });
      expect(json.code, json.stderr).toBe(1);
      const issues = (JSON.parse(json.stdout) as { issues: { location: { row: number } }[] }).issues;
      expect(issues).toHaveLength(lines);
      expect(issues.findIndex((issue, n) => issue.location.row !== n + 2)).toBe(-1);
      const human = await runSettle(['validate', '--as-of', '2026-01-05', file], { env });
      expect(human.code, human.stderr).toBe(1);
      expect(human.stdout.match(/^row \d+:$/gm)).toHaveLength(lines);
      expect(human.stdout).toContain(`\nrow ${lines + 1}:\n  error   AMOUNT_NOT_POSITIVE`);
    });
  }, 180_000);

  it('stops quietly when the reader of its output goes (| head), with the exit code of the file', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'many.csv');
      await writeFile(file, `${csv(20_000)}\n`);
      const child = spawn(process.execPath, [CLI_MAIN, 'validate', '--as-of', '2026-01-05', file], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      // Read the first piece, then close the pipe as `head` does.
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('');
      expect(code).toBe(1);
    });
  }, 60_000);
});
