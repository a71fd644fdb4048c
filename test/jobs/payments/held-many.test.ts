// A re-exported file of many lines holds each of them: the accountant's report lists the first
// MAX_HELD_LISTED in words and counts the rest exactly, and the JSON beside it lists every one.
// Listed all in words, a full-size file's 233,000 held lines made a report of hundreds of
// megabytes (63 MB of text and 64 MB of HTML per 100,000 lines) and 847 MB peak per 100,000 to build it.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPickup, type PickupDeps } from '../../../jobs/pickup/pickup.js';
import { MAX_HELD_LISTED } from '../../../jobs/pickup/report.js';
import { createWorld, worldPickupDeps, type World } from './world.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';
const LINES = MAX_HELD_LISTED + 7;
const csv = (tag: string) =>
  [
    HEADER,
    ...Array.from(
      { length: LINES },
      (_, i) =>
        `NO9386011117947,ACME AS,2026-01-09,${tag}-${i},${100 + i}.00,NOK,NO0612000000009,Leverandor AS,Invoice ${1000 + i}`,
    ),
  ].join('\n') + '\n';

describe('a file with more held lines than a person reads', () => {
  let w: World;
  let pickup: PickupDeps;

  beforeEach(async () => {
    w = await createWorld({ company: { intake: { stableFor: '1s' } } });
    await mkdir(join(w.company.root, 'inbox'), { recursive: true });
    pickup = worldPickupDeps(w);
  });
  afterEach(async () => w.close());

  it('lists the first held lines, counts every one exactly, and the JSON has them all', async () => {
    await writeFile(join(w.company.root, 'inbox', 'first.csv'), csv('ERP'));
    expect((await runPickup(pickup, [w.company]))[0]).toMatchObject({ outcome: 'accepted', payments: LINES });
    w.advance(24 * 3600_000);
    await writeFile(join(w.company.root, 'inbox', 'again.csv'), csv('AGAIN'));
    const [second] = await runPickup(pickup, [w.company]);
    expect(second).toMatchObject({ outcome: 'accepted', payments: LINES, held: LINES });
    expect(second!.heldLines).toHaveLength(LINES);

    const base = join(w.company.root, second!.report!.replace(/\.errors\.txt$/, ''));
    const text = await readFile(`${base}.errors.txt`, 'utf8');
    const html = await readFile(`${base}.errors.html`, 'utf8');
    const jsonText = await readFile(`${base}.errors.json`, 'utf8');
    const json = JSON.parse(jsonText) as { issues: { code: string; message: string }[] };
    // Written piece by piece, it is byte for byte what JSON.stringify makes of it.
    expect(jsonText).toBe(JSON.stringify(json, null, 2) + '\n');
    // The heading's count is exact; the person reads the first lines and where the rest are.
    expect(text).toContain(`Held for a person (1,007 lines)`);
    expect(text).toContain('AGAIN-0:');
    expect(text).toContain(`AGAIN-${MAX_HELD_LISTED - 1}:`);
    expect(text).not.toContain(`AGAIN-${MAX_HELD_LISTED}:`);
    expect(text).toContain(`… and 7 more held lines, not listed here`);
    expect(text).toContain('again.csv.errors.json');
    expect(text).toMatch(/ISSUES_TRUNCATED: 7 more held line\(s\) are not listed here \(limit 1000\)/);
    expect(text.match(/LIKELY_DUPLICATE/g)).toHaveLength(MAX_HELD_LISTED);
    expect(html).toContain(`(1,007 lines)`);
    expect(html).toContain('… and 7 more held lines, not listed here');
    expect(html).not.toContain(`AGAIN-${MAX_HELD_LISTED}:`);
    // The machine's listing is complete.
    const held = json.issues.filter((i) => i.code === 'LIKELY_DUPLICATE');
    expect(held).toHaveLength(LINES);
    expect(held.at(-1)!.message).toContain(`"AGAIN-${LINES - 1}"`);
  }, 60_000);
});
