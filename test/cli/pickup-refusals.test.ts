// Files that are not payment files, or too large, dropped in an inbox: pickup moves them to
// error/ with a report that says what the file is, or its size and the setting that limits it.
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const RULES = fileURLToPath(new URL('../fixtures/intake/rules/', import.meta.url));

function config(dir: string, intake = ''): string {
  return `dataDir: ${dir}/data\ncompanies:\n  - id: acme\n    name: ACME AS\n    organisationNumber: "999999999"\n    root: ${dir}/acme\n    intake:\n      stableFor: 1s\n${intake}`;
}

describe('settle run pickup refuses what is not a payment file', () => {
  it('names a bank statement, a notification and a status report dropped in the inbox (XML_NOT_PAIN001)', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'acme/inbox'), { recursive: true });
      await writeFile(join(dir, 'settle.yaml'), config(dir));
      for (const f of ['xml-camt053.xml', 'xml-camt054.xml', 'xml-pain002.xml'])
        await copyFile(join(RULES, f), join(dir, 'acme/inbox', f));
      const result = await runSettle(['--config', join(dir, 'settle.yaml'), 'run', 'pickup'], { cwd: dir });
      expect(result.code).toBe(1);
      for (const [f, what] of [
        ['xml-camt053.xml', 'this is a camt.053 bank statement'],
        ['xml-camt054.xml', 'this is a camt.054 debit/credit notification'],
        ['xml-pain002.xml', 'this is a pain.002 payment status report'],
      ] as const) {
        const report = await readFile(join(dir, 'acme/error', `${f}.errors.txt`), 'utf8');
        expect(report).toContain('XML_NOT_PAIN001');
        expect(report).toContain(`${what}`);
        expect(report).toContain('not a payment file');
      }
    });
  });

  it('refuses a file over intake.maxFileSize unread, naming its size and the setting (FILE_TOO_LARGE)', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'acme/inbox'), { recursive: true });
      await writeFile(join(dir, 'settle.yaml'), config(dir, '      maxFileSize: 1KB\n'));
      const header =
        'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
      const rows = Array.from(
        { length: 40 },
        (_, i) => `NO9386011117947,ACME AS,2099-01-06,E${i},10.00,NOK,NO0612000000009,Leverandor AS`,
      );
      await writeFile(join(dir, 'acme/inbox/big.csv'), [header, ...rows].join('\n') + '\n');
      const result = await runSettle(['--config', join(dir, 'settle.yaml'), 'run', 'pickup'], { cwd: dir });
      expect(result.code).toBe(1);
      const report = await readFile(join(dir, 'acme/error/big.csv.errors.txt'), 'utf8');
      expect(report).toMatch(
        /FILE_TOO_LARGE: the file has [\d.]+ KiB \([\d,]+ bytes\); the limit is 1000 bytes \(intake\.maxFileSize\)/,
      );
    });
  });
});
