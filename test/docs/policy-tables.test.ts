// The policy tables in docs/formats are generated from the code (the pain.001 element policy and
// version table, the shipped CSV profiles' column policies): this test holds the docs to them.
// `npm run docs:policy` (SETTLE_WRITE_DOCS=1) writes them instead of comparing.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { loadProfile } from '../../src/formats/csv-profile/load-profile.js';
import { csvProfilePolicyTable } from '../../src/formats/csv-profile/policy-table.js';
import { pain001PolicyTable, pain001VersionTable } from '../../src/formats/pain001/policy-table.js';

const root = new URL('../../', import.meta.url);
const write = process.env.SETTLE_WRITE_DOCS === '1';

/** The text between `<!-- generated: NAME -->` and `<!-- end: NAME -->`, replaced or compared. */
function section(file: string, name: string, body: string): void {
  const url = new URL(file, root);
  const text = readFileSync(url, 'utf8');
  const start = `<!-- generated: ${name} (npm run docs:policy) -->\n`;
  const end = `\n<!-- end: ${name} -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  expect(from, `${file} has no generated section ${name}`).toBeGreaterThanOrEqual(0);
  const current = text.slice(from + start.length, to);
  if (write) writeFileSync(url, text.slice(0, from + start.length) + body + text.slice(to));
  else expect(current, `${file}: run npm run docs:policy`).toBe(body);
}

describe('generated policy tables in docs/formats', () => {
  it('pain001.md shows the version table', () => section('docs/formats/pain001.md', 'versions', pain001VersionTable()));
  it('pain001.md shows the element policy', () => section('docs/formats/pain001.md', 'elements', pain001PolicyTable()));
  it('csv-profiles.md shows every column of every shipped payment profile', async () => {
    const dir = new URL('config/profiles/', root).pathname;
    const tables: string[] = [];
    for (const file of readdirSync(dir).sort()) {
      const name = file.replace(/\.yaml$/, '');
      // A receivables profile is not a payment profile: its columns are reconciliation's.
      if (readFileSync(`${dir}${file}`, 'utf8').includes('kind: receivables')) continue;
      const profile = await loadProfile(name, [dir]);
      tables.push(`### \`${name}\`\n\n${csvProfilePolicyTable(profile)}`);
    }
    section('docs/formats/csv-profiles.md', 'csv-profiles', tables.join('\n\n'));
  });
});
