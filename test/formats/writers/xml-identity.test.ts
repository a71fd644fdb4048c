// The chunk writer is byte-identical to xmlbuilder2's document API on the same document: on the
// fixtures and on fuzzed values (escaping, non-ASCII, astral characters, long texts, controls).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Issue } from '../../../src/domain/issue.js';
import type { LocalDate } from '../../../src/domain/local-date.js';
import type { PaymentStatusReport } from '../../../src/domain/payment-status.js';
import type { Statement, StatementEntry } from '../../../src/domain/statement.js';
import { CAMT053_DIALECTS, composeHead, composeTail, writeCamt053 } from '../../../src/formats/camt053/index.js';
import { composeEntry } from './camt053-reference.js';
import { composePain002, PAIN002_DIALECTS, writePain002 } from '../../../src/formats/pain002/index.js';
import type { Pain002Lines } from '../../../src/formats/pain002/write.js';
import { richStatement, SAMPLE_ENTRIES, sampleStatement } from '../../fixtures/writers/statements.js';
import { sampleStatusReport } from '../../fixtures/writers/status-reports.js';
import { composeLineInto } from './pain002-reference.js';
import { XmlBuilder2Sink } from './xmlbuilder2-sink.js';
import { distinctPairs, type StandIn } from '../../../src/formats/xml/identifier.js';

async function ours(statement: Statement, version: '001.02' | '001.08', chunkSize?: number): Promise<string> {
  let xml = '';
  for await (const chunk of writeCamt053(statement, { version, chunkSize }).chunks) xml += chunk;
  return xml;
}

async function reference(statement: Statement, version: '001.02' | '001.08'): Promise<string> {
  const sink = new XmlBuilder2Sink();
  const ctx = { dialect: CAMT053_DIALECTS[version], report: (_: Issue) => undefined, entryIndex: 0 };
  composeHead(sink, statement, ctx);
  let i = 0;
  for await (const entry of statement.entries) composeEntry(sink, entry, ++i, ctx);
  composeTail(sink);
  return sink.end();
}

const d = (s: string): LocalDate => s as LocalDate;

/** The reference composition of pain.002 lines, their stand-ins into `standIns`. */
function referenceLines(standIns: StandIn[]): Pain002Lines {
  return { standIns, composeLine: composeLineInto(standIns) };
}

// Text that stresses escaping and the text rules: XML specials, entity look-alikes, quotes,
// non-ASCII, astral characters, controls XML forbids, lone surrogates, and long strings.
const nasty = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({
    unit: fc.constantFrom(
      '&',
      '<',
      '>',
      '"',
      "'",
      '&amp;',
      '&#65;',
      '&x;',
      ']]>',
      '\u0000',
      '\u0001',
      '\t',
      '\r',
      '\n',
      '\ufffe',
      '\ud800',
      'é',
      '€',
      '😀',
      ' ',
      'a',
    ),
    maxLength: 300,
  }),
);

// Every branch of the entry renderer: both signs and zero, currencies with 0, 2 and 3 decimals,
// reversal, ISO, proprietary and missing bank codes, IBAN and non-IBAN accounts, good and bad BICs.
const entry: fc.Arbitrary<StatementEntry> = fc.record({
  amount: fc.record({
    minor: fc.oneof(fc.constant(0n), fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n })),
    currency: fc.constantFrom('EUR', 'JPY', 'BHD', 'NOK'),
  }),
  // A few dates, so that entries in a row share theirs or not (the renderer reuses a repeated date's text).
  bookingDate: fc.constantFrom(d('2026-01-05'), d('2026-01-06'), d('2026-01-07')),
  valueDate: fc.option(fc.constantFrom(d('2026-01-06'), d('2026-01-07')), { nil: undefined }),
  reversal: fc.option(fc.boolean(), { nil: undefined }),
  bankTransactionCode: fc.option(
    fc.oneof(
      fc.record({
        domain: fc.constant('PMNT'),
        family: fc.constantFrom('RCDT', 'ICDT'),
        subFamily: fc.constantFrom('ESCT', 'A&B'),
      }),
      fc.record({ proprietary: nasty, issuer: fc.option(nasty, { nil: undefined }) }),
    ),
    { nil: undefined },
  ),
  accountServicerRef: fc.option(nasty, { nil: undefined }),
  endToEndId: fc.option(nasty, { nil: undefined }),
  counterparty: fc.option(
    fc.record({
      name: fc.option(nasty, { nil: undefined }),
      iban: fc.option(fc.constantFrom('DE89370400440532013000', 'not an iban &<'), { nil: undefined }),
      bic: fc.option(fc.constantFrom('DNBANOKK', 'bad&bic'), { nil: undefined }),
    }),
    { nil: undefined },
  ),
  remittance: fc.option(
    fc.record({
      unstructured: fc.option(nasty, { nil: undefined }),
      creditorReference: fc.option(nasty, { nil: undefined }),
      // An RF reference names ISO as its issuer: the Tp of both kinds.
      creditorReferenceKind: fc.option(fc.constantFrom('RF' as const, 'KID' as const), { nil: undefined }),
    }),
    { nil: undefined },
  ),
  additionalInfo: fc.option(nasty, { nil: undefined }),
  entryReference: fc.option(nasty, { nil: undefined }),
  batch: fc.option(
    fc.record({
      messageId: fc.option(nasty, { nil: undefined }),
      paymentInformationId: fc.option(nasty, { nil: undefined }),
      count: fc.nat({ max: 1000 }),
      total: fc.record({ minor: fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), currency: fc.constant('EUR') }),
    }),
    { nil: undefined },
  ),
  transactions: fc.option(
    fc.array(
      fc.record({
        refs: fc.option(
          fc.record({
            messageId: fc.option(nasty, { nil: undefined }),
            paymentInformationId: fc.option(nasty, { nil: undefined }),
            instructionId: fc.option(nasty, { nil: undefined }),
            endToEndId: fc.option(nasty, { nil: undefined }),
            transactionId: fc.option(nasty, { nil: undefined }),
          }),
          { nil: undefined },
        ),
        amount: fc.option(
          fc.record({ minor: fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }), currency: fc.constant('NOK') }),
          {
            nil: undefined,
          },
        ),
        instructedAmount: fc.option(
          fc.record({ minor: fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }), currency: fc.constant('SEK') }),
          {
            nil: undefined,
          },
        ),
        counterparty: fc.option(fc.record({ name: fc.option(nasty, { nil: undefined }) }), { nil: undefined }),
        returnReason: fc.option(
          fc.record({
            code: fc.option(nasty, { nil: undefined }),
            additionalInfo: fc.option(nasty, { nil: undefined }),
          }),
          { nil: undefined },
        ),
      }),
      { maxLength: 3 },
    ),
    { nil: undefined },
  ),
});

describe('XML chunk writer vs xmlbuilder2', () => {
  for (const version of ['001.02', '001.08'] as const) {
    it(`writes the fixture statement byte-identically to xmlbuilder2 (camt.053.${version})`, async () => {
      const a = await ours(sampleStatement(), version);
      const b = await reference(sampleStatement(), version);
      expect(a.length).toBeGreaterThan(1000);
      expect(a).toBe(b);
    });

    it(`writes batch, return, references and summary byte-identically to xmlbuilder2 (camt.053.${version})`, async () => {
      const a = await ours(richStatement(), version);
      expect(a).toContain('<Btch>');
      expect(a).toContain('<RtrInf>');
      expect(a).toContain('<TxsSummry>');
      expect(a).toBe(await reference(richStatement(), version));
    });

    it(`writes fuzzed statements byte-identically to xmlbuilder2 (camt.053.${version})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(entry, { maxLength: 6 }), nasty, async (entries, name) => {
          const statement = (): Statement => ({
            ...sampleStatement(),
            account: { ...sampleStatement().account, name, ownerName: name },
            entries,
          });
          // A tiny chunk size also exercises the chunk boundaries.
          expect(await ours(statement(), version, 16)).toBe(await reference(statement(), version));
        }),
        { numRuns: 300 },
      );
    });
  }

  for (const version of ['001.03', '001.10'] as const) {
    it(`writes the fixture status report byte-identically to xmlbuilder2 (pain.002.${version})`, () => {
      const sink = new XmlBuilder2Sink();
      composePain002(sink, sampleStatusReport(), PAIN002_DIALECTS[version], () => undefined, referenceLines([]));
      expect(writePain002(sampleStatusReport(), { version }).xml).toBe(sink.end());
    });
  }

  it('writes fuzzed status reports byte-identically to xmlbuilder2', () => {
    fc.assert(
      fc.property(nasty, nasty, fc.array(nasty, { maxLength: 3 }), (endToEndId, reasonText, reasonCodes) => {
        const base = sampleStatusReport();
        const report: PaymentStatusReport = {
          ...base,
          groups: [
            {
              originalPaymentInformationId: endToEndId || 'P',
              lines: [
                {
                  lineNumber: 1,
                  endToEndId,
                  status: 'RJCT',
                  reasonCodes,
                  reasonText,
                  time: new Date('2026-01-05T10:00:00Z'),
                },
              ],
            },
          ],
        };
        const sink = new XmlBuilder2Sink();
        composePain002(sink, report, PAIN002_DIALECTS['001.10'], () => undefined, referenceLines([]));
        expect(writePain002(report, { version: '001.10' }).xml).toBe(sink.end());
      }),
      { numRuns: 200 },
    );
  });

  // Reports of several groups and lines, every field drawn: ids plain, escaped, non-ASCII or too
  // long (stand-ins), statuses the .03 schema lacks (mapped), reasons, amounts in a few currencies.
  const statusLine = fc.record({
    endToEndId: fc.oneof(fc.constantFrom('E2E-1', 'E2E <&> 2', ' E2E-3 ', 'x'.repeat(40), 'Æ-4'), nasty),
    originalInstructionId: fc.option(fc.oneof(fc.constantFrom('INSTR-1', 'I&2', 'y'.repeat(36)), nasty), {
      nil: undefined,
    }),
    bankPaymentId: fc.option(fc.constantFrom('BP-1', 'BP>2', 'BP-3 ', 'z'.repeat(50)), { nil: undefined }),
    status: fc.constantFrom('ACSC', 'ACCP', 'RJCT', 'PDNG', 'RCVD', 'CANC', 'ACTC', 'ACSP', 'ACWC'),
    reasonCodes: fc.option(
      fc.array(fc.oneof(fc.constantFrom('AC04', 'AM05', ' NARR ', 'bad code', ''), nasty), {
        maxLength: 3,
      }),
      { nil: undefined },
    ),
    reasonText: fc.option(fc.oneof(fc.constantFrom('Account closed & moved', 'word '.repeat(40)), nasty), {
      nil: undefined,
    }),
    amount: fc.option(
      fc.record({
        minor: fc.bigInt({ min: -5n, max: 10n ** 12n }),
        currency: fc.constantFrom('NOK', 'EUR', 'JPY', 'KWD', 'X"&'),
      }),
      { nil: undefined },
    ),
    time: fc.integer({ min: 0, max: 4_000_000_000_000 }).map((ms) => new Date(ms)),
  });
  for (const version of ['001.03', '001.10'] as const) {
    it(`writes fuzzed reports of many lines byte-identically to the reference composition (pain.002.${version})`, () => {
      fc.assert(
        fc.property(
          fc.array(fc.array(statusLine, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
          (groups) => {
            const report: PaymentStatusReport = {
              ...sampleStatusReport(),
              groups: groups.map((lines, g) => ({
                originalPaymentInformationId: `PMT-${g}`,
                lines: lines.map((line, l) => ({ ...line, lineNumber: l + 1 })),
              })),
            };
            const sink = new XmlBuilder2Sink();
            const referenceIssues: Issue[] = [];
            const referenceStandIns: StandIn[] = [];
            composePain002(
              sink,
              report,
              PAIN002_DIALECTS[version],
              (i) => void referenceIssues.push(i),
              referenceLines(referenceStandIns),
            );
            const written = writePain002(report, { version });
            expect(written.xml).toBe(sink.end());
            expect(written.issues).toEqual(referenceIssues);
            expect(written.shortIdentifiers).toEqual(distinctPairs(referenceStandIns));
          },
        ),
        { numRuns: 150 },
      );
    });
  }

  it('keeps the fixture entries unchanged between runs (the fixtures are not consumed)', () => {
    expect(SAMPLE_ENTRIES).toHaveLength(4);
  });
});
