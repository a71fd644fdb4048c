// `settle validate --max-file-size`: the document-size limit of pickup (intake.maxFileSize) as
// an option of the command that has no configuration, with the refusal naming both.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const lines = Array.from(
  { length: 30 },
  (_, i) => `NO9386011117947,ACME AS,2026-01-07,E2E-${i + 1},${i + 1}.00,NOK,NO0612000000009,Leverandor AS`,
);

describe('settle validate --max-file-size', () => {
  it('refuses a file over the given size unread, naming its size, the limit and both ways to raise it', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 'pay.csv');
      await writeFile(file, [HEADER, ...lines].join('\n') + '\n');
      const refused = await runSettle(['validate', '--as-of', '2026-01-05', '--max-file-size', '1KB', file]);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stdout).toMatch(
        /FILE_TOO_LARGE.*the file has [\d.]+ KiB \([\d,]+ bytes\); the limit is 1000 bytes \(intake\.maxFileSize\).*--max-file-size/s,
      );
      const allowed = await runSettle(['validate', '--as-of', '2026-01-05', '--max-file-size', '1MiB', file]);
      expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
      const usage = await runSettle(['validate', '--max-file-size', 'lots', file]);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('expected a size such as 512MB');
    });
  }, 180_000); // three CLI processes on a loaded machine
});
