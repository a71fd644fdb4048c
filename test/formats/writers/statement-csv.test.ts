import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import iconv from 'iconv-lite';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { isSettleError } from '../../../src/domain/errors.js';
import type { Statement } from '../../../src/domain/statement.js';
import {
  STATEMENT_CSV_COLUMNS,
  writeStatementCsv,
  type StatementCsvOptions,
} from '../../../src/formats/statement-csv/index.js';
import { hledgerCsv, itWith } from '../../support/oracles.js';
import { richStatement, SAMPLE_ENTRIES, sampleStatement } from '../../fixtures/writers/statements.js';

const RULES = resolve(import.meta.dirname, '../../../samples/hledger/statement.rules');

async function render(statement: Statement, options: StatementCsvOptions = {}) {
  const out = writeStatementCsv(statement, options);
  const parts: Buffer[] = [];
  for await (const chunk of out.chunks) parts.push(chunk);
  return { bytes: Buffer.concat(parts), chunks: parts.length, issues: out.issues, entryCount: out.entryCount };
}

function rows(text: string, delimiter = ';'): Record<string, string>[] {
  return parse<Record<string, string>>(text, { delimiter, columns: true });
}

const withHledger = itWith('hledger');

describe('statement CSV writer', () => {
  it('says a returned payment came back: its reason and the bank words, in columns appended last', async () => {
    const { bytes } = await render(richStatement());
    const text = bytes.toString('utf8');
    expect(
      text
        .split('\r\n')[0]!
        .endsWith(';additional_info;return_reason;return_info;balance_after;opening_balance;closing_balance'),
    ).toBe(true);
    const returned = rows(text).find((r) => r.bank_transaction_code === 'PMNT-ICDT-RRTN')!;
    expect(returned).toMatchObject({
      credit_debit: 'CRDT',
      return_reason: 'AC04',
      return_info: 'Account closed',
      additional_info: 'Returned payment: account closed',
    });
    expect(rows(text).filter((r) => r.return_reason !== '')).toHaveLength(1);
  });

  it('gives each row the booked balance after it and the statement’s opening and closing balances', async () => {
    const parsed = rows((await render(sampleStatement())).bytes.toString('utf8'));
    expect(parsed.map((r) => r.balance_after)).toEqual(['11250.00', '10495.75', '10485.25', '10585.24']);
    expect(new Set(parsed.map((r) => r.opening_balance))).toEqual(new Set(['10000.00']));
    expect(new Set(parsed.map((r) => r.closing_balance))).toEqual(new Set(['10585.24']));
    // The last row's balance is the closing balance: the day adds up.
    expect(parsed.at(-1)!.balance_after).toBe(parsed.at(-1)!.closing_balance);
    const comma = rows((await render(sampleStatement(), { decimalSeparator: ',' })).bytes.toString('utf8'));
    expect(comma[1]!.balance_after).toBe('10495,75');
  });

  it('writes the documented header and one row per entry with signed amounts', async () => {
    const { bytes, issues } = await render(sampleStatement());
    const text = bytes.toString('utf8');
    expect(text.split('\r\n')[0]).toBe(STATEMENT_CSV_COLUMNS.map((c) => c.name).join(';'));
    const parsed = rows(text);
    expect(parsed.map((r) => r.amount)).toEqual(['1250.00', '-754.25', '-10.50', '99.99']);
    expect(parsed.map((r) => r.credit_debit)).toEqual(['CRDT', 'DBIT', 'DBIT', 'CRDT']);
    expect(parsed[0]).toMatchObject({
      statement_id: 'STMT-NO9386011117947-20260105',
      account_iban: 'NO9386011117947',
      currency: 'EUR',
      booking_date: '2026-01-05',
      value_date: '2026-01-05',
      counterparty_name: 'Müller & Söhne <GmbH>',
      counterparty_iban: 'DE89370400440532013000',
      counterparty_bic: 'COBADEFFXXX',
      end_to_end_id: 'INV-2026-0001',
      account_servicer_ref: 'BANKREF-0001',
      bank_transaction_code: 'PMNT-RCDT-ESCT',
      remittance_information: 'Invoice 2026-0001 "final" = paid',
      creditor_reference: 'RF18539007547034',
    });
    // The long remittance is not cut in CSV (no schema limit); only the tab/line breaks are reported.
    expect(parsed[3]!.remittance_information).toHaveLength(150);
    expect(issues).toEqual([
      expect.objectContaining({ code: 'TEXT_SANITISED', location: { row: 4, column: 16 }, field: 'additional_info' }),
    ]);
    expect(parsed[2]!.additional_info).toBe('Account fee January line two line three');
  });

  it('neutralises formula injection in text cells but keeps negative amounts as numbers', async () => {
    const statement: Statement = {
      ...sampleStatement(),
      entries: [
        {
          ...SAMPLE_ENTRIES[1]!,
          counterparty: { name: '@SUM(1+1)*cmd|" /C calc"!A0' },
          endToEndId: '-2+3',
          remittance: { unstructured: '=HYPERLINK("http://evil.example")' },
        },
      ],
    };
    const parsed = rows((await render(statement)).bytes.toString('utf8'));
    expect(parsed[0]).toMatchObject({
      amount: '-754.25',
      counterparty_name: `'@SUM(1+1)*cmd|" /C calc"!A0`,
      end_to_end_id: "'-2+3",
      remittance_information: `'=HYPERLINK("http://evil.example")`,
    });
  });

  it('uses the configured delimiter, decimal comma and LF line endings', async () => {
    const { bytes } = await render(sampleStatement(), {
      delimiter: '\t',
      decimalSeparator: ',',
      lineEnding: '\n',
      header: false,
    });
    const text = bytes.toString('utf8');
    expect(text).not.toContain('\r');
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]!.split('\t')[5]).toBe('-754,25');
  });

  it('refuses a delimiter that is the decimal separator, with a stable code', () => {
    let caught: unknown;
    try {
      writeStatementCsv(sampleStatement(), { delimiter: ',', decimalSeparator: ',' });
    } catch (e) {
      caught = e;
    }
    expect(isSettleError(caught, 'ERR_EXPORT_CSV_OPTIONS')).toBe(true);
    expect(() => writeStatementCsv(sampleStatement(), { delimiter: ',', decimalSeparator: '.' })).not.toThrow();
  });

  it('encodes ISO-8859-1 and Windows-1252, transliterating and reporting what the encoding lacks', async () => {
    const statement: Statement = {
      ...sampleStatement(),
      entries: [{ ...SAMPLE_ENTRIES[0]!, counterparty: { name: 'Łódź € Café 😀' }, remittance: undefined }],
    };
    const latin1 = await render(statement, { encoding: 'iso-8859-1' });
    expect(rows(iconv.decode(latin1.bytes, 'iso-8859-1'))[0]!.counterparty_name).toBe('Lódz EUR Café ?');
    expect(latin1.bytes.includes(Buffer.from([0x43, 0x61, 0x66, 0xe9]))).toBe(true); // "Café" in ISO-8859-1
    expect(latin1.issues).toEqual([
      expect.objectContaining({ code: 'CSV_CHAR_REPLACED', location: { row: 2, column: 8 } }),
    ]);

    const cp1252 = await render(statement, { encoding: 'windows-1252' });
    expect(rows(iconv.decode(cp1252.bytes, 'windows-1252'))[0]!.counterparty_name).toBe('Lódz € Café ?');
    expect(cp1252.bytes.includes(Buffer.from([0x80]))).toBe(true); // € is 0x80 in Windows-1252
  });

  it('writes a UTF-8 byte order mark only when asked, once', async () => {
    const many: Statement = { ...sampleStatement(), entries: Array.from({ length: 25 }, () => SAMPLE_ENTRIES[0]!) };
    const bom = await render(many, { encoding: 'utf-8-bom', rowsPerChunk: 10 });
    expect([...bom.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bom.bytes.indexOf(Buffer.from([0xef, 0xbb, 0xbf]), 3)).toBe(-1);
    expect(bom.chunks).toBe(3);
    expect(bom.entryCount).toBe(25);
    const plain = await render(many);
    expect(plain.bytes[0]).toBe('s'.charCodeAt(0));
  });

  withHledger('is read by hledger with the shipped rules file: same transaction count and total', async () => {
    const { bytes } = await render(sampleStatement());
    const printed = await hledgerCsv(bytes, RULES, ['print']);
    expect(printed.match(/^2026-01-05 \*/gm)).toHaveLength(4);
    expect(printed).toContain('assets:bank:NO9386011117947      EUR-754.25');
    const balance = await hledgerCsv(bytes, RULES, ['balance', '-N', '-O', 'csv']);
    expect(balance).toContain('"assets:bank:NO9386011117947","EUR585.24"');
  });

  withHledger('is read by hledger with a decimal comma when the rules add "decimal-mark ,"', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'settle-hledger-'));
    try {
      const rules = join(dir, 'comma.rules');
      await writeFile(rules, `include ${RULES}\ndecimal-mark ,\n`);
      const { bytes } = await render(sampleStatement(), { decimalSeparator: ',' });
      const balance = await hledgerCsv(bytes, rules, ['balance', '-N', '-O', 'csv']);
      expect(balance).toContain('"assets:bank:NO9386011117947","EUR585,24"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
