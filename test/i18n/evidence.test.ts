// The evidence of a match in the reader's language (the reconciliation report's "Rule and
// evidence" column): every line the run can record reads back whole — the English catalogue
// writes each exactly as recorded — and bokmål writes it in words and figures of its own. A line
// the reader does not know stays as recorded rather than half translated.
import { describe, expect, it } from 'vitest';
import { weighEvidence, type EvidenceInput } from '../../src/domain/reconcile/evidence.js';
import { evidenceText } from '../../src/i18n/index.js';

const base: EvidenceInput = {
  identity: { kind: 'reference', what: 'end-to-end id' },
  alsoAgreed: ['debtor account', 'creditor account'],
  currency: 'NOK',
  amountDifferenceMinor: 0n,
  allowedMinor: 500n,
  feeMinor: 5000n,
  feeSign: 1,
  days: 0,
  window: { before: 3, after: 3 },
};

const CASES: EvidenceInput[] = [
  base,
  { ...base, identity: { kind: 'reference', what: 'creditor reference' }, alsoAgreed: [], days: -3 },
  { ...base, identity: { kind: 'account' }, alsoAgreed: ['debtor account', 'sum of 3 lines'], days: 1 },
  { ...base, identity: { kind: 'name', similarity: 0.82 }, amountDifferenceMinor: 4500n },
  { ...base, identity: { kind: 'name', similarity: 1 }, amountDifferenceMinor: -300n, feeSign: -1, days: 2 },
  { ...base, amountDifferenceMinor: 250n, feeMinor: 0n },
  { ...base, amountDifferenceMinor: 1_234_567n, days: 9 },
  { ...base, amountDifferenceMinor: undefined, days: -5 },
  {
    ...base,
    identity: { kind: 'name', similarity: 0.5 },
    alsoAgreed: [],
    amountDifferenceMinor: undefined,
    window: { before: -1, after: -1 },
  },
];

describe('the evidence of a match in the reader’s language', () => {
  it('reads back every line the run records: English writes it exactly as recorded', () => {
    for (const input of CASES) {
      const { text, score } = weighEvidence(input);
      expect(evidenceText(text, 'en'), text).toBe(text.replace(/; score (\d+)$/, ` (score ${score})`));
    }
  });

  it('writes it in bokmål, with numbers as bokmål writes them', () => {
    const said = CASES.map((input) => evidenceText(weighEvidence(input).text, 'nb')?.replace(/[\u00a0\u202f]/g, ' '));
    expect(said[0]).toBe('stemmer: ende-til-ende-ID, belastningskonto, mottakers konto, beløp, dato (100 poeng)');
    expect(said[1]).toMatch(/^stemmer: KID \/ RF-referanse, beløp; avviker: datoen, 3 dager før \(\d+ poeng\)$/);
    expect(said[2]).toMatch(
      /^stemmer: motpartens konto, belastningskonto, summen av 3 linjer, beløp; avviker: datoen, 1 dag etter/,
    );
    expect(said[3]).toContain('avviker: navn (82 % likt), beløpet med 45,00 (et bankgebyr innenfor gebyrtoleransen)');
    expect(said[5]).toContain('beløpet med 2,50 (innenfor toleransen på 5,00)');
    expect(said[6]).toContain('beløpet med 12 345,67, datoen, 9 dager etter, utenfor datovinduet');
    expect(said[7]).toContain('avviker: valuta, datoen, 5 dager før');
    expect(said[8]).toMatch(
      /^stemmer: ingenting; avviker: navn \(50 % likt\), valuta, datoen, samme dag, utenfor datovinduet/,
    );
    for (const s of said) expect(s).not.toMatch(/agreed|differed|score|day|amount/);
  });

  it('leaves a line it does not know as recorded', () => {
    expect(evidenceText('agreed: the moon, amount; score 90', 'nb')).toBeUndefined();
    expect(evidenceText('matched by hand', 'nb')).toBeUndefined();
  });
});
