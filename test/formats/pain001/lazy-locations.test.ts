// The reader's shortcuts hold to what they stand for: a field's location, built only when asked
// from its payment's path and key, is the XPath (with positions) of the element its value came
// from, whatever the order, repeats and indentation of the elements; a child's policy node
// guessed from its sibling is the one the map holds; the indentation compared whole is XML white
// space exactly; and a payment's fields by position are PAYMENT_FIELDS by name.
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { PAYMENT_FIELDS, type RawField } from '../../../src/domain/validation/raw-line.js';
import type { ReaderItem } from '../../../src/domain/validation/reader-item.js';
import { isXmlWhitespace } from '../../../src/formats/pain001/frame.js';
import { fieldSlots, paymentFields } from '../../../src/formats/pain001/pain-field.js';
import { Pain001Reader } from '../../../src/formats/pain001/read-pain001.js';

const NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';
const REPEATED = new Set(['PmtInf', 'CdtTrfTxInf', 'Ustrd', 'Strd']);

/**
 * Every element's XPath with positions and its text, read apart from the reader. A position
 * counts a run of same-name siblings (frame.ts: pain.001 repeats an element only in a run), so
 * two elements apart can share a path: each path has the texts found at it.
 */
function xpaths(doc: string): Map<string, string[]> {
  const parser = new SaxesParser({ position: false });
  const open: { step: string; last: string; count: number; text: string }[] = [];
  const found = new Map<string, string[]>();
  const note = (path: string, text: string): void => void found.set(path, [...(found.get(path) ?? []), text]);
  parser.on('opentag', (tag) => {
    const parent = open[open.length - 1];
    const local = tag.name.replace(/^.*:/, '');
    const n = parent?.last === local ? parent.count + 1 : 1;
    if (parent) Object.assign(parent, { last: local, count: n });
    open.push({ step: n > 1 || REPEATED.has(local) ? `${local}[${n}]` : local, last: '', count: 0, text: '' });
    for (const [name, value] of Object.entries(tag.attributes)) note(`${pathNow()}/@${name}`, String(value));
  });
  const pathNow = (): string => open.map((o) => `/${o.step}`).join('');
  parser.on('text', (t) => {
    if (open.length > 0) open[open.length - 1]!.text += t;
  });
  parser.on('closetag', () => {
    note(pathNow(), open[open.length - 1]!.text);
    open.pop();
  });
  parser.write(doc).close();
  return found;
}

const space = fc.constantFrom('', '\n', '\n    ', '\n\t\t', '\r\n  ', ' ');
/** The parts of a payment, any order, any repeats: the reader takes the first of a kind (the IBAN over Othr/Id). */
const part = fc.constantFrom(
  '<PmtId><InstrId>I-1</InstrId><EndToEndId>E-1</EndToEndId></PmtId>',
  '<PmtId><EndToEndId>E-2</EndToEndId></PmtId>',
  '<Amt><InstdAmt Ccy="NOK">10.50</InstdAmt></Amt>',
  '<Cdtr><Nm>Creditor AS</Nm><Id><OrgId><Othr><Id>999888777</Id></Othr><Othr><Id>K-1</Id></Othr></OrgId></Id></Cdtr>',
  '<CdtrAcct><Id><Othr><Id>NO0612000000009</Id></Othr><IBAN>NO5812000079195</IBAN></Id></CdtrAcct>',
  '<CdtrAcct><Id><IBAN>NO8812000158389</IBAN></Id></CdtrAcct>',
  '<CdtrAgt><FinInstnId><BICFI>DNBANOKK</BICFI></FinInstnId></CdtrAgt>',
  '<RmtInf><Ustrd>Faktura 1</Ustrd><Ustrd>Faktura 2</Ustrd></RmtInf>',
  '<RmtInf><Strd><CdtrRefInf><Ref>2345678901242</Ref></CdtrRefInf></Strd></RmtInf>',
  '<RmtInf><Strd><CdtrRefInf><Tp><CdOrPrtry><Cd>SCOR</Cd></CdOrPrtry></Tp><Ref>2345678901242</Ref></CdtrRefInf></Strd></RmtInf>',
  '<UltmtCdtr><Nm>Ultimate AS</Nm></UltmtCdtr>',
  '<Purp><Cd>SUPP</Cd></Purp>',
  '<Unknwn>x</Unknwn>',
);
const payment = fc.tuple(fc.array(fc.tuple(space, part), { maxLength: 9 }), space);
const block = fc.tuple(fc.boolean(), fc.array(payment, { minLength: 1, maxLength: 3 }));
const document = fc.array(block, { minLength: 1, maxLength: 3 }).map((blocks) => {
  const pmtInf = blocks.map(([header, txs]) => {
    const head = header
      ? '<ReqdExctnDt><Dt>2026-01-07</Dt></ReqdExctnDt><Dbtr><Nm>ACME AS</Nm></Dbtr><DbtrAcct><Id><IBAN>NO9386011117947</IBAN></Id></DbtrAcct>'
      : '';
    const tx = txs.map(([parts, end]) => `<CdtTrfTxInf>${parts.map(([s, p]) => s + p).join('')}${end}</CdtTrfTxInf>`);
    return `<PmtInf>${head}${tx.join('\n')}</PmtInf>`;
  });
  return `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr/>${pmtInf.join('')}</CstmrCdtTrfInitn></Document>`;
});

async function read(doc: string): Promise<ReaderItem[]> {
  const out: ReaderItem[] = [];
  for await (const batch of new Pain001Reader().read([doc])) out.push(...batch);
  return out;
}

describe('the pain.001 reader locates a value where it was found', () => {
  it('each field at the XPath of the element (or attribute) holding its text, each issue at an element of the file', async () => {
    await fc.assert(
      fc.asyncProperty(document, async (doc) => {
        const paths = xpaths(doc);
        for (const item of await read(doc)) {
          if (item.kind === 'issue') expect(paths.has(item.issue.location.path ?? '')).toBe(true);
          if (item.kind !== 'line') continue;
          expect(paths.has(item.line.location.path ?? '')).toBe(true);
          for (const name of PAYMENT_FIELDS) {
            const field = item.line.fields[name];
            if (field === undefined) continue;
            const at = field.location.path ?? '';
            // A stand-in for a block field the block lacks is located where the block should hold it.
            if (field.value === '' && !paths.has(at)) continue;
            const texts = paths.get(at) ?? [];
            // Several Ustrd form one text: the first is where it starts.
            const found =
              name === 'remittanceInformation'
                ? texts.some((t) => field.value.startsWith(t))
                : texts.includes(field.value);
            expect([name, at, found]).toEqual([name, at, true]);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reads a document the same after documents whose elements came in other orders (the guessed node is checked)', async () => {
    const doc = (parts: readonly string[]): string =>
      `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr/><PmtInf><CdtTrfTxInf>${parts.join('')}</CdtTrfTxInf></PmtInf></CstmrCdtTrfInitn></Document>`;
    const parts = [
      '<PmtId><EndToEndId>E-1</EndToEndId></PmtId>',
      '<Amt><InstdAmt Ccy="NOK">1</InstdAmt></Amt>',
      '<Cdtr><Nm>C</Nm></Cdtr>',
      '<CdtrAcct><Id><IBAN>NO8812000158389</IBAN></Id></CdtrAcct>',
      '<RmtInf><Ustrd>U</Ustrd></RmtInf>',
    ];
    const seen = (items: ReaderItem[]): unknown =>
      items.map((i) => (i.kind === 'line' ? Object.entries(i.line.fields).map(([k, f]) => [k, located(f)]) : i));
    const first = seen(await read(doc(parts)));
    await read(doc([...parts].reverse()));
    await read(doc([parts[2]!, '<Unknwn/>', parts[0]!, parts[4]!]));
    expect(seen(await read(doc(parts)))).toEqual(first);
  });
});

describe('the reader shortcuts', () => {
  it('takes as XML white space exactly space, tab, CR and LF, whole indentation or not', () => {
    const unit = fc.constantFrom(' ', '\n', '\t', '\r', '\u00a0', 'a', '\u2003');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (t) => {
        expect(isXmlWhitespace(t)).toBe(/^[ \t\r\n]*$/.test(t));
      }),
      { numRuns: 2000 },
    );
    for (let n = 0; n <= 70; n++) expect(isXmlWhitespace(`\n${' '.repeat(n)}`)).toBe(true);
    expect(isXmlWhitespace(`\n${' '.repeat(10)}\u00a0`)).toBe(false);
  });

  it('gives each field by position its PAYMENT_FIELDS name, and inherits the six block fields', () => {
    const inherited = new Set(['debtorIban', 'debtorName', 'requestedExecutionDate']);
    const alsoInherited = new Set(['instructionPriority', 'categoryPurpose', 'ultimateDebtor']);
    expect(fieldSlots()).toEqual(PAYMENT_FIELDS.map(() => undefined));
    PAYMENT_FIELDS.forEach((name, slot) => {
      const field: RawField = { value: name, location: {} };
      const own = PAYMENT_FIELDS.map((_, i) => (i === slot ? field : undefined));
      const none = PAYMENT_FIELDS.map(() => undefined);
      const stand: RawField = { value: '', location: {} };
      const expected = Object.fromEntries(
        PAYMENT_FIELDS.map((n) => [n, n === name ? field : inherited.has(n) ? stand : undefined]),
      );
      expect(paymentFields(own, none, () => stand)).toEqual(expected);
      expect(Object.keys(paymentFields(own, none, () => stand))).toEqual([...PAYMENT_FIELDS]);
      const fromBlock = paymentFields(none, own, () => stand)[name];
      expect(fromBlock).toBe(inherited.has(name) || alsoInherited.has(name) ? field : undefined);
    });
  });
});

function located(field: RawField | undefined): RawField | undefined {
  return field && { value: field.value, location: field.location };
}
