// The work file of the issues past a file's kept ones gives back the text of every issue as it
// was made, in order, however the chunks it is read in cut its UTF-8 (æøå, emoji), as often as a
// report is written; it is made only once an issue came, replaces a file left under its name, and
// has no name once open, so nothing is left behind even by a process that is killed.
import { existsSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/domain/issue.js';
import { issueJson, jsonListEntry, SpilledIssues } from '../../../src/formats/intake/index.js';
import { withTempDir } from '../../support/tmp.js';

const issue = (row: number): Issue => ({
  code: 'CREDITOR_NAME_INVALID',
  severity: row % 3 === 0 ? 'warning' : 'error',
  location: { row, column: 8 },
  field: 'creditorName',
  message: `linje ${row}: «Blåbær ${'ø'.repeat(row % 7)} 😀🧾» er ikke tillatt`,
});

const form = (i: Issue) => jsonListEntry(issueJson(i));

describe('the issues kept in a work file', () => {
  it('gives back the text of every issue in order, again and again, then removes the file', async () => {
    await withTempDir((dir) => {
      const path = join(dir, 'file.csv.issues');
      const spilled = new SpilledIssues(path, form);
      expect([...spilled.chunks()]).toEqual([]);
      expect(existsSync(path)).toBe(false);
      const issues = Array.from({ length: 5000 }, (_, n) => issue(n + 1));
      for (const i of issues) spilled.add(i);
      expect(spilled.count).toBe(5000);
      expect(existsSync(path)).toBe(false);
      const expected = issues.map(form).join('');
      // Several chunks of 64 KiB, each cut wherever the bytes fall.
      const chunks = [...spilled.chunks()];
      expect(chunks.length).toBeGreaterThan(2);
      expect(Buffer.concat(chunks).toString('utf8')).toBe(expected);
      expect(Buffer.concat([...spilled.chunks()]).toString('utf8')).toBe(expected);
      spilled.remove();
      expect(existsSync(path)).toBe(false);
    });
  });

  it('replaces a file left under its name, and writes no file through a link in its place', async () => {
    await withTempDir((dir) => {
      const path = join(dir, 'left.issues');
      writeFileSync(path, 'left by a crash\n');
      const spilled = new SpilledIssues(path, (i) => `${i.location.row}\n`);
      spilled.add(issue(7));
      expect(Buffer.concat([...spilled.chunks()]).toString()).toBe('7\n');
      spilled.remove();

      const target = join(dir, 'elsewhere');
      writeFileSync(target, 'keep me');
      symlinkSync(target, path);
      const linked = new SpilledIssues(path, (i) => `${i.location.row}\n`);
      linked.add(issue(8));
      expect(Buffer.concat([...linked.chunks()]).toString()).toBe('8\n');
      linked.remove();
      expect(readFileSync(target, 'utf8')).toBe('keep me');
    });
  });
});
