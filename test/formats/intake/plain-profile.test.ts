// The schema-free reading of valid profiles (plain-profile.ts) must agree with the schema: the
// same profile for every valid text, and no profile at all (so the schema reports) for any text
// the schema refuses.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../src/formats/csv-profile/parse-profile.js';
import { plainProfile } from '../../../src/formats/csv-profile/plain-profile.js';
import { PROFILES } from './helpers.js';

const MINIMAL = `columns:
  debtorIban: from
  debtorName: payer
  requestedExecutionDate: date
  endToEndId: ref
  amount: amount
  currency: currency
  creditorIban: to
  creditorName: payee
`;

/** Texts the schema accepts, each with something the shipped profiles do not show. */
const VALID: Record<string, string> = {
  minimal: MINIMAL,
  'header names trimmed': MINIMAL.replace('from', '"  from  "'),
  'a default instead of a column': MINIMAL.replace('  currency: currency\n', '') + 'defaults:\n  currency: NOK\n',
  'empty default': MINIMAL + 'defaults:\n  categoryPurpose: ""\n',
  'charset with only a base': MINIMAL + 'charset:\n  base: any\n',
  'rules and ignored columns':
    MINIMAL +
    'rules:\n  method: { allowed: [TRF, ""], code: PAYMENT_METHOD_UNSUPPORTED, why: transfers only }\n  ccy: { sameAs: currency, why: one currency }\n  count: { control: nbOfTxs }\nignored:\n  note: a note\n',
  'every setting': `name: other\ndescription: d\nencoding: iso-8859-1\ndelimiter: "\\t"\nquote: "'"\ndecimalSeparator: ","\nthousandsSeparator: "."\ndateFormat: YYYY/MM/DD\n${MINIMAL}`,
};

/** Texts the schema refuses: the plain reading must leave each to it. */
const INVALID: Record<string, string> = {
  'not YAML': 'columns:\n  a: [unclosed\n',
  'a list': '- a\n- b\n',
  'unknown key': MINIMAL + 'extra: 1\n',
  'rule without why': MINIMAL + 'rules:\n  method: { allowed: [TRF] }\n',
  'rule of unknown control': MINIMAL + 'rules:\n  n: { control: count }\n',
  'rule on a mapped column': MINIMAL + 'rules:\n  payee: { allowed: [x], why: y }\n',
  'ignored twice': MINIMAL + 'rules:\n  n: { control: nbOfTxs }\nignored:\n  N: twice\n',
  'ignored without why': MINIMAL + 'ignored:\n  note: ""\n',
  'unknown field': MINIMAL + '  payer: x\n',
  'blank header': MINIMAL.replace('payee', '"  "'),
  'header not a string': MINIMAL.replace('payee', '12'),
  'no columns': 'name: x\n',
  'required field missing': MINIMAL.replace('  amount: amount\n', ''),
  'header mapped twice': MINIMAL.replace('payee', 'PAYER'),
  'null name': 'name:\n' + MINIMAL,
  'empty name': 'name: ""\n' + MINIMAL,
  'null thousands separator': 'thousandsSeparator:\n' + MINIMAL,
  'thousands separator as decimal': 'thousandsSeparator: "."\n' + MINIMAL,
  'long delimiter': 'delimiter: ";;"\n' + MINIMAL,
  'quote as delimiter': "delimiter: '\"'\n" + MINIMAL,
  'comma delimiter, quote and decimal': 'delimiter: ","\nquote: ","\ndecimalSeparator: ","\n' + MINIMAL,
  'unknown encoding': 'encoding: utf-32\n' + MINIMAL,
  'bad date format': 'dateFormat: DD-MM-YY\n' + MINIMAL,
  'unknown charset key': MINIMAL + 'charset:\n  base: epc\n  more: x\n',
  'charset base': MINIMAL + 'charset:\n  base: latin\n',
  'null defaults': MINIMAL + 'defaults:\n',
  'default not a string': MINIMAL + 'defaults:\n  currency: 1\n',
  'duplicate key': MINIMAL + 'name: a\nname: b\n',
};

describe('reading a valid CSV profile without the schema', () => {
  it.each(['generic', 'nordic', 'pain001py'])(
    'reads the shipped profile %s exactly as the schema does',
    async (name) => {
      const file = join(PROFILES, `${name}.yaml`);
      const text = await readFile(file, 'utf8');
      const plain = await plainProfile(text, file);
      expect(plain).toBeDefined();
      expect(plain).toEqual(parseProfile(text, file));
      expect(Object.isFrozen(plain)).toBe(true);
    },
  );

  it.each(Object.entries(VALID))('reads a valid profile (%s) exactly as the schema does', async (_, text) => {
    const plain = await plainProfile(text, 'dir/custom.yaml');
    expect(plain).toBeDefined();
    expect(plain).toEqual(parseProfile(text, 'dir/custom.yaml'));
  });

  it.each(Object.entries(INVALID))('leaves a profile the schema refuses (%s) to the schema', async (_, text) => {
    expect(() => parseProfile(text, 'bad.yaml')).toThrow(/ERR_PROFILE_INVALID|invalid/);
    expect(await plainProfile(text, 'bad.yaml')).toBeUndefined();
  });
});
