import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { LocalDate } from '../../../src/domain/local-date.js';
import { STATUS_CSV_COLUMNS, writeStatusCsv } from '../../../src/formats/status-csv/index.js';
import { sampleStatusReport } from '../../fixtures/writers/status-reports.js';

describe('status CSV writer', () => {
  it('writes file, line, end-to-end id, status, reason, bank payment id, time and PmtInfId per line', () => {
    const { bytes, issues } = writeStatusCsv(sampleStatusReport());
    const text = bytes.toString('utf8');
    expect(text.split('\r\n')[0]).toBe(
      'file;line;end_to_end_id;status;reason;bank_payment_id;time;payment_information_id;returned_on;return_bank_transaction_code;amount;currency;instruction_id',
    );
    expect(STATUS_CSV_COLUMNS).toHaveLength(13);
    const rows = parse<Record<string, string>>(text, { delimiter: ';', columns: true });
    expect(rows).toHaveLength(5);
    expect(rows[0]).toEqual({
      file: 'payments_2026-01-05.xml',
      line: '1',
      end_to_end_id: 'E2E-0001',
      status: 'ACSC',
      reason: '',
      bank_payment_id: 'pay-9f1c',
      time: '2026-01-05T10:15:00.000Z',
      payment_information_id: 'PMTINF-1',
      returned_on: '',
      return_bank_transaction_code: '',
      amount: '1250.00',
      currency: 'EUR',
      instruction_id: 'INSTR-0001',
    });
    expect(rows[3]).toMatchObject({
      line: '4',
      status: 'RJCT',
      reason: 'AC01,BANK-SPECIFIC-42: Creditor account number invalid: IBAN check digits fail',
    });
    expect(issues).toEqual([]);
  });

  it('tells a payment booked back after it was accepted from one refused before booking', () => {
    const report = sampleStatusReport();
    const groups = report.groups.map((g, i) =>
      i === 0
        ? {
            ...g,
            lines: [
              {
                ...g.lines[0]!,
                status: 'RJCT' as const,
                reasonCodes: ['AC04'],
                reasonText: 'Returned payment: Account closed',
                returned: { bookingDate: '2026-01-07' as LocalDate, bankTransactionCode: 'PMNT-ICDT-RRTN' },
              },
            ],
          }
        : g,
    );
    const rows = parse<Record<string, string>>(writeStatusCsv({ ...report, groups }).bytes.toString('utf8'), {
      delimiter: ';',
      columns: true,
    });
    expect(rows[0]).toMatchObject({
      status: 'RJCT',
      reason: 'AC04: Returned payment: Account closed',
      returned_on: '2026-01-07',
      return_bank_transaction_code: 'PMNT-ICDT-RRTN',
    });
    // Refused before booking: the same status, no return.
    expect(rows.find((r) => r.line === '4')).toMatchObject({ status: 'RJCT', returned_on: '' });
  });

  it('neutralises a formula-like end-to-end id', () => {
    const rows = parse<Record<string, string>>(writeStatusCsv(sampleStatusReport()).bytes.toString('utf8'), {
      delimiter: ';',
      columns: true,
    });
    expect(rows[3]!.end_to_end_id).toBe("'=cmd|/C calc!A0");
  });

  it('falls back to the original message id when the file name is unknown, and honours delimiter and encoding', () => {
    const report = { ...sampleStatusReport(), originalFileName: undefined };
    report.groups[0]!.lines[0]!.reasonText = 'Zahlung für Müller';
    const { bytes } = writeStatusCsv(
      {
        ...report,
        groups: [
          { ...report.groups[0]!, lines: [{ ...report.groups[0]!.lines[0]!, reasonText: 'Zahlung für Müller' }] },
        ],
      },
      { delimiter: ',', encoding: 'iso-8859-1', header: false },
    );
    const line = bytes.toString('latin1').split('\r\n')[0]!;
    expect(line.startsWith('ERP-MSG-4711,1,E2E-0001,ACSC,Zahlung für Müller,')).toBe(true);
    expect(bytes.includes(Buffer.from('f\xfcr', 'latin1'))).toBe(true);
  });
});
