import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PaymentLineStatus, PaymentStatusReport } from '../../../src/domain/payment-status.js';
import { writePain002, type Pain002Version } from '../../../src/formats/pain002/index.js';
import { splitAtWords } from '../../../src/formats/pain002/write.js';
import { itWith, xmllintValidate } from '../../support/oracles.js';
import { sampleStatusReport } from '../../fixtures/writers/status-reports.js';

const withXmllint = itWith('xmllint');
const VERSIONS: readonly Pain002Version[] = ['001.03', '001.10'];

function oneGroup(statuses: PaymentLineStatus[]): PaymentStatusReport {
  const time = new Date('2026-01-05T10:00:00Z');
  return {
    ...sampleStatusReport(),
    groups: [
      {
        originalPaymentInformationId: 'P1',
        lines: statuses.map((status, i) => ({ lineNumber: i + 1, endToEndId: `E${i}`, status, time })),
      },
    ],
  };
}

describe('pain.002 writer', () => {
  for (const version of VERSIONS) {
    withXmllint(`writes pain.002.${version} that the official XSD accepts`, async () => {
      const { xml } = writePain002(sampleStatusReport(), { version });
      expect(xml.split('\n')[1]).toBe(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.${version}">`);
      const result = await xmllintValidate(xml, `pain.002.${version}`);
      expect(result.output).toContain('validates');
    });

    withXmllint(
      `stays valid against the pain.002.${version} XSD for any statuses, reasons and texts`,
      async () => {
        const status = fc.constantFrom<PaymentLineStatus>(
          'RCVD',
          'PDNG',
          'ACTC',
          'ACCP',
          'ACSP',
          'ACSC',
          'ACWC',
          'RJCT',
          'CANC',
        );
        const text = fc.string({ unit: 'binary', maxLength: 700 });
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.record({
                status,
                text,
                codes: fc.array(fc.oneof(fc.constantFrom('AC01', 'AM04'), text), { maxLength: 3 }),
              }),
              { minLength: 1, maxLength: 4 },
            ),
            async (lines) => {
              const report: PaymentStatusReport = {
                ...sampleStatusReport(),
                originalMessageId: lines[0]!.text,
                groups: [
                  {
                    originalPaymentInformationId: lines[0]!.text,
                    lines: lines.map((l, i) => ({
                      lineNumber: i + 1,
                      endToEndId: l.text,
                      status: l.status,
                      reasonCodes: l.codes,
                      reasonText: l.text,
                      bankPaymentId: l.text,
                      time: new Date('2026-01-05T10:00:00Z'),
                      amount: { minor: 100n, currency: 'EUR' },
                    })),
                  },
                ],
              };
              const result = await xmllintValidate(writePain002(report, { version }).xml, `pain.002.${version}`);
              expect(result.output).toContain('validates');
            },
          ),
          { numRuns: 15 },
        );
      },
      120_000,
    );
  }

  it('derives the group and payment-information status from the lines: PART when some are refused', () => {
    const { xml } = writePain002(sampleStatusReport(), { version: '001.10' });
    const [group, first, second] = xml.split(/<OrgnlPmtInfAndSts>/);
    expect(group).toContain('<GrpSts>PART</GrpSts>');
    expect(first).toContain('<PmtInfSts>ACSC</PmtInfSts>');
    expect(second).toContain('<PmtInfSts>PART</PmtInfSts>');
    expect(writePain002(oneGroup(['ACSC', 'ACSC'])).xml).toMatch(
      /<OrgnlMsgNmId>pain.001.001.03<\/OrgnlMsgNmId>[\s\S]*<GrpSts>ACSC<\/GrpSts>/,
    );
    expect(writePain002(oneGroup(['ACSC', 'ACSP'])).xml).toContain('<GrpSts>ACSP</GrpSts>');
    expect(writePain002(oneGroup(['RJCT', 'RJCT'])).xml).toContain('<PmtInfSts>RJCT</PmtInfSts>');
    expect(writePain002(oneGroup(['RJCT', 'CANC']), { version: '001.10' }).xml).toContain('<GrpSts>RJCT</GrpSts>');
  });

  it('names the company the payments were made for as InitgPty, with its organisation number', () => {
    const report = { ...sampleStatusReport(), initiatingParty: { name: 'Acme AS', organisationNumber: '999999999' } };
    for (const version of ['001.03', '001.10'] as const)
      expect(writePain002(report, { version }).xml).toMatch(
        /<CreDtTm>[^<]*<\/CreDtTm>\s*<InitgPty>\s*<Nm>Acme AS<\/Nm>\s*<Id>\s*<OrgId>\s*<Othr>\s*<Id>999999999<\/Id>/,
      );
  });

  it('writes one TxInfAndSts per line with end-to-end id, status, acceptance time, bank id and amount', () => {
    const { xml } = writePain002(sampleStatusReport());
    expect(xml.match(/<TxInfAndSts>/g)).toHaveLength(5);
    expect(xml).toMatch(
      /<OrgnlEndToEndId>E2E-0001<\/OrgnlEndToEndId>\s*<TxSts>ACSC<\/TxSts>\s*<AccptncDtTm>2026-01-05T10:15:00Z<\/AccptncDtTm>\s*<AcctSvcrRef>pay-9f1c<\/AcctSvcrRef>\s*<OrgnlTxRef>\s*<Amt>\s*<InstdAmt Ccy="EUR">1250.00<\/InstdAmt>/,
    );
  });

  it('writes ISO reason codes as Cd, other codes as Prtry, and the reason text as AddtlInf', () => {
    const { xml } = writePain002(sampleStatusReport());
    expect(xml).toMatch(
      /<TxSts>RJCT<\/TxSts>\s*<StsRsnInf>\s*<Rsn>\s*<Cd>AC01<\/Cd>\s*<\/Rsn>\s*<AddtlInf>Creditor account number invalid: IBAN check digits fail<\/AddtlInf>\s*<\/StsRsnInf>\s*<StsRsnInf>\s*<Rsn>\s*<Prtry>BANK-SPECIFIC-42<\/Prtry>/,
    );
    expect(xml).not.toMatch(/<TxSts>RJCT<\/TxSts>[\s\S]{0,400}<AccptncDtTm>/);
  });

  it('splits a long reason text over several AddtlInf of at most 105 characters, at word boundaries', () => {
    const report = oneGroup(['RJCT']);
    const long = 'word '.repeat(60).trim();
    report.groups[0]!.lines[0]!.reasonText = long;
    const { xml, issues } = writePain002({
      ...report,
      groups: [{ ...report.groups[0]!, lines: [{ ...report.groups[0]!.lines[0]!, reasonText: long }] }],
    });
    const parts = [...xml.matchAll(/<AddtlInf>([^<]*)<\/AddtlInf>/g)].map((m) => m[1]!);
    expect(parts.length).toBe(3);
    expect(parts.every((p) => p.length <= 105)).toBe(true);
    expect(parts.join('').replace(/\s/g, '')).toBe(long.replace(/\s/g, ''));
    expect(parts.every((p) => /^(word ?)+$/.test(p) && !p.endsWith(' '))).toBe(true);
    expect(parts.join(' ')).toBe(long);
    expect(issues).toEqual([]);
  });

  it('cuts only a word longer than 105 characters', () => {
    const word = 'x'.repeat(130);
    expect(splitAtWords(`Konto ${word} ok`, 105)).toEqual(['Konto', 'x'.repeat(105), `${'x'.repeat(25)} ok`]);
    expect(splitAtWords('  ', 105)).toEqual([]);
  });

  it('splits a text of single spaces as it splits the same text with a space before it', () => {
    // A leading space takes the way that splits at every run of white space and counts code
    // points; a text of words with one space between them and within the limit is taken as it is.
    const word = fc.array(fc.constantFrom('a', 'é', '&', '\u{1F600}'), { minLength: 1, maxLength: 4 });
    const space = fc.constantFrom(' ', ' ', ' ', ' ', '  ', '\t', '\u00a0', '\u2003');
    const edge = fc.constantFrom('', '', '', ' ', '\u00a0');
    const text = fc
      .tuple(edge, word, fc.array(fc.tuple(space, word), { maxLength: 5 }), edge)
      .map(([before, first, rest, after]) =>
        [before, first.join(''), ...rest.map(([gap, letters]) => gap + letters.join('')), after].join(''),
      );
    fc.assert(
      // The limit near the text's length, where one part turns into two.
      fc.property(text, fc.integer({ min: -2, max: 0 }), (value, shift) => {
        const max = Math.max(1, value.length + shift);
        expect(splitAtWords(value, max)).toEqual(splitAtWords(` ${value}`, max));
      }),
      { numRuns: 300 },
    );
    expect(splitAtWords('Account closed & moved', 22)).toEqual(['Account closed & moved']);
    expect(splitAtWords('\u{1F600}'.repeat(3), 3)).toEqual(['\u{1F600}'.repeat(3)]);
  });

  it('maps RCVD and CANC, which pain.002.001.03 lacks, and reports it; .10 keeps them', () => {
    const v3 = writePain002(oneGroup(['RCVD', 'CANC']), { version: '001.03' });
    expect(v3.xml).toContain('<TxSts>PDNG</TxSts>');
    expect(v3.xml).toContain('<TxSts>RJCT</TxSts>');
    expect(v3.issues.map((i) => [i.code, i.location.path])).toEqual([
      ['STATUS_MAPPED', '/Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[1]/TxSts'],
      ['STATUS_MAPPED', '/Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[1]/TxInfAndSts[2]/TxSts'],
    ]);
    const v10 = writePain002(oneGroup(['RCVD', 'CANC']), { version: '001.10' });
    expect(v10.xml).toContain('<TxSts>RCVD</TxSts>');
    expect(v10.xml).toContain('<TxSts>CANC</TxSts>');
    expect(v10.issues).toEqual([]);
  });

  withXmllint(
    'never cuts an id: a longer one is its stand-in, spelled out in AddtlInf and returned to be stored',
    async () => {
      const bankId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
      const report = oneGroup(['RJCT']);
      const line = {
        ...report.groups[0]!.lines[0]!,
        bankPaymentId: bankId,
        reasonCodes: ['AC04'],
        reasonText: 'Closed',
      };
      for (const version of VERSIONS) {
        const { xml, shortIdentifiers } = writePain002(
          { ...report, groups: [{ ...report.groups[0]!, lines: [line] }] },
          {
            version,
          },
        );
        expect(xml).not.toContain(bankId.slice(0, 35) + '<');
        const short = /<AcctSvcrRef>([^<]+)<\/AcctSvcrRef>/.exec(xml)![1]!;
        expect(short).toMatch(/^STL-[0-9A-F]{20}$/);
        expect(shortIdentifiers).toEqual([{ short, full: bankId }]);
        expect([...xml.matchAll(/<AddtlInf>([^<]*)<\/AddtlInf>/g)].map((m) => m[1])).toEqual([
          `AcctSvcrRef ${short} = ${bankId}`,
          'Closed',
        ]);
        expect((await xmllintValidate(xml, `pain.002.${version}`)).valid).toBe(true);
      }
    },
  );

  it('writes NOTPROVIDED for an empty mandatory id and reports it as an error', () => {
    const { xml, issues } = writePain002({ ...sampleStatusReport(), originalMessageId: '  ' }, { version: '001.10' });
    expect(xml).toContain('<OrgnlMsgId>NOTPROVIDED</OrgnlMsgId>');
    expect(issues).toEqual([
      expect.objectContaining({ code: 'REQUIRED_TEXT_MISSING', severity: 'error', field: 'originalMessageId' }),
    ]);
  });
});
