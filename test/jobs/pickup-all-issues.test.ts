// A refused file with more issues than its result keeps (1,000) gets a JSON report listing every
// one: the issues past the limit wait in a work file beside the downloaded copy while the file is
// validated and are streamed into NAME.errors.json after the kept ones: the JSON is, byte for
// byte, what JSON.stringify makes of what the same validation lists with no limit. The person's text keeps
// its first 1,000 and its count of the rest, which now says where they all are; the work file is
// gone afterwards. The issues past the kept ones quote values clipped, as the kept ones do.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPickup, type PickupDeps } from '../../jobs/pickup/pickup.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { today } from '../../src/domain/local-date.js';
import { intakeValidation, issueJson, toJson, validateFile } from '../../src/formats/intake/index.js';
import type { Database } from '../../src/store/database.js';
import { openPickupWorld } from '../support/pickup-world.js';
import { makeTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const line = (e2e: string, amount: string) =>
  `NO9386011117947,ACME AS,2026-01-07,${e2e},${amount},NOK,NO0612000000009,Leverandør AS`;

interface JsonReport {
  issues: { code: string; severity: string; location: { row?: number }; message: string }[];
}

describe('the JSON report of a file with more issues than are kept', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let deps: PickupDeps;
  let company: CompanyConfig;

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    ({ db, deps, company } = await openPickupWorld(dir, new ManualClock('2026-01-05T09:00:00Z')));
  });
  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  const json = async (name: string) =>
    JSON.parse(await readFile(join(company.root, 'error', `${name}.errors.json`), 'utf8')) as JsonReport;

  it('lists every issue of a refused file, each once, in the order found', { timeout: 60_000 }, async () => {
    // 2,500 lines with a negative amount between valid ones: thousands of issues.
    const lines = [HEADER];
    for (let i = 1; i <= 3000; i++) lines.push(line(`E2E-${i}`, i % 6 === 0 ? '100.00' : `-${i}.00`));
    const content = lines.join('\n') + '\n';
    await writeFile(join(company.root, 'inbox', 'big.csv'), content);
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'rejected', movedTo: 'error/big.csv' });

    // What the same validation finds with no limit, issue for issue.
    const copy = join(dir, 'big-copy.csv');
    await writeFile(copy, content);
    const all = await validateFile(copy, {
      profile: await deps.profile(company.intake.profile),
      validation: intakeValidation(company.intake, today(deps.clock, deps.timeZone)),
      maxIssues: Number.MAX_SAFE_INTEGER,
    });
    expect(all.issues.length).toBeGreaterThan(2 * 1000);
    expect(all.issues.some((i) => i.code === 'ISSUES_TRUNCATED')).toBe(false);
    const report = await json('big.csv');
    expect(report.issues.length).toBe(all.issues.length);
    expect(report.issues).toEqual(all.issues.map(issueJson));
    // Byte for byte what JSON.stringify makes of the whole report.
    const bytes = await readFile(join(company.root, 'error', 'big.csv.errors.json'), 'utf8');
    expect(bytes).toBe(JSON.stringify(toJson({ ...all, file: 'big.csv' }), null, 2) + '\n');

    // The person's text lists the first 1,000 and counts the rest, pointing to the JSON: the
    // accountant's part in words, the operator's listing as it always did.
    const text = await readFile(join(company.root, 'error', 'big.csv.errors.txt'), 'utf8');
    const [accountant, operator] = text.split('For the operator (IT)');
    // Each line's transliterated name is a warning beside its error: the first 1,000 issues hold 500 errors.
    const described = all.issues.slice(0, 1000).filter((i) => i.severity === 'error').length;
    expect(accountant!.match(/^ {2}Row \d+, /gm)).toHaveLength(described);
    expect(accountant).toContain(`What to change in the file (${all.errors.toLocaleString('en')} problems)`);
    expect(accountant).toContain(
      `\n  … and ${(all.errors - described).toLocaleString('en')} more problems, not described here so that the report stays readable: the JSON report beside it (big.csv.errors.json) lists every problem.\n`,
    );
    expect(operator).toContain(
      `${all.issues.length - 1000} more issue(s) were found but not listed (limit 1000); the JSON report lists every one`,
    );
    // No work file is left beside the downloaded copy.
    expect(await readdir(deps.workDir)).toEqual([]);
  });

  it('tells a bokmål accountant, in bokmål, how many problems are past those described and that the JSON lists every one', async () => {
    // 1,500 lines, each with one error (a negative amount) and nothing else (a name in ASCII).
    const lines = [HEADER];
    for (let i = 1; i <= 1500; i++) lines.push(line(`E2E-${i}`, `-${i}.00`).replace('Leverandør', 'Leverandor'));
    await writeFile(join(company.root, 'inbox', 'mange.csv'), lines.join('\n') + '\n');
    const [picked] = await runPickup(deps, [{ ...company, locale: 'nb' }]);
    expect(picked).toMatchObject({ outcome: 'rejected', movedTo: 'error/mange.csv' });
    expect((await json('mange.csv')).issues.filter((i) => i.severity === 'error')).toHaveLength(1500);

    const text = await readFile(join(company.root, 'error', 'mange.csv.errors.txt'), 'utf8');
    const [accountant, operator] = text.split('For driften (IT): innstillinger og den tekniske listen\n');
    expect(operator).toBeDefined();
    expect(accountant).toContain('Hva som må rettes i filen (1\u00a0500 feil)');
    expect(accountant!.match(/^ {2}Rad \d+, /gm)).toHaveLength(1000);
    expect(accountant).not.toContain('Rad 1002,');
    // Problems 1,001–1,500 (rows 1002–1501): one line, in bokmål, naming the JSON that lists them.
    const more =
      '… og 500 feil til, som ikke er beskrevet her for at rapporten skal kunne leses: JSON-rapporten ved siden av (mange.csv.errors.json) lister hver feil.';
    expect(accountant).toContain(`\n  ${more}\n`);
    // No English sentence in the accountant's part (its values are the file's own: "amount", "-1000.00").
    expect(accountant).not.toMatch(/\b(the|more|issues?|listed|found|past|first|report|every)\b/i);

    const html = await readFile(join(company.root, 'error', 'mange.csv.errors.html'), 'utf8');
    const [, htmlAccountant] = html.split('<body>');
    expect(htmlAccountant!.split('<h2>For driften')[0]).toContain(`<p>${more}</p>`);
    expect(htmlAccountant).toContain('<h2>Hva som må rettes i filen (1\u00a0500 feil)</h2>');

    // The same name refused again is kept under another: the sentence names that one's JSON.
    await writeFile(join(company.root, 'inbox', 'mange.csv'), lines.slice(0, -1).join('\n') + '\n');
    const [again] = await runPickup(deps, [{ ...company, locale: 'nb' }]);
    const name = again!.movedTo.replace(/^error\//, '');
    expect(name).not.toBe('mange.csv');
    const second = await readFile(join(company.root, 'error', `${name}.errors.txt`), 'utf8');
    expect(second).toContain(`(${name}.errors.json) lister hver feil.`);
    expect((await json(name)).issues).toHaveLength(1499);
  });

  it('clips the values the issues past the kept ones quote, as it clips the kept ones', async () => {
    // A report of a refused file must not become a way to read it (src/formats/intake/clip-issues.ts).
    const secret = `{${'SECRET'.repeat(10)}}`;
    const lines = [HEADER];
    for (let i = 1; i <= 1100; i++) lines.push(line(`E2E-${i}`, `-${i}.00`));
    lines.push(`${line('E2E-last', '-1.00')} ${secret}`);
    await writeFile(join(company.root, 'inbox', 'secret.csv'), lines.join('\n') + '\n');
    await runPickup(deps, [company]);
    const report = await json('secret.csv');
    const last = report.issues.filter((i) => i.location.row === 1102);
    expect(last.map((i) => i.code)).toContain('CHARSET_TRANSLITERATED');
    const changed = last.find((i) => i.code === 'CHARSET_TRANSLITERATED')!;
    expect(changed.message).toContain(`"Leverandør AS {${'SECRET'.repeat(4)}`);
    expect(changed.message).toContain('…"');
    expect(JSON.stringify(report)).not.toContain('SECRET'.repeat(7));
  });

  it('writes no work file and no more entries for a file within the limit', async () => {
    await writeFile(
      join(company.root, 'inbox', 'small.csv'),
      [HEADER, line('E2E-1', '-1.00'), line('E2E-2', '2.00')].join('\n') + '\n',
    );
    await runPickup(deps, [company]);
    const report = await json('small.csv');
    expect(report.issues.length).toBeGreaterThan(0);
    expect(report.issues.length).toBeLessThan(10);
    expect(report.issues.every((i) => i.location.row === 2 || i.location.row === 3)).toBe(true);
    expect(await readdir(deps.workDir)).toEqual([]);
  });
});
