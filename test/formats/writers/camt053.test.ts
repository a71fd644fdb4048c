import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { LocalDate } from '../../../src/domain/local-date.js';
import type { Statement, StatementEntry } from '../../../src/domain/statement.js';
import { writeCamt053, type Camt053Version } from '../../../src/formats/camt053/index.js';
import { writeStatementCsv } from '../../../src/formats/statement-csv/index.js';
import { aqbankingImportCamt053, itWith, xmllintValidate } from '../../support/oracles.js';
import { richStatement, SAMPLE_ENTRIES, sampleStatement } from '../../fixtures/writers/statements.js';

const d = (s: string): LocalDate => s as LocalDate;
const VERSIONS: readonly Camt053Version[] = ['001.02', '001.08'];

async function render(statement: Statement, version: Camt053Version = '001.02', chunkSize?: number) {
  const out = writeCamt053(statement, { version, chunkSize });
  const chunks: string[] = [];
  for await (const chunk of out.chunks) chunks.push(chunk);
  return { xml: chunks.join(''), chunks, issues: out.issues, entryCount: out.entryCount };
}

async function csvOf(statement: Statement): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of writeStatementCsv(statement).chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

async function* slowly(entries: readonly StatementEntry[]): AsyncGenerator<StatementEntry> {
  for (const entry of entries) {
    await Promise.resolve();
    yield entry;
  }
}

const withXmllint = itWith('xmllint');
const withAqbanking = itWith('aqbanking-cli');

describe('camt.053 writer', () => {
  for (const version of VERSIONS) {
    withXmllint(`writes camt.053.${version} that the official XSD accepts`, async () => {
      const { xml } = await render(sampleStatement(), version);
      const result = await xmllintValidate(xml, `camt.053.${version}`);
      expect(result.output).toContain('validates');
      expect(result.valid).toBe(true);
    });

    withXmllint(
      `stays valid against the camt.053.${version} XSD whatever the texts and amounts`,
      async () => {
        const text = fc.oneof(
          fc.string({ unit: 'binary', maxLength: 600 }),
          fc.string({ unit: fc.constantFrom('&', '<', '\u0001', '\n', '😀', 'é', ' ', 'x'), maxLength: 600 }),
        );
        await fc.assert(
          fc.asyncProperty(
            fc.array(
              fc.record({
                minor: fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
                text,
                iban: fc.constantFrom('DE89370400440532013000', 'ACCOUNT 12345', ''),
                bic: fc.constantFrom('DNBANOKK', 'NOT-A-BIC', '  '),
              }),
              { maxLength: 4 },
            ),
            text,
            async (rows, header) => {
              const entries: StatementEntry[] = rows.map((r) => ({
                amount: { minor: r.minor, currency: 'EUR' },
                bookingDate: d('2026-01-05'),
                accountServicerRef: r.text,
                endToEndId: r.text,
                bankTransactionCode: r.minor % 2n === 0n ? { proprietary: r.text } : undefined,
                counterparty: { name: r.text, iban: r.iban, bic: r.bic },
                remittance: { unstructured: r.text, creditorReference: r.text },
                additionalInfo: r.text,
              }));
              const statement: Statement = {
                ...sampleStatement(),
                id: header,
                account: { ...sampleStatement().account, name: header, ownerName: header, servicerName: header },
                entries,
              };
              const { xml } = await render(statement, version);
              const result = await xmllintValidate(xml, `camt.053.${version}`);
              expect(result.output).toContain('validates');
            },
          ),
          { numRuns: 15 },
        );
      },
      120_000,
    );
  }

  for (const version of VERSIONS) {
    withXmllint(`writes what a bank's statement carries, valid against the camt.053.${version} XSD`, async () => {
      const { xml, issues } = await render(richStatement(), version);
      expect(issues).toEqual([]);
      expect((await xmllintValidate(xml, `camt.053.${version}`)).output).toContain('validates');
      expect(xml).toContain('<LglSeqNb>3</LglSeqNb>');
      // One entry for the batch-booked bulk, with the batch totals and one TxDtls per line.
      const batch = xml.split('<Ntry>')[1]!;
      expect(batch).toMatch(/<NtryRef>SBX000000101<\/NtryRef>\s*<Amt Ccy="EUR">3000.00<\/Amt>/);
      expect(batch).toMatch(
        /<Btch>\s*<MsgId>ERP-MSG-0042<\/MsgId>\s*<PmtInfId>PMTINF-7<\/PmtInfId>\s*<NbOfTxs>2<\/NbOfTxs>\s*<TtlAmt Ccy="EUR">3000.00<\/TtlAmt>\s*<CdtDbtInd>DBIT<\/CdtDbtInd>\s*<\/Btch>/,
      );
      expect(batch.match(/<TxDtls>/g)).toHaveLength(2);
      expect(batch).toContain('<AddtlNtryInf>Bulk payment 2 lines</AddtlNtryInf>');
      if (version === '001.08') expect(batch).toContain('<Amt Ccy="EUR">1000.00</Amt>');
      // Every id settle knows, in schema order.
      const single = xml.split('<Ntry>')[2]!;
      expect(single.replace(/\s+/g, '')).toContain(
        '<Refs><MsgId>ERP-MSG-0043</MsgId><AcctSvcrRef>ARCH-102</AcctSvcrRef><PmtInfId>PMTINF-8</PmtInfId><InstrId>INSTR-1</InstrId><EndToEndId>E2E-C</EndToEndId><TxId>PAY-C</TxId></Refs>',
      );
      expect(single.replace(/\s+/g, '')).toContain(
        '<AmtDtls><InstdAmt><AmtCcy="EUR">500.00</Amt></InstdAmt></AmtDtls>',
      );
      const returned = xml.split('<Ntry>')[3]!;
      expect(returned.replace(/\s+/g, '')).toContain(
        '<RtrInf><Rsn><Cd>AC04</Cd></Rsn><AddtlInf>Accountclosed</AddtlInf></RtrInf>',
      );
      const summary = xml.slice(xml.indexOf('<TxsSummry>'), xml.indexOf('</TxsSummry>')).replace(/\s+/g, '');
      expect(summary).toContain('<TtlNtries><NbOfNtries>3</NbOfNtries><Sum>4000.00</Sum>');
      expect(summary).toContain(
        version === '001.08'
          ? '<TtlNetNtry><Amt>3000.00</Amt><CdtDbtInd>DBIT</CdtDbtInd></TtlNetNtry>'
          : '<TtlNetNtryAmt>3000.00</TtlNetNtryAmt><CdtDbtInd>DBIT</CdtDbtInd>',
      );
      expect(summary).toContain('<TtlCdtNtries><NbOfNtries>1</NbOfNtries><Sum>500.00</Sum></TtlCdtNtries>');
      expect(summary).toContain('<TtlDbtNtries><NbOfNtries>2</NbOfNtries><Sum>3500.00</Sum></TtlDbtNtries>');
    });
  }

  it('reports a summary that does not match the entries written', async () => {
    const statement = { ...richStatement(), summary: { ...richStatement().summary!, debitCount: 5 } };
    const { issues } = await render(statement);
    expect(issues.map((i) => i.code)).toEqual(['SUMMARY_MISMATCH']);
  });

  withXmllint(
    'writes a valid statement without entries, and reports a sequence number the schema cannot take',
    async () => {
      const empty: Statement = {
        ...sampleStatement(),
        sequenceNumber: 1.5,
        entries: [],
        closingBalance: { ...sampleStatement().openingBalance, date: d('2026-01-05') },
      };
      for (const version of VERSIONS) {
        const { xml, issues, entryCount } = await render(empty, version);
        expect(entryCount).toBe(0);
        expect(xml).not.toContain('<Ntry>');
        expect(xml).not.toContain('ElctrncSeqNb');
        expect(issues.map((i) => i.code)).toEqual(['SEQUENCE_NUMBER_INVALID']);
        expect((await xmllintValidate(xml, `camt.053.${version}`)).output).toContain('validates');
      }
    },
  );

  it('keeps every start tag on one line (aqbanking rejects a line break inside one)', async () => {
    for (const version of VERSIONS) {
      const { xml } = await render(sampleStatement(), version);
      const lines = xml.split('\n');
      expect(lines[0]).toBe('<?xml version="1.0" encoding="UTF-8"?>');
      expect(lines[1]).toBe(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.${version}">`);
      for (const line of lines) expect(line).toMatch(/^\s*(<[^<>]+>([^<>]*<\/[^<>]+>)?|<[^<>]+\/>)$/);
    }
  });

  it('writes the differences between .02 and .08: BIC vs BICFI, Sts code, party wrapper', async () => {
    const v2 = (await render(sampleStatement(), '001.02')).xml;
    const v8 = (await render(sampleStatement(), '001.08')).xml;
    expect(v2).toContain('<BIC>DNBANOKK</BIC>');
    expect(v2).not.toContain('<BICFI>');
    expect(v2).toMatch(/<Sts>BOOK<\/Sts>/);
    expect(v2).toMatch(/<Dbtr>\s*<Nm>Müller &amp; Söhne &lt;GmbH&gt;<\/Nm>/);
    expect(v8).toContain('<BICFI>DNBANOKK</BICFI>');
    expect(v8).toMatch(/<Sts>\s*<Cd>BOOK<\/Cd>\s*<\/Sts>/);
    expect(v8).toMatch(/<Dbtr>\s*<Pty>\s*<Nm>Müller/);
  });

  it('names the debtor on a credit entry and the creditor on a debit entry, with signs as CdtDbtInd', async () => {
    const { xml } = await render(sampleStatement());
    const entries = xml.split('<Ntry>').slice(1);
    expect(entries[0]).toMatch(/<Amt Ccy="EUR">1250.00<\/Amt>\s*<CdtDbtInd>CRDT<\/CdtDbtInd>/);
    expect(entries[0]).toContain('<DbtrAcct>');
    expect(entries[0]).toContain('<DbtrAgt>');
    expect(entries[1]).toMatch(/<Amt Ccy="EUR">754.25<\/Amt>\s*<CdtDbtInd>DBIT<\/CdtDbtInd>/);
    expect(entries[1]).toContain('<Cdtr>');
    expect(entries[1]).toContain('<CdtrAcct>');
    // No bank code given: the honest "miscellaneous" code, by direction.
    expect(entries[3]).toMatch(/<Cd>PMNT<\/Cd>\s*<Fmly>\s*<Cd>MCOP<\/Cd>\s*<SubFmlyCd>OTHR<\/SubFmlyCd>/);
    expect(xml).toMatch(
      /<Cd>OPBD<\/Cd>[\s\S]*<Amt Ccy="EUR">10000.00<\/Amt>[\s\S]*<Cd>CLBD<\/Cd>[\s\S]*<Amt Ccy="EUR">10585.24<\/Amt>/,
    );
  });

  it('writes a debit balance as a positive amount with DBIT and JPY without decimals', async () => {
    const statement: Statement = {
      ...sampleStatement(),
      account: { iban: 'NO9386011117947', currency: 'JPY' },
      openingBalance: { amount: { minor: -500n, currency: 'JPY' }, date: d('2026-01-04') },
      closingBalance: { amount: { minor: 700n, currency: 'JPY' }, date: d('2026-01-05') },
      entries: [{ amount: { minor: 1200n, currency: 'JPY' }, bookingDate: d('2026-01-05') }],
    };
    const { xml, issues } = await render(statement);
    expect(xml).toMatch(/<Amt Ccy="JPY">500<\/Amt>\s*<CdtDbtInd>DBIT<\/CdtDbtInd>/);
    expect(xml).toContain('<Amt Ccy="JPY">1200</Amt>');
    expect(issues).toEqual([]);
  });

  it('cuts an over-long text at the schema limit in characters, never inside a surrogate pair, and reports it', async () => {
    const statement: Statement = {
      ...sampleStatement(),
      entries: [{ ...SAMPLE_ENTRIES[0]!, remittance: { unstructured: '😀'.repeat(150) } }],
    };
    statement.closingBalance = { ...statement.closingBalance, amount: { minor: 1_125_000n, currency: 'EUR' } };
    const { xml, issues } = await render(statement);
    expect(xml).toContain(`<Ustrd>${'😀'.repeat(140)}</Ustrd>`);
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'TEXT_TRUNCATED',
        severity: 'warning',
        field: 'remittance.unstructured',
        location: { path: '/Document/BkToCstmrStmt/Stmt/Ntry[1]/NtryDtls/TxDtls/RmtInf/Ustrd' },
      }),
    ]);
  });

  it('replaces characters XML cannot carry and reports it; an id with them is its stand-in, not altered', async () => {
    const statement: Statement = {
      ...sampleStatement(),
      entries: [{ ...SAMPLE_ENTRIES[0]!, endToEndId: 'A\u0000B\u001fC\ud800', additionalInfo: 'Line\u0001 one' }],
    };
    statement.closingBalance = { ...statement.closingBalance, amount: { minor: 1_125_000n, currency: 'EUR' } };
    const { xml, issues } = await render(statement);
    expect(xml).toContain('<AddtlNtryInf>Line\ufffd one</AddtlNtryInf>');
    const short = /<EndToEndId>(STL-[0-9A-F]{20})<\/EndToEndId>/.exec(xml)![1];
    expect(xml).toContain(`<AddtlTxInf>EndToEndId ${short} = A\ufffdB\ufffdC\ufffd</AddtlTxInf>`);
    expect(issues.map((i) => i.code)).toEqual(['TEXT_SANITISED', 'TEXT_SANITISED']);
  });

  it('reports, after the last entry, when opening balance plus entries is not the closing balance', async () => {
    const statement: Statement = {
      ...sampleStatement(),
      closingBalance: { amount: { minor: 1n, currency: 'EUR' }, date: d('2026-01-05') },
    };
    const { issues } = await render(statement);
    expect(issues).toContainEqual(
      expect.objectContaining({
        code: 'BALANCE_MISMATCH',
        severity: 'error',
        message: 'opening balance 10000.00 plus entries 585.24 is 10585.24, but the closing balance is 0.01',
      }),
    );
    const good = await render(sampleStatement());
    expect(good.issues.map((i) => i.code)).not.toContain('BALANCE_MISMATCH');
  });

  it('leaves entries in another currency out of the balance check, each reported', async () => {
    const foreign: StatementEntry[] = [
      { ...SAMPLE_ENTRIES[0]!, amount: { minor: 500n, currency: 'USD' } },
      { ...SAMPLE_ENTRIES[0]!, amount: { minor: -200n, currency: 'USD' } },
    ];
    const withForeign = (closing: bigint): Statement => ({
      ...sampleStatement(),
      entries: [...SAMPLE_ENTRIES, ...foreign],
      closingBalance: { amount: { minor: closing, currency: 'EUR' }, date: d('2026-01-05') },
    });
    const good = await render(withForeign(sampleStatement().closingBalance.amount.minor));
    // The sample entries' own text issues aside: two currency issues and no balance issue.
    expect(good.issues.map((i) => i.code).filter((c) => c.endsWith('_MISMATCH'))).toEqual([
      'CURRENCY_MISMATCH',
      'CURRENCY_MISMATCH',
    ]);
    const { issues } = await render(withForeign(1n));
    expect(issues).toContainEqual(
      expect.objectContaining({
        code: 'BALANCE_MISMATCH',
        message: 'opening balance 10000.00 plus entries 585.24 is 10585.24, but the closing balance is 0.01',
      }),
    );
  });

  it('reports an account number that is not an IBAN and a BIC the schema would reject, and still writes a valid shape', async () => {
    const statement: Statement = {
      ...sampleStatement(),
      entries: [{ ...SAMPLE_ENTRIES[1]!, counterparty: { name: 'X', iban: '12345678', bic: 'BAD' } }],
    };
    statement.closingBalance = {
      ...statement.closingBalance,
      amount: { minor: 1_000_000n - 75_425n, currency: 'EUR' },
    };
    const { xml, issues } = await render(statement, '001.08');
    expect(xml).toMatch(/<CdtrAcct>\s*<Id>\s*<Othr>\s*<Id>12345678<\/Id>/);
    expect(xml).not.toContain('BAD');
    expect(issues.map((i) => i.code).sort()).toEqual(['ACCOUNT_NOT_IBAN', 'BIC_OMITTED']);
  });

  it('streams entries from an async source in several chunks without changing the document', async () => {
    const many: StatementEntry[] = Array.from({ length: 300 }, (_, i) => ({
      ...SAMPLE_ENTRIES[i % 4]!,
      endToEndId: `E2E-${i}`,
    }));
    const sum = many.reduce((acc, e) => acc + e.amount.minor, 0n);
    const make = (entries: Statement['entries']): Statement => ({
      ...sampleStatement(),
      entries,
      closingBalance: { amount: { minor: 1_000_000n + sum, currency: 'EUR' }, date: d('2026-01-05') },
    });
    const streamed = await render(make(slowly(many)), '001.02', 4096);
    const whole = await render(make(many), '001.02');
    expect(streamed.chunks.length).toBeGreaterThan(10);
    expect(streamed.entryCount).toBe(300);
    expect(streamed.xml).toBe(whole.xml);
  });

  for (const version of VERSIONS) {
    withAqbanking(
      `imports into aqbanking (camt.053.${version}) with the same entry count and signed sum as the CSV export`,
      async () => {
        const { xml } = await render(sampleStatement(), version);
        const imported = await aqbankingImportCamt053(xml, 2);
        const rows = parse<Record<string, string>>(await csvOf(sampleStatement()), { delimiter: ';', columns: true });
        const csvSum = rows.reduce((acc, r) => acc + BigInt(r.amount!.replace('.', '')), 0n);
        expect(imported.transactions).toHaveLength(rows.length);
        expect(imported.transactions.reduce((acc, t) => acc + t.minor, 0n)).toBe(csvSum);
        expect(csvSum).toBe(58_524n);
        // Entry by entry: same signed amount and end-to-end id, in the same order.
        expect(imported.transactions.map((t) => [t.minor, t.endToEndId])).toEqual(
          rows.map((r) => [BigInt(r.amount!.replace('.', '')), r.end_to_end_id]),
        );
        expect(imported.transactions[0]).toMatchObject({
          date: '05.01.2026',
          localIban: 'NO9386011117947',
          transactionKey: 'PMNT-RCDT-ESCT',
          currency: 'EUR',
        });
        expect(imported.closing).toContain('10585.24');
      },
    );
  }

  withAqbanking(
    'imports a generated 500-entry statement into aqbanking with the same count, sum and closing balance as the CSV',
    async () => {
      // Deterministic pseudo-random amounts in both directions, mixed optional fields.
      let seed = 42;
      const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
      const entries: StatementEntry[] = Array.from({ length: 500 }, (_, i) => ({
        ...SAMPLE_ENTRIES[i % 4]!,
        amount: { minor: BigInt((next() % 2_000_000) - 1_000_000), currency: 'EUR' },
        endToEndId: i % 5 === 0 ? undefined : `E2E-${i}`,
      }));
      const sum = entries.reduce((acc, e) => acc + e.amount.minor, 0n);
      const statement = (): Statement => ({
        ...sampleStatement(),
        entries,
        closingBalance: { amount: { minor: 1_000_000n + sum, currency: 'EUR' }, date: d('2026-01-05') },
      });
      for (const version of VERSIONS) {
        const { xml, issues } = await render(statement(), version);
        expect(issues.map((i) => i.code)).not.toContain('BALANCE_MISMATCH');
        const imported = await aqbankingImportCamt053(xml, 2);
        const rows = parse<Record<string, string>>(await csvOf(statement()), { delimiter: ';', columns: true });
        expect(imported.transactions).toHaveLength(500);
        expect(rows).toHaveLength(500);
        const csvSum = rows.reduce((acc, r) => acc + BigInt(r.amount!.replace('.', '')), 0n);
        expect(imported.transactions.reduce((acc, t) => acc + t.minor, 0n)).toBe(csvSum);
        expect(csvSum).toBe(sum);
        const closing = 1_000_000n + sum;
        const closingText = `${closing < 0n ? '-' : ''}${(closing < 0n ? -closing : closing)
          .toString()
          .padStart(3, '0')
          .replace(/(\d\d)$/, '.$1')}`;
        expect(imported.closing).toContain(closingText);
      }
    },
    60_000,
  );
});
