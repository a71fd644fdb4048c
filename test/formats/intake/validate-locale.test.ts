// `settle validate` in the configured company's language: with `locale: nb` the accountant's
// report in bokmål (what pickup would do with the file, each problem at its row under the file's
// own column header with its value) before the technical listing; --json and English unchanged.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { runValidate, type ValidateSettings } from '../../../src/cli/commands/validate.js';
import { toHuman } from '../../../src/formats/intake/render-result.js';
import { withTempDir } from '../../support/tmp.js';
import { PROFILES } from './helpers.js';

const settings = (cwd: string): ValidateSettings => ({
  profileDirs: [PROFILES],
  clock: new ManualClock('2026-01-05T08:00:00Z'),
  cwd,
});

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
// Row 2: a creditor IBAN whose check digits fail; row 3: a payment date already passed (today is 5 Jan 2026).
const ROWS = [
  'NO9386011117947,Acme AS,2026-01-07,E2E-0001,1250.50,NOK,NO9386011117948,Leverandor AS',
  'NO9386011117947,Acme AS,2026-01-02,E2E-0002,99.00,NOK,NO0612000000009,Leverandor AS',
];

async function world(dir: string, locale: string | undefined): Promise<string> {
  await writeFile(
    join(dir, 'settle.yaml'),
    `dataDir: ${dir}/data\ncompanies:\n  - id: acme\n    name: ACME AS\n    organisationNumber: "999999999"\n    root: ${dir}/acme\n${locale ? `    locale: ${locale}\n` : ''}`,
  );
  const file = join(dir, 'payments.csv');
  await writeFile(file, [HEADER, ...ROWS].join('\n') + '\n');
  return file;
}

async function validate(dir: string, file: string, json = false) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) };
  const o = await runValidate(file, { json, config: join(dir, 'settle.yaml') }, settings(dir), io);
  return { ...o, out: out.join(''), err: err.join('') };
}

describe('settle validate in the company’s language', () => {
  it('speaks bokmål to a company with locale nb: the verdict first, each problem at its row and column, then the listing', async () => {
    await withTempDir(async (dir) => {
      const file = await world(dir, 'nb');
      const v = await validate(dir, file);
      expect(v.exitCode).toBe(1);
      const lines = v.out.split('\n');
      expect(lines[0]).toMatch(/^INGENTING FRA DENNE FILEN BLE SENDT/);
      expect(v.out).toContain('Hva som må rettes i filen (2 feil)');
      const iban = lines.find((l) => l.includes('Rad 2,'));
      expect(iban).toMatch(/^ {2}Rad 2, kolonne «creditor_iban», verdi «NO9386011117948»: .+ Hva du må endre: /);
      const date = lines.find((l) => l.includes('Rad 3,'));
      expect(date).toMatch(/^ {2}Rad 3, kolonne «requested_execution_date», verdi «2026-01-02»: .+ Hva du må endre: /);
      // The operator's technical listing closes the output, exactly as English prints it alone.
      expect(v.out).toContain('For driften (IT): innstillinger og den tekniske listen');
      expect(v.out.endsWith(toHuman(v.result!))).toBe(true);
      expect(v.out.indexOf('Rad 2,')).toBeLessThan(v.out.indexOf('IBAN_INVALID'));
    });
  });

  it('follows the locale of the company --company names, over the top-level one', async () => {
    await withTempDir(async (dir) => {
      const file = await world(dir, undefined);
      const company = (id: string, locale: string) =>
        `  - id: ${id}\n    name: ${id}\n    organisationNumber: "999999999"\n    sharesOrganisationNumber: true\n    root: ${dir}/${id}\n    locale: ${locale}\n`;
      await writeFile(
        join(dir, 'settle.yaml'),
        `dataDir: ${dir}/data\nlocale: nb\ncompanies:\n${company('first', 'en')}${company('second', 'nb')}`,
      );
      const run = async (id: string) => {
        const out: string[] = [];
        const io = { out: (t: string) => void out.push(t), err: (t: string) => void out.push(t) };
        await runValidate(file, { company: id, config: join(dir, 'settle.yaml') }, settings(dir), io);
        return out.join('');
      };
      expect(await run('second')).toMatch(/^INGENTING FRA DENNE FILEN BLE SENDT/);
      expect(await run('first')).toMatch(/: INVALID — csv:generic/);
    });
  });

  it('keeps --json the same in every language', async () => {
    await withTempDir(async (nbDir) => {
      await withTempDir(async (enDir) => {
        const nb = await validate(nbDir, await world(nbDir, 'nb'), true);
        const en = await validate(enDir, await world(enDir, undefined), true);
        expect(nb.exitCode).toBe(1);
        const strip = (text: string) => ({ ...JSON.parse(text), file: undefined });
        expect(strip(nb.out)).toEqual(strip(en.out));
        expect(nb.out).not.toContain('Rad 2');
      });
    });
  });

  it('prints an English company the technical listing alone, as before', async () => {
    await withTempDir(async (dir) => {
      const file = await world(dir, 'en');
      const v = await validate(dir, file);
      expect(v.exitCode).toBe(1);
      expect(v.out).toBe(toHuman(v.result!));
      expect(v.out).not.toContain('NOTHING FROM THIS FILE WAS SENT');
      expect(v.out).toMatch(/row 2[\s\S]*IBAN_INVALID/);
    });
  });

  it('lists every issue past the kept 1,000 after the technical listing, in bokmål too, and leaves no work file', async () => {
    await withTempDir(async (dir) => {
      const file = await world(dir, 'nb');
      const many = Array.from(
        { length: 1200 },
        (_, i) => `NO9386011117947,Acme AS,2026-01-07,E2E-${i},-${i + 1}.00,NOK,NO0612000000009,Leverandor AS`,
      );
      await writeFile(file, [HEADER, ...many].join('\n') + '\n');
      const tmp = join(dir, 'tmp');
      await mkdir(tmp);
      const before = process.env.TMPDIR;
      process.env.TMPDIR = tmp; // where the work file of the issues past the kept ones goes
      try {
        const v = await validate(dir, file);
        expect(v.exitCode).toBe(1);
        expect(v.out).toMatch(/^INGENTING FRA DENNE FILEN BLE SENDT/);
        expect(v.out).toContain(
          'ISSUES_TRUNCATED: 200 more issue(s) were found past the first 1000: they are listed at the end',
        );
        const rest = v.out.split('\n200 more issue(s), past the first 1000, in the order found:\n');
        expect(rest).toHaveLength(2);
        for (let row = 1002; row <= 1201; row++)
          expect(rest[1]).toContain(
            `\nrow ${row}:\n  error   AMOUNT_NOT_POSITIVE amount (column 5): amount "-${row - 1}.00"`,
          );
        expect(await readdir(tmp)).toEqual([]);
      } finally {
        if (before === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = before;
      }
    });
  });
});
