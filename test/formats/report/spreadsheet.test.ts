// The CSV a person opens from the console (src/formats/report/spreadsheet.ts): in bokmål the heads
// in words for every column, ";" between cells, decimal commas in the number columns only and a
// UTF-8 BOM, as Norwegian Excel reads a file; in English the machine CSV as it is.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/domain/reconcile/findings.js';
import {
  FINDINGS_CSV_COLUMNS,
  findingsCsvForPeople,
  renderFindingsCsv,
  SIGNOFF_CSV_COLUMNS,
  signoffCsvForPeople,
} from '../../../src/formats/report/index.js';
import { sampleResult } from './sample.js';

describe('a report CSV as a person opens it', () => {
  const findings = sampleResult().findings.map((f): Finding => ({ ...f, message: 'pays 1.50 NOK less' }));
  const machine = renderFindingsCsv(findings);

  it('is the machine CSV itself in English', () => {
    expect(findingsCsvForPeople(machine, 'en')).toBe(machine);
  });

  it('names every column in bokmål and writes numbers with a decimal comma, texts untouched', () => {
    const nb = findingsCsvForPeople(machine, 'nb');
    expect(nb.startsWith('\ufeff')).toBe(true);
    const records: string[][] = parse(nb.slice(1), { delimiter: ';' });
    const [head, ...rows] = records;
    expect(head).toHaveLength(FINDINGS_CSV_COLUMNS.length);
    expect(head!.slice(0, 3)).toEqual(['Avvikstype', 'Alvorlighet', 'Trenger oppfølging']);
    // No machine name is left as a head: each column has its words.
    for (const [i, name] of FINDINGS_CSV_COLUMNS.entries()) expect(head![i], name).not.toBe(name);
    const machineRecords: string[][] = parse(machine);
    const machineRows = machineRecords.slice(1);
    expect(rows).toHaveLength(machineRows.length);
    const amount = FINDINGS_CSV_COLUMNS.indexOf('amount');
    const message = FINDINGS_CSV_COLUMNS.indexOf('message');
    for (const [r, row] of rows.entries()) {
      expect(row[amount]).toBe(machineRows[r]![amount]!.replace('.', ','));
      expect(row[message]).toBe('pays 1.50 NOK less');
    }
    expect(rows.some((row) => /^\d+,\d{2}$/.test(row[amount]!))).toBe(true);
  });

  it("names every column of the signed period's CSV in bokmål", () => {
    const nb = signoffCsvForPeople(
      {
        company: 'acme',
        period: '2026-01',
        from: '2026-01-01' as never,
        to: '2026-01-31' as never,
        state: 'signed',
        signedBy: 'local:olga',
        signedPerson: 'olga',
        signedAt: new Date('2026-02-01T08:00:00Z'),
        balances: [{ accountIban: 'NO9386011117947', currency: 'NOK', sent: 9_388_540n, bookedOut: 0n, bookedIn: 0n }],
        totals: [],
      },
      'nb',
    );
    const records: string[][] = parse(nb.slice(1), { delimiter: ';', relax_column_count: true });
    const [head, , balance] = records;
    for (const [i, name] of SIGNOFF_CSV_COLUMNS.entries()) expect(head![i], name).not.toBe(name);
    expect(balance![SIGNOFF_CSV_COLUMNS.indexOf('sent')]).toBe('93885,40');
  });
});
