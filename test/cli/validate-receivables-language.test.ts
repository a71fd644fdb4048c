// `settle validate FILE --profile receivables` speaks the configured company's language (the CLI's
// rule, src/cli/cli-locale.ts): in bokmål a bad file's problems, each at its line and column, and a
// good file's count; in English the words it always printed; `--json` keeps the English message.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';

const BAD = [
  'Invoice,Customer,Amount,Currency,Reference,Due date',
  'INV-1,Kunde Nord AS,12500.005,NOK,1002003018,2026-01-07',
  'INV-1,,-5.00,NOK,12345,07.01.2026',
  '',
].join('\n');
const GOOD = [
  'Invoice,Customer,Amount,Currency,Reference,Due date',
  'INV-9,Kunde Nord AS,100.00,NOK,,2026-01-07',
  '',
].join('\n');

describe('settle validate with a receivables profile, in the company language', { timeout: 180_000 }, () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sandbox: RunningSandbox;
  let english: string;
  let bokmal: string;

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir());
    sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: '2026-01-05T08:00:00Z' });
    english = await writeDemoConfig(dir, sandbox);
    bokmal = join(dir, 'settle-nb.yaml');
    await writeFile(
      bokmal,
      (await readFile(english, 'utf8')).replace(/^(\s+)name: ACME AS$/m, '$1name: ACME AS\n$1locale: nb'),
    );
    await writeFile(join(dir, 'bad.csv'), BAD);
    await writeFile(join(dir, 'good.csv'), GOOD);
  });
  afterAll(async () => {
    await sandbox?.close();
    await cleanup?.();
  });

  const validate = (config: string, file: string, ...more: string[]) =>
    runSettle(['--config', config, 'validate', '--profile', 'receivables', join(dir, file), ...more], { cwd: dir });

  it('a bokmål company reads the problems and the count in bokmål', async () => {
    expect(await readFile(bokmal, 'utf8')).toContain('locale: nb');
    const bad = await validate(bokmal, 'bad.csv');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('bad.csv: ikke lest inn; rett disse linjene og legg filen inn igjen.');
    expect(bad.stdout).toContain('linje 2, kolonne «Amount»: «12500.005» har 3 desimaler; NOK har 2');
    expect(bad.stdout).toContain('linje 3, kolonne «Invoice»: faktura INV-1 står to ganger (også på linje 2)');
    expect(bad.stdout).toContain('linje 3, kolonne «Customer»: kundens navn er tomt');
    expect(bad.stdout).toContain('linje 3, kolonne «Amount»: beløpet -5.00 er ikke positivt');
    expect(bad.stdout).toContain('linje 3, kolonne «Due date»: «07.01.2026» er ikke en dato skrevet som YYYY-MM-DD');
    expect(bad.stdout).not.toMatch(/\bline \d|is not|listed twice/);
    const good = await validate(bokmal, 'good.csv');
    expect(good.code).toBe(0);
    expect(good.stdout).toContain('good.csv: gyldig — 1 åpne fordring(er), lest med fordringsprofilen «receivables»');
  });

  it('an English company reads what it always read, and --json keeps the English message', async () => {
    const bad = await validate(english, 'bad.csv');
    expect(bad.stdout).toContain('bad.csv: not imported; correct these lines and drop the file again.');
    expect(bad.stdout).toContain('line 2, column "Amount": "12500.005" has 3 decimals; NOK has 2');
    expect(bad.stdout).toContain(
      'line 3, column "Invoice": invoice INV-1 is listed twice (also on line 2); list it once',
    );
    const json = JSON.parse((await validate(bokmal, 'bad.csv', '--json')).stdout) as {
      problems: Record<string, unknown>[];
    };
    expect(json.problems[0]).toEqual({ line: 2, column: 'Amount', message: '"12500.005" has 3 decimals; NOK has 2' });
    const good = await validate(english, 'good.csv');
    expect(good.stdout).toContain('valid — 1 open receivable(s), read with receivables profile "receivables"');
  });
});
