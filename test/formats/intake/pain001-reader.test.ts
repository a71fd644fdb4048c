// The pain.001 reader: field mapping for .03 and .09, XPath locations, and its defences
// (DTD refused even across chunk borders, depth, text and size limits).
import { describe, expect, it } from 'vitest';
import { Pain001Reader } from '../../../src/formats/pain001/read-pain001.js';
import type { RawField } from '../../../src/domain/validation/raw-line.js';
import type { ReaderItem } from '../../../src/domain/validation/reader-item.js';
import { check } from './helpers.js';

async function items(chunks: Iterable<string>, reader = new Pain001Reader()): Promise<ReaderItem[]> {
  const out: ReaderItem[] = [];
  for await (const batch of reader.read(chunks)) out.push(...batch);
  return out;
}

const NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';

describe('pain.001 reader', () => {
  it('maps a .03 file with two PmtInf blocks, batch booking and structured remittance to payments', async () => {
    const r = await check('valid/pain001-v03.xml');
    expect(r.format).toBe('pain.001.001.03');
    expect(r.valid).toBe(true);
    expect(r.paymentsSeen).toHaveLength(3);
    expect(r.paymentsSeen[1]).toEqual({
      debtorIban: 'NO9386011117947',
      debtorName: 'Acme AS',
      requestedExecutionDate: '2026-01-07',
      endToEndId: 'E2E-X2',
      amount: { minor: 25025n, currency: 'EUR' },
      creditorIban: 'DE89370400440532013000',
      creditorName: 'Lieferant GmbH',
      creditorBic: 'DEUTDEFF',
      creditorReference: 'RF18539007547034',
      batchBooking: true,
      lineNumber: 2,
      paymentInformationId: 'PMT-1',
    });
    expect(r.paymentsSeen[2]).toMatchObject({
      requestedExecutionDate: '2026-01-08',
      batchBooking: false,
      amount: { minor: 100000n, currency: 'NOK' },
      paymentInformationId: 'PMT-2',
    });
    expect(r.totals).toEqual([
      { currency: 'EUR', minor: 35025n },
      { currency: 'NOK', minor: 100000n },
    ]);
  });

  it('maps a .09 file (ReqdExctnDt/Dt, BICFI)', async () => {
    const r = await check('valid/pain001-v09.xml');
    expect(r.format).toBe('pain.001.001.09');
    expect(
      r.paymentsSeen.map((p) => [p.endToEndId, p.requestedExecutionDate, p.creditorBic, p.remittanceInformation]),
    ).toEqual([
      ['E2E-Y1', '2026-01-07', 'DEUTDEFF', 'Invoice 4711'],
      ['E2E-Y2', '2026-01-07', 'DEUTDEFF', 'Invoice 4711'],
    ]);
  });

  it('gives every transaction each field its PmtInf declares, unless the transaction has its own', async () => {
    const pmtInf = `<PmtTpInf><InstrPrty>HIGH</InstrPrty></PmtTpInf><ReqdExctnDt>2026-01-07</ReqdExctnDt><Dbtr><Nm>Acme AS</Nm></Dbtr><DbtrAcct><Id><IBAN>NO9386011117947</IBAN></Id></DbtrAcct>`;
    const doc = `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr/><PmtInf>${pmtInf}<CdtTrfTxInf><PmtId><EndToEndId>A</EndToEndId></PmtId></CdtTrfTxInf><CdtTrfTxInf><PmtTpInf><InstrPrty>NORM</InstrPrty></PmtTpInf></CdtTrfTxInf></PmtInf></CstmrCdtTrfInitn></Document>`;
    const lines = (await items([doc])).flatMap((i) => (i.kind === 'line' ? [i.line] : []));
    const values = lines.map((l) =>
      Object.fromEntries(Object.entries(l.fields).flatMap(([k, f]) => (f ? [[k, f.value]] : []))),
    );
    expect(values).toEqual([
      {
        instructionPriority: 'HIGH',
        requestedExecutionDate: '2026-01-07',
        debtorName: 'Acme AS',
        debtorIban: 'NO9386011117947',
        endToEndId: 'A',
      },
      {
        instructionPriority: 'NORM',
        requestedExecutionDate: '2026-01-07',
        debtorName: 'Acme AS',
        debtorIban: 'NO9386011117947',
      },
    ]);
    expect(lines[1]!.fields.debtorIban?.location.path).toBe('/Document/CstmrCdtTrfInitn/PmtInf[1]/DbtrAcct/Id/IBAN');
  });

  it("keeps the creditor's first Cdtr/Id/OrgId/Othr/Id, whatever its scheme, and no other party's id", async () => {
    const org = (id: string, scheme: string) =>
      `<Id><OrgId><Othr><Id>${id}</Id><SchmeNm>${scheme}</SchmeNm></Othr></OrgId></Id>`;
    const cdtr = `<Cdtr><Nm>Oslo Trykkeri AS</Nm><Id><OrgId><Othr><Id>999888777</Id><SchmeNm><Prtry>ORGNR</Prtry></SchmeNm></Othr><Othr><Id>K-1001</Id></Othr></OrgId></Id></Cdtr>`;
    const tx = `<CdtTrfTxInf>${cdtr}<UltmtCdtr><Nm>U</Nm>${org('111', '<Cd>BANK</Cd>')}</UltmtCdtr></CdtTrfTxInf>`;
    const doc = `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr/><PmtInf><Dbtr><Nm>Acme AS</Nm>${org('222', '<Cd>BANK</Cd>')}</Dbtr>${tx}</PmtInf></CstmrCdtTrfInitn></Document>`;
    const out = await items([doc]);
    expect(out.flatMap((i) => (i.kind === 'issue' ? [i.issue] : []))).toEqual([]);
    const [line] = out.flatMap((i) => (i.kind === 'line' ? [i.line] : []));
    // A field's location is built when asked (pain-field.ts), so value and location are compared as read.
    expect(located(line!.fields.creditorOrgId)).toEqual({
      value: '999888777',
      location: { path: '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Cdtr/Id/OrgId/Othr/Id' },
    });
    expect(line!.fields.creditorOrgScheme?.value).toBe('ORGNR');
    expect(line!.fields.creditorId).toBeUndefined();
  });

  it('refuses a PmtInfId longer than 35 characters (pain.002 could not quote it back), located', async () => {
    const doc = `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr/><PmtInf><PmtInfId>${'P'.repeat(36)}</PmtInfId><CdtTrfTxInf/></PmtInf></CstmrCdtTrfInitn></Document>`;
    const out = await items([doc]);
    const issues = out.flatMap((i) => (i.kind === 'issue' ? [i.issue] : []));
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'XML_VALUE_INVALID',
        severity: 'error',
        location: { path: '/Document/CstmrCdtTrfInitn/PmtInf[1]/PmtInfId' },
      }),
    ]);
    expect(out.flatMap((i) => (i.kind === 'line' ? [i.line.paymentInformationId] : []))).toEqual([undefined]);
  });

  it('locates transaction fields by XPath with positions', async () => {
    const doc = `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr><NbOfTxs>2</NbOfTxs></GrpHdr><PmtInf><PmtInfId>A</PmtInfId></PmtInf><PmtInf><CdtTrfTxInf><Amt><InstdAmt Ccy="EUR">1</InstdAmt></Amt></CdtTrfTxInf><CdtTrfTxInf><Amt><InstdAmt Ccy="EUR">2</InstdAmt></Amt></CdtTrfTxInf></PmtInf></CstmrCdtTrfInitn></Document>`;
    const out = await items([doc]);
    const lines = out.flatMap((i) => (i.kind === 'line' ? [i.line] : []));
    expect(lines.map((l) => l.fields.amount?.location.path)).toEqual([
      '/Document/CstmrCdtTrfInitn/PmtInf[2]/CdtTrfTxInf[1]/Amt/InstdAmt',
      '/Document/CstmrCdtTrfInitn/PmtInf[2]/CdtTrfTxInf[2]/Amt/InstdAmt',
    ]);
    expect(located(lines[1]!.fields.currency)).toEqual({
      value: 'EUR',
      location: { path: '/Document/CstmrCdtTrfInitn/PmtInf[2]/CdtTrfTxInf[2]/Amt/InstdAmt/@Ccy' },
    });
    expect(
      out.filter((i) => i.kind === 'control').map((i) => (i.kind === 'control' ? i.declaration.level : '')),
    ).toEqual(['payment-info', 'payment-info', 'group']);
  });

  it('refuses a DOCTYPE split across two chunks', async () => {
    const out = await items(['<?xml version="1.0"?>\n<!DOC', 'TYPE x [<!ENTITY a "b">]><Document/>']);
    expect(out).toMatchObject([{ kind: 'issue', issue: { code: 'ERR_XML_DTD_FORBIDDEN' } }]);
  });

  it('stops at the depth limit with a located XML_LIMIT_EXCEEDED issue', async () => {
    const deep = `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr>${'<a>'.repeat(100)}${'</a>'.repeat(100)}</GrpHdr></CstmrCdtTrfInitn></Document>`;
    const out = await items([deep]);
    // <a> is no element of the group header: refused where it starts; reading stops at the depth limit.
    expect(out).toMatchObject([
      {
        kind: 'issue',
        issue: { code: 'ELEMENT_UNSUPPORTED', location: { path: '/Document/CstmrCdtTrfInitn/GrpHdr/a' } },
      },
      { kind: 'issue', issue: { code: 'XML_LIMIT_EXCEEDED', message: expect.stringContaining('deeper than 48') } },
    ]);
  });

  it('stops at the text length limit and at the document size limit', async () => {
    const long = `<Document xmlns="${NS}"><CstmrCdtTrfInitn><GrpHdr><MsgId>${'x'.repeat(20_000)}</MsgId></GrpHdr></CstmrCdtTrfInitn></Document>`;
    expect(await items([long])).toMatchObject([
      {
        kind: 'issue',
        issue: { code: 'XML_LIMIT_EXCEEDED', location: { path: '/Document/CstmrCdtTrfInitn/GrpHdr/MsgId' } },
      },
    ]);
    const reader = new Pain001Reader({ maxChars: 1000 });
    const chunks = [
      `<Document xmlns="${NS}"><CstmrCdtTrfInitn>`,
      ...Array.from({ length: 100 }, () => '<!-- padding padding -->'),
    ];
    const [stopped, ...after] = await items(chunks, reader);
    expect(after).toEqual([]);
    expect(stopped).toMatchObject({
      kind: 'issue',
      issue: {
        code: 'XML_LIMIT_EXCEEDED',
        // Located where reading stopped, naming the limit in both units and the setting.
        location: { path: '/Document/CstmrCdtTrfInitn', row: 1 },
        message:
          'the document is larger than 1,000 characters, the limit of 1000 bytes set by intake.maxFileSize (for settle validate: --max-file-size); reading stopped here: split the file, or raise the limit',
      },
    });
    expect(stopped?.kind === 'issue' && stopped.issue.location.column).toBeGreaterThan(900);
  });

  it('warns about stray text between elements (as in the Cross River sample) without failing the read', async () => {
    const r = await check('third-party/pain001/iso20022js__cross_river_pain_001_rtp_credit.xml');
    expect(r.codes).toContain('XML_UNEXPECTED_TEXT');
  });

  it('keeps a file with no root element from passing', async () => {
    expect(await items(['   '])).toMatchObject([{ kind: 'issue', issue: { code: 'XML_MALFORMED' } }]);
  });
});

/** A field as its reader of values sees it: its text and where it is (the location is a getter). */
function located(field: RawField | undefined): RawField | undefined {
  return field && { value: field.value, location: field.location };
}
