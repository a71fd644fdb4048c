import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { FINDINGS_CSV_COLUMNS, findingsCsvChunks, renderFindingsCsv } from '../../../src/formats/report/index.js';
import { FORMULA_REMITTANCE, HOSTILE_NAME, sampleResult } from './sample.js';

const rows = (text: string, delimiter = ','): Record<string, string>[] => parse(text, { columns: true, delimiter });

describe('findings CSV', () => {
  it('has the documented columns, in order, and one row per finding', () => {
    const result = sampleResult();
    const text = renderFindingsCsv(result.findings);
    expect(text.split('\r\n')[0]).toBe(
      'finding_type,severity,needs_person,company,account_iban,payment_ids,end_to_end_id,bulk_id,transaction_id,rule,currency,amount,booked_amount,amount_difference,execution_date,booking_date,date_difference_days,counterparty,reference,due,message,finding_id,acknowledged_by,acknowledged_at,acknowledged_reason,decision,invoice,creditor_reference,remittance,match_score,evidence,exception',
    );
    expect(FINDINGS_CSV_COLUMNS).toHaveLength(32);
    const records = rows(text);
    expect(records).toHaveLength(result.findings.length);
    expect(records.map((r) => r.finding_type)).toEqual(result.findings.map((f) => f.type));
  });

  it('writes amounts as plain decimals and differences with their sign', () => {
    const records = rows(renderFindingsCsv(sampleResult().findings));
    const diff = records.find((r) => r.finding_type === 'amount_difference')!;
    expect(diff).toMatchObject({
      needs_person: 'yes',
      currency: 'NOK',
      amount: '500.00',
      booked_amount: '510.00',
      amount_difference: '10.00',
      rule: 'end-to-end',
      payment_ids: 'p-diff',
    });
    const matched = records.find((r) => r.finding_type === 'matched')!;
    expect(matched).toMatchObject({
      amount: '1234.50',
      date_difference_days: '0',
      counterparty: `${HOSTILE_NAME} (NO8330001234567)`,
    });
  });

  it('keeps a negative amount a number but neutralises formula-like text cells', () => {
    const negative = {
      ...sampleResult().findings.find((f) => f.type === 'amount_difference')!,
      amountDifference: { minor: -1_00n, currency: 'NOK' },
    };
    const records = rows(renderFindingsCsv([negative]));
    expect(records[0]!.amount_difference).toBe('-1.00');
    const all = rows(renderFindingsCsv(sampleResult().findings));
    const fee = all.find((r) => r.finding_type === 'unexpected_debit')!;
    expect(fee.reference).toBe(`'${FORMULA_REMITTANCE}`);
    expect(fee.counterparty).toBe(`'@fee "bank"`);
    expect(all.find((r) => r.finding_type === 'unknown_outcome')!.end_to_end_id).toBe("'+SUM(A1:A9)");
  });

  it('supports a semicolon delimiter with decimal comma, and refuses a delimiter that clashes', () => {
    const text = renderFindingsCsv(sampleResult().findings, { delimiter: ';', decimalSeparator: ',' });
    expect(rows(text, ';').find((r) => r.finding_type === 'matched')!.amount).toBe('1234,50');
    expect(() => renderFindingsCsv([], { delimiter: ',', decimalSeparator: ',' })).toThrow(RangeError);
  });

  it('keeps one finding on one line even when a text has line breaks', () => {
    const finding = { ...sampleResult().findings[0]!, message: 'line one\r\nline two' };
    const text = renderFindingsCsv([finding], { lineEnding: '\n' });
    expect(text.trimEnd().split('\n')).toHaveLength(2);
    expect(rows(text)[0]!.message).toBe('line one line two');
  });

  it('writes the same bytes in chunks as in one piece', () => {
    const findings = Array.from({ length: 7 }, () => sampleResult().findings).flat();
    const chunks = [...findingsCsvChunks(findings, { rowsPerChunk: 10 })];
    expect(chunks.length).toBe(Math.ceil((findings.length + 1) / 10));
    expect(chunks.join('')).toBe(renderFindingsCsv(findings));
    expect(rows(chunks.join(''))).toHaveLength(findings.length);
  });
});
