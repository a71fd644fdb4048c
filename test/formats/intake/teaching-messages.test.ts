// Validation messages that teach: each case was seen by a new user on main, and is checked
// through `settle validate` (the human report people read). Fixtures: test/fixtures/intake/teaching.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { runValidate, type ValidateArgs } from '../../../src/cli/commands/validate.js';
import { FIXTURES, PROFILES } from './helpers.js';

async function validate(file: string, args: ValidateArgs = {}): Promise<{ code: number; text: string }> {
  const out: string[] = [];
  const o = await runValidate(
    `${FIXTURES}${file}`,
    { asOf: '2026-01-05', ...args },
    { profileDirs: [`${FIXTURES}teaching/profiles`, PROFILES], clock: new ManualClock('2026-01-05T08:00:00Z') },
    { out: (t) => void out.push(t), err: (t) => void out.push(t) },
  );
  return { code: o.exitCode, text: out.join('') };
}

describe('messages that teach', () => {
  it('a UTF-8 file read with a Windows-1252 profile: says the file seems to be UTF-8 and which setting to change', async () => {
    const { code, text } = await validate('teaching/nordic-saved-as-utf8.csv', { profile: 'nordic' });
    expect(code).toBe(1);
    expect(text).toContain('ENCODING_MISMATCH: the file seems to be in UTF-8');
    expect(text).toContain('"Beløp" reads as "BelÃ¸p"');
    expect(text).toContain('set encoding: utf-8 in CSV profile "nordic"');
  });

  it('a file saved with ";" for a profile of ",": names both separators, not a header the person does not recognise', async () => {
    const { code, text } = await validate('teaching/generic-saved-with-semicolons.csv');
    expect(code).toBe(1);
    expect(text).toContain(
      'this file uses a semicolon (;) between columns, but profile "generic" expects a comma (,): save the file from the ERP or spreadsheet with a comma (,) between columns, or ask the operator for a profile with a semicolon (;)',
    );
  });

  it('UTF-8 names under an ASCII header are errors at each damaged field, never accepted as mojibake', async () => {
    const { code, text } = await validate('teaching/nordic-body-utf8.csv', { profile: 'nordic-ascii' });
    expect(code).toBe(1);
    expect(text).toMatch(
      /ENCODING_MISMATCH creditorName \(column 8\): "BlÃ¥bÃ¦r Ã˜rsta AS" is UTF-8 text read as Windows-1252/,
    );
    expect(text).toContain('as UTF-8 it reads "Blåbær Ørsta AS"');
  });

  it('Windows-1252 bytes read as UTF-8: says the file seems to be Windows-1252 and which setting to change', async () => {
    const { text } = await validate('encodings/generic-latin1-read-as-utf8.csv');
    expect(text).toContain(
      'the file seems to be in Windows-1252 (or ISO-8859-1), but it is read as UTF-8: "Müller" reads as "M�ller"',
    );
    expect(text).toContain('set encoding: windows-1252 in CSV profile "generic"');
  });

  it('an amount with another thousands separator names the separator and the profile setting', async () => {
    const { text } = await validate('teaching/nordic-dot-thousands.csv', { profile: 'nordic' });
    expect(text).toContain(
      '"1.250,50" is not a decimal amount written with "," before the decimals and a space between thousands',
    );
    expect(text).toContain('"." between thousands');
    expect(text).toContain('set thousandsSeparator: "." in CSV profile "nordic"');
  });

  it('lines ending with a bare CR after an LF line: names the line-end problem', async () => {
    const { text } = await validate('teaching/mixed-line-ends.csv');
    expect(text).toContain('row has 22 fields; the header has 8: the row holds 3 lines joined');
    expect(text).toContain('bare carriage return (CR, the line end of classic Mac OS)');
  });

  it('a pain.001 whose control sums are wrong says the lines are fine and the totals disagree', async () => {
    const { text } = await validate('rules/ctrlsum-group.xml');
    expect(text.split('\n')[0]).toContain(
      "3 payment(s), every line valid on its own, but the file's control totals (NbOfTxs/CtrlSum) disagree with its payments",
    );
    expect(text).not.toContain('3 valid; ');
  });

  it('stray text in a pain.001 is an error, quoted once, not escaped twice', async () => {
    const { code, text } = await validate('rules/xml-stray-text.xml');
    expect(code).toBe(1);
    expect(text).toContain('error   XML_UNEXPECTED_TEXT (Cdtr): text “ACME” inside <Cdtr>');
    expect(text).not.toMatch(/\\"/);
  });

  it('non-breaking spaces as indentation stay a warning, named by code point', async () => {
    const { code, text } = await validate('regression/nbsp-indentation.xml');
    expect(code).toBe(0);
    expect(text).toMatch(/warning XML_UNEXPECTED_TEXT .*U\+00A0/);
    expect(text).not.toMatch(/\\"/);
  });

  it('one error repeated on ten rows is listed once with the rows and a count', async () => {
    const { text } = await validate('teaching/ten-past-dates.csv');
    expect(text).toContain('rows 2–11 (10 times):');
    expect(text.match(/EXECUTION_DATE_PAST/g)).toHaveLength(1);
  });

  it('"1 decimal", not "1 decimals"', async () => {
    const { text } = await validate('teaching/jpy-one-decimal.csv');
    expect(text).toContain('"100.5" has 1 decimal; JPY has none');
  });

  it('a missing debtor name is reported once per payment block, where it belongs', async () => {
    const { text } = await validate('rules/debtor-name-missing.xml');
    expect(text.match(/NAME_MISSING/g)).toHaveLength(1);
    expect(text).toContain('/Document/CstmrCdtTrfInitn/PmtInf[1]:\n  error   NAME_MISSING debtorName (Dbtr/Nm)');
  });

  it.each([
    ['rules/xml-camt053.xml', 'a camt.053 bank statement (camt.053.001.02)'],
    ['rules/xml-camt054.xml', 'a camt.054 debit/credit notification (camt.054.001.02)'],
    ['rules/xml-pain002.xml', 'a pain.002 payment status report (pain.002.001.03)'],
  ])('%s is XML_NOT_PAIN001 naming what the file is', async (file, what) => {
    const { code, text } = await validate(file);
    expect(code).toBe(1);
    expect(text).toContain(`XML_NOT_PAIN001 (/Document): this is ${what}, not a payment file`);
  });
});
