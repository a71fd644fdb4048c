// The accountant's report of a picked-up file (issue #48 Must 4, #53): each problem in the file's
// own words (its column header, row and value) with what to change, the separator or decimal
// mark named when it differs from the profile's, an opening line for what happened to the file,
// the operator's advice apart, the held lines in their own section, text and HTML, in the
// company's language. Real pickup job, real SQLite, the shipped profiles.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPickup, type PickupDeps } from '../../jobs/pickup/pickup.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import type { Database } from '../../src/store/database.js';
import { ReportRepository } from '../../src/store/reports.js';
import { openPickupWorld } from '../support/pickup-world.js';
import { makeTempDir } from '../support/tmp.js';

const NORDIC_HEADER = 'Fra konto;Betaler;Betalingsdato;Referanse;Beløp;Valuta;Til konto;Mottaker';
const nordicLine = (ref: string, amount: string, to = 'NO0612000000009') =>
  `NO9386011117947;ACME AS;07.01.2026;${ref};${amount};NOK;${to};Kjøkkenservice AS`;
/** The nordic profile reads Windows-1252, as Norwegian ERPs write it. */
const nordicFile = (...lines: string[]) => Buffer.from([NORDIC_HEADER, ...lines].join('\r\n') + '\r\n', 'latin1');

const GENERIC_HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const genericLine = (ref: string, amount = '100.00') =>
  `NO9386011117947,ACME AS,2026-01-07,${ref},${amount},NOK,NO0612000000009,Leverandor AS`;

describe("the accountant's report of a picked-up file", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let deps: PickupDeps;
  let company: CompanyConfig;
  let clock: ManualClock;

  beforeEach(async () => {
    clock = new ManualClock('2026-01-05T09:00:00Z');
    ({ dir, cleanup } = await makeTempDir());
    ({ db, deps, company } = await openPickupWorld(dir, clock));
  });
  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  const drop = (name: string, content: string | Buffer) => writeFile(join(company.root, 'inbox', name), content);
  const report = (name: string, ext = 'txt') => readFile(join(company.root, 'error', `${name}.errors.${ext}`), 'utf8');
  const nordic = (over: Partial<CompanyConfig> = {}): CompanyConfig => ({
    ...company,
    ...over,
    intake: { ...company.intake, profile: 'nordic', ...over.intake },
  });

  it('names the file\'s own header "Til konto", the row and the value of a bad account, and what to change', async () => {
    await drop(
      'betalinger.csv',
      nordicFile(nordicLine('R-1', '1 200,50'), nordicLine('R-2', '99,00', 'NO0612000000008')),
    );
    const [picked] = await runPickup(deps, [nordic()]);
    expect(picked).toMatchObject({ outcome: 'rejected', report: 'error/betalinger.csv.errors.txt' });
    const text = await report('betalinger.csv');
    const [accountant, operator] = text.split('For the operator (IT)');
    expect(accountant).toContain(
      'Row 3, column "Til konto", value "NO0612000000008": The account number is not a valid IBAN (a typing error or a missing digit). What to change: Check the account number with the creditor and correct it in the ERP.',
    );
    // The accountant's part names no internal field and no issue code; the operator's part keeps them.
    expect(accountant).not.toMatch(/creditorIban|IBAN_INVALID/);
    expect(operator).toMatch(/IBAN_INVALID creditorIban \(column 7\)/);
  });

  it("names a decimal mark other than the profile's once for the file, and puts the setting in the operator's part", async () => {
    await drop('punktum.csv', nordicFile(nordicLine('R-1', '1200.50'), nordicLine('R-2', '80.00')));
    await runPickup(deps, [nordic()]);
    const [accountant, operator] = (await report('punktum.csv')).split('For the operator (IT)');
    expect(accountant).toContain(
      'The whole file: This file writes amounts with . (point) before the decimals, but the profile "nordic" expects , (comma).',
    );
    expect(accountant!.match(/This file writes amounts/g)).toHaveLength(1);
    expect(accountant).toContain('Row 2, column "Beløp", value "1200.50"');
    expect(accountant).not.toMatch(/decimalSeparator|thousandsSeparator/);
    expect(operator).toContain(
      'set decimalSeparator: "." and thousandsSeparator: "" in CSV profile "nordic" (AMOUNT_SYNTAX)',
    );
  });

  it('names the separator of a ";"-separated Excel export read with a "," profile, not missing columns', async () => {
    const excel = [GENERIC_HEADER, genericLine('E-1')].map((l) => l.replaceAll(',', ';')).join('\r\n') + '\r\n';
    await drop('excel.csv', '\uFEFF' + excel);
    const [picked] = await runPickup(deps, [company]);
    expect(picked?.outcome).toBe('rejected');
    const text = await report('excel.csv');
    const [accountant] = text.split('For the operator (IT)');
    expect(accountant).toContain(
      'The whole file: This file uses ; (semicolon) between columns, but the profile "generic" expects , (comma).',
    );
    expect(accountant).not.toMatch(/lacks|required column/);
    // The technical listing says the separator first too.
    expect(text).toMatch(/CSV_COLUMNS_MISSING: this file uses a semicolon \(;\) between columns/);
  });

  it('opens a whole-file refusal with "nothing sent, drop the whole file again", in text and HTML, both recorded', async () => {
    await drop('bad.csv', [GENERIC_HEADER, genericLine('E-1'), genericLine('E-2', '10.005')].join('\n') + '\n');
    await runPickup(deps, [company]);
    const text = await report('bad.csv');
    const opening =
      'NOTHING FROM THIS FILE WAS SENT: no payment of it goes to the bank. Correct the problems below in the ERP, then drop the whole corrected file again.';
    expect(text.split('\n')[0]).toBe(opening);
    const html = await report('bad.csv', 'html');
    expect(html).toContain(`<p class="verdict needs">${opening}</p>`);
    expect(html).toMatch(
      /<td data-label="Row">3<\/td><td data-label="Column">amount<\/td><td data-label="Value">10\.005<\/td>/,
    );
    const [file] = await deps.ledger.listFiles({ company: 'acme' });
    const recorded = await new ReportRepository(db, clock).about('acme', { type: 'payment_file', id: file!.id });
    expect(recorded.map((r) => [r.name, r.mediaType]).sort()).toEqual([
      ['bad.csv.errors.html', 'text/html'],
      ['bad.csv.errors.txt', 'text/plain'],
    ]);
    expect((await readdir(join(company.root, 'error'))).sort()).toEqual([
      'bad.csv',
      'bad.csv.errors.html',
      'bad.csv.errors.json',
      'bad.csv.errors.txt',
    ]);
  });

  it('opens a partial acceptance with which lines went and to send only the corrected ones', async () => {
    const lenient = { ...company, intake: { ...company.intake, acceptValidLines: true } };
    await drop(
      'mixed.csv',
      [GENERIC_HEADER, genericLine('M-1'), genericLine('M-2', '250.00'), genericLine('M-3', '-3.00')].join('\n') + '\n',
    );
    const [picked] = await runPickup(deps, [lenient]);
    expect(picked).toMatchObject({ outcome: 'partially-accepted', payments: 2 });
    const text = await report('mixed.csv');
    expect(text.split('\n')[0]).toBe(
      'PART OF THIS FILE WAS ACCEPTED: 2 of 3 payment(s) will be sent; the 1 line(s) with errors below were not. Correct those lines in the ERP and send only them, in a new file: the whole file again would repeat the accepted ones.',
    );
    expect(text).toContain('Row 4, column "amount", value "-3.00": The amount must be greater than zero.');
  });

  it('gives held lines their own section, apart from the problems', async () => {
    const content = (ref: string) => [GENERIC_HEADER, genericLine(ref, '4321.00')].join('\n') + '\n';
    await drop('first.csv', content('H-1'));
    await runPickup(deps, [company]);
    await drop('second.csv', content('H-2'));
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ outcome: 'accepted', held: 1 });
    const text = await report('second.csv');
    expect(text.split('\n')[0]).toBe(
      'THIS FILE WAS ACCEPTED: 1 of 1 payment(s). 1 of them is held for a person (listed below) and not sent until released.',
    );
    expect(text).not.toContain('What to change in the file');
    expect(text).toMatch(
      /^Held for a person \(1 line\): not sent until released\n {2}Row 2, reference H-2: held as a likely duplicate, not sent: .+\. A person releases or drops it on the console’s page “Held payments”\.$/m,
    );
  });

  it("gives a held line's reason in the company's language", async () => {
    const content = (ref: string) => [GENERIC_HEADER, genericLine(ref, '4321.00')].join('\n') + '\n';
    const nb = { ...company, locale: 'nb' } as CompanyConfig;
    await drop('first.csv', content('H-1'));
    await runPickup(deps, [nb]);
    await drop('second.csv', content('H-2'));
    const [picked] = await runPickup(deps, [nb]);
    expect(picked).toMatchObject({ outcome: 'accepted', held: 1 });
    const held = (await report('second.csv')).split('\n').find((l) => l.includes('referanse H-2'));
    // The reason after "ikke sendt:" is the hold's sentence in bokmål, not the English it keeps.
    expect(held).toMatch(
      /^ {2}Rad 2, referanse H-2: holdt tilbake som en mulig dobbeltbetaling, ikke sendt: .+\. En person/,
    );
    const reason = held!.slice(held!.indexOf('ikke sendt: ') + 12);
    expect(reason).not.toMatch(/likely duplicate|received|same amount/i);
    expect(reason).toMatch(/first\.csv/);
  });

  it("is in the company's language: bokmål for a company with locale nb", async () => {
    await drop('konto.csv', nordicFile(nordicLine('R-1', '250,00', 'NO0612000000008')));
    await runPickup(deps, [nordic({ locale: 'nb' })]);
    const text = await report('konto.csv');
    expect(text.split('\n')[0]).toBe(
      'INGENTING FRA DENNE FILEN BLE SENDT: ingen betaling i den går til banken. Rett feilene nedenfor i ERP-systemet, og legg deretter inn hele den rettede filen på nytt.',
    );
    expect(text).toContain('Rad 2, kolonne «Til konto», verdi «NO0612000000008»: Kontonummeret er ikke et gyldig IBAN');
    expect(text).toContain('For driften (IT)');
    const html = await report('konto.csv', 'html');
    expect(html).toMatch(/^<!doctype html>\n<html lang="nb">/);
    expect(html).toContain('<th scope="col">Hva du må endre</th>');
  });
});
