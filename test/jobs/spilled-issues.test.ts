// The work file of the issues past a file's kept ones gives back every issue as written, in order,
// however the chunks it is read in cut its UTF-8 (æøå, emoji), and as often as the JSON is written.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SpilledIssues } from '../../jobs/pickup/spilled-issues.js';
import type { Issue } from '../../src/domain/issue.js';
import { issueJson } from '../../src/formats/intake/index.js';
import { withTempDir } from '../support/tmp.js';

const issue = (row: number): Issue => ({
  code: 'CREDITOR_NAME_INVALID',
  severity: row % 3 === 0 ? 'warning' : 'error',
  location: { row, column: 8 },
  field: 'creditorName',
  message: `linje ${row}: «Blåbær ${'ø'.repeat(row % 7)} 😀🧾» er ikke tillatt`,
});

describe('the issues kept in a work file', () => {
  it('reads back every issue in order, each whole, again and again, then removes the file', async () => {
    await withTempDir((dir) => {
      const path = join(dir, 'file.csv.issues');
      const spilled = new SpilledIssues(path);
      expect([...spilled.entries()]).toEqual([]);
      expect(existsSync(path)).toBe(false);
      const issues = Array.from({ length: 5000 }, (_, n) => issue(n + 1));
      for (const i of issues) spilled.add(i);
      expect(spilled.count).toBe(5000);
      const expected = issues.map(issueJson);
      // Several chunks of 64 KiB, each cut wherever the bytes fall.
      expect([...spilled.entries()]).toEqual(expected);
      expect([...spilled.entries()]).toEqual(expected);
      spilled.remove();
      expect(existsSync(path)).toBe(false);
    });
  });
});
