// The reader resolves XML namespaces itself (src/formats/pain001/namespaces.ts) rather than
// through saxes's namespace mode: a prefixed document reads as the unprefixed one, and a document
// that breaks the Namespaces in XML rules is refused as saxes's namespace mode refuses it, with
// the same message at the same place.
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import type { ReaderItem } from '../../../src/domain/validation/reader-item.js';
import { Pain001Reader } from '../../../src/formats/pain001/read-pain001.js';

async function items(text: string): Promise<ReaderItem[]> {
  const out: ReaderItem[] = [];
  for await (const batch of new Pain001Reader().read([text])) out.push(...batch);
  return out;
}

const NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09';

/** One payment block with one payment; `p` the element prefix ('' for none), `rootAttrs` the root's attributes. */
function doc(p: string, rootAttrs: string, inside = ''): string {
  const e = (name: string, body: string, attrs = ''): string => `<${p}${name}${attrs}>${body}</${p}${name}>`;
  const tx = e(
    'CdtTrfTxInf',
    e('PmtId', e('EndToEndId', 'E2E-1')) +
      e('Amt', e('InstdAmt', '10.00', ' Ccy="NOK"')) +
      e('Cdtr', e('Nm', 'Kreditor AS')) +
      e('CdtrAcct', e('Id', e('IBAN', 'NO5812000079195'))) +
      inside,
  );
  const block = e(
    'PmtInf',
    e('PmtInfId', 'B-1') +
      e('PmtMtd', 'TRF') +
      e('ReqdExctnDt', e('Dt', '2026-01-07')) +
      e('Dbtr', e('Nm', 'Acme AS')) +
      e('DbtrAcct', e('Id', e('IBAN', 'NO9386011117947'))) +
      tx,
  );
  return `<?xml version="1.0"?>\n${e('Document', e('CstmrCdtTrfInitn', e('GrpHdr', e('MsgId', 'M-1')) + block), rootAttrs)}`;
}

/** What saxes's own namespace mode says of a document: its first error, without the position. */
function saxesNamespaceError(text: string): string | undefined {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let first: string | undefined;
  parser.on('error', (e) => void (first ??= e.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '')));
  parser.write(text).close();
  return first;
}

function malformed(out: ReaderItem[]): { message: string; row?: number; column?: number } | undefined {
  for (const item of out)
    if (item.kind === 'issue' && item.issue.code === 'XML_MALFORMED')
      return {
        message: item.issue.message,
        ...(item.issue.location.row === undefined ? {} : { row: item.issue.location.row }),
        ...(item.issue.location.column === undefined ? {} : { column: item.issue.location.column }),
      };
  return undefined;
}

describe('pain.001 namespaces', () => {
  it('reads a prefixed document as the one in the default namespace: the same payments and locations', async () => {
    const plain = await items(doc('', ` xmlns="${NS}"`));
    const prefixed = await items(
      doc(
        'p:',
        ` xmlns:p="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${NS} x.xsd"`,
      ),
    );
    expect(plain.some((i) => i.kind === 'line')).toBe(true);
    expect(prefixed).toEqual(plain);
  });

  it('takes the version from the namespace bound to the root element’s prefix', async () => {
    const other = await items(doc('p:', ` xmlns="${NS}" xmlns:p="urn:example:other"`));
    expect(other).toMatchObject([{ kind: 'issue', issue: { code: 'XML_VERSION_UNSUPPORTED' } }]);
    const none = await items(doc('', ''));
    expect(none).toMatchObject([
      { kind: 'issue', issue: { code: 'XML_VERSION_UNSUPPORTED', message: expect.stringContaining('namespace ""') } },
    ]);
  });

  const broken: [string, string][] = [
    ['an element prefix never bound', doc('', ` xmlns="${NS}"`, '<q:Purp><q:Cd>SALA</q:Cd></q:Purp>')],
    [
      'a prefix bound on a sibling only',
      doc('', ` xmlns="${NS}"`, '<RmtInf xmlns:q="urn:x"><Ustrd>a</Ustrd></RmtInf><q:Purp/>'),
    ],
    ['an attribute prefix never bound', doc('', ` xmlns="${NS}" q:a="1"`)],
    ['a name with two colons', doc('', ` xmlns="${NS}" xmlns:q="urn:x"`, '<q:a:b/>')],
    ['a name ending in a colon', doc('', ` xmlns="${NS}"`, '<Purp: />')],
    ['the xmlns prefix on an element', doc('', ` xmlns="${NS}"`, '<xmlns:Purp/>')],
    ['a prefix undeclared in XML 1.0', doc('', ` xmlns="${NS}" xmlns:q=""`)],
    ['the xml prefix bound elsewhere', doc('', ` xmlns="${NS}" xmlns:xml="urn:x"`)],
    ['a prefix bound to the xmlns namespace', doc('', ` xmlns="${NS}" xmlns:q="http://www.w3.org/2000/xmlns/"`)],
    ['the default namespace set to the xml namespace', doc('', ` xmlns="http://www.w3.org/XML/1998/namespace"`)],
    ['two attributes of one expanded name', doc('', ` xmlns="${NS}" xmlns:a="urn:x" xmlns:b="urn:x" a:v="1" b:v="2"`)],
    ['a processing instruction target with a colon', doc('', ` xmlns="${NS}"`, '<?a:b c?>')],
    ['an entity name with a colon', doc('', ` xmlns="${NS}"`, '<Purp><Cd>&a:b;</Cd></Purp>')],
  ];

  it.each(broken)('refuses %s as saxes’s namespace mode does, with its message', async (_, text) => {
    const expected = saxesNamespaceError(text);
    expect(expected).toBeDefined();
    const issue = malformed(await items(text));
    expect(issue?.message).toBe(`not well-formed XML: ${expected}`);
  });

  it('locates such a refusal where saxes’s namespace mode does', async () => {
    const text = doc('', ` xmlns="${NS}"`, '\n  <q:Purp/>');
    const parser = new SaxesParser({ xmlns: true, position: true });
    let at: { row: number; column: number } | undefined;
    parser.on('error', () => void (at ??= { row: parser.line, column: parser.column }));
    parser.write(text).close();
    expect(malformed(await items(text))).toMatchObject(at!);
  });

  it('ends a binding with the element that declared it, restoring the one before', async () => {
    const text = doc(
      '',
      ` xmlns="${NS}" xmlns:q="urn:a"`,
      '<RmtInf xmlns:q="urn:b"><Ustrd>x</Ustrd></RmtInf><q:Purp><q:Cd>SALA</q:Cd></q:Purp>',
    );
    expect(saxesNamespaceError(text)).toBeUndefined();
    const out = await items(text);
    expect(malformed(out)).toBeUndefined();
    expect(out.find((i) => i.kind === 'line')).toMatchObject({ line: { fields: { purpose: { value: 'SALA' } } } });
  });
});
