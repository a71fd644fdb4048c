// The encoding set: the same payments must come out of UTF-8 (with or without BOM), UTF-16
// (LE/BE with BOM), Windows-1252 and ISO-8859-1 files, and a wrong encoding must be reported.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseProfile } from '../../../src/formats/csv-profile/parse-profile.js';
import { validateFile } from '../../../src/formats/intake/validate-file.js';
import { check, FIXTURES, PROFILES, validation } from './helpers.js';
import type { PaymentInstruction } from '../../../src/domain/payment.js';

const names = (ps: PaymentInstruction[]): string[] =>
  ps.map((p) => `${p.endToEndId} ${p.amount.minor} ${p.creditorName} | ${p.remittanceInformation ?? ''}`);

describe('encodings', () => {
  it.each(['generic-utf8.csv', 'generic-utf8-bom.csv', 'generic-utf16le-bom.csv', 'generic-utf16be-bom.csv'])(
    '%s yields the same two payments with their accents transliterated',
    async (file) => {
      const r = await check(`encodings/${file}`);
      expect(r.valid).toBe(true);
      expect(names(r.paymentsSeen)).toEqual([
        'E2E-0001 125050 Muller Backerei GmbH | Faktura 12 Tromso',
        'E2E-0002 9900 Blabaer Orsta AS | Betaling',
      ]);
      expect(r.issues.every((i) => i.code === 'CHARSET_TRANSLITERATED')).toBe(true);
    },
  );

  it('the nordic profile reads Windows-1252 with ";", decimal comma, thousands space and DD.MM.YYYY, keeping æøå', async () => {
    const r = await check('encodings/nordic-windows-1252.csv', 'nordic');
    expect(r.valid).toBe(true);
    expect(r.format).toBe('csv:nordic');
    expect(names(r.paymentsSeen)).toEqual([
      'E2E-0001 125050 Muller Backerei GmbH | Faktura 12, Tromsø',
      'E2E-0002 9900 Blåbær Ørsta AS | Betaling EUR 99',
    ]);
    expect(r.paymentsSeen[0]!.requestedExecutionDate).toBe('2026-01-07');
    expect(r.paymentsSeen[1]!.instructionPriority).toBeUndefined();
  });

  it('a UTF-8 BOM wins over the profile encoding', async () => {
    const r = await check('encodings/nordic-utf8-bom.csv', 'nordic');
    expect(names(r.paymentsSeen)).toEqual(
      names((await check('encodings/nordic-windows-1252.csv', 'nordic')).paymentsSeen),
    );
  });

  it('an ISO-8859-1 profile reads Latin-1 bytes', async () => {
    const text = (await readFile(`${PROFILES}nordic.yaml`, 'utf8')).replace(
      'encoding: windows-1252',
      'encoding: iso-8859-1',
    );
    const profile = parseProfile(text, 'nordic-latin1.yaml');
    const r = await validateFile(`${FIXTURES}encodings/nordic-iso-8859-1.csv`, { profile, validation: validation() });
    expect(r.valid).toBe(true);
    expect(r.validPayments).toBe(2);
  });

  it('Latin-1 bytes read as UTF-8 are ENCODING_INVALID errors at the field, and no payment is accepted', async () => {
    const r = await check('encodings/generic-latin1-read-as-utf8.csv');
    expect(r.valid).toBe(false);
    expect(
      r.issues.filter((i) => i.code === 'ENCODING_INVALID').map((i) => [i.location.row, i.location.column]),
    ).toEqual([
      [2, 8],
      [2, 10],
      [3, 8],
    ]);
    expect(r.paymentsSeen).toHaveLength(0);
  });

  it.each(['pain001-utf16le-bom.xml', 'pain001-iso-8859-1.xml'])(
    'pain.001 in %s reads like the UTF-8 original',
    async (file) => {
      const r = await check(`encodings/${file}`);
      const original = await check('valid/pain001-v03.xml');
      expect(r.valid).toBe(true);
      expect(r.paymentsSeen).toEqual(original.paymentsSeen);
    },
  );
});
