import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';

describe('settle run pickup', () => {
  it('archives a valid file, rejects a bad one with a report, and exits 1 because a person must look', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'acme/inbox'), { recursive: true });
      await writeFile(
        join(dir, 'settle.yaml'),
        `dataDir: ${dir}/data\ncompanies:\n  - id: acme\n    name: ACME AS\n    organisationNumber: "999999999"\n    root: ${dir}/acme\n    intake:\n      stableFor: 1s\n`,
      );
      const future = '2099-01-06';
      await writeFile(
        join(dir, 'acme/inbox/good.csv'),
        `${HEADER}\nNO9386011117947,ACME AS,${future},E1,10.00,NOK,NO0612000000009,Leverandor AS\n`,
      );
      await writeFile(
        join(dir, 'acme/inbox/bad.csv'),
        `${HEADER}\nNO9386011117947,ACME AS,${future},E2,10.00,NOK,NO0612000000008,Leverandor AS\n`,
      );
      const result = await runSettle(['--config', join(dir, 'settle.yaml'), 'run', 'pickup'], { cwd: dir });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        'acme  bad.csv: rejected, 0 payment(s) → error/bad.csv — report: error/bad.csv.errors.txt',
      );
      expect(result.stdout).toMatch(
        /acme {2}good\.csv: accepted, 1 payment\(s\) → archive\/\d{4}-\d{2}-\d{2}\/good\.csv/,
      );
      expect(await readdir(join(dir, 'acme/inbox'))).toEqual([]);
      const again = await runSettle(['--config', join(dir, 'settle.yaml'), 'run', 'pickup'], { cwd: dir });
      expect(again.code).toBe(0);
      expect(again.stdout).toBe('no files to pick up\n');
    });
  });

  it('refuses an unknown company with exit 2', async () => {
    const result = await runSettle(['run', 'pickup', '--company', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^settle: ERR_COMPANY_UNKNOWN: /);
  });
});
