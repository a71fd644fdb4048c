// Part of the repository contract (repository-contract.ts): the export floor of an account and
// format (src/store/export-floors.ts) — set below every day on first read, raised only when no
// write of the account's days came in between, lowered by every such write — and the export
// ledger's reads from a day on (migration 0520).
import { expect, it } from 'vitest';
import type { LocalDate } from '../../src/domain/local-date.js';
import { FIRST_DAY, type StatementDay } from '../../src/store/index.js';
import type { ContractContext } from './contract-approval-reporting.js';

const d = (s: string) => s as LocalDate;
const checked = (accountId: string, day: string): StatementDay => ({
  accountId,
  day: d(day),
  currency: 'NOK',
  closingMinor: 100n,
  bookedSumMinor: 0n,
  entryCount: 0,
  continuity: 'ok',
});

export function exportFloorCases(ctx: () => ContractContext): void {
  it('sets a floor below every day on first read, raises it, and lets a write of days lower it', async () => {
    const { exportFloors, statementDays, statements } = ctx().store;
    for (const id of ['ef-a', 'ef-b']) await statements.upsertAccount({ id, company: 'ef', currency: 'NOK' });
    const formats = ['csv-statement', 'camt.053.001.02'];
    const first = await exportFloors.readAll(['ef-a', 'ef-b'], formats);
    expect(first.get('ef-a')?.get('csv-statement')).toEqual({ fromDay: FIRST_DAY, version: 0 });
    expect(first.get('ef-b')?.get('camt.053.001.02')).toEqual({ fromDay: FIRST_DAY, version: 0 });
    const seen = first.get('ef-a')!.get('csv-statement')!;
    expect(await exportFloors.raise('ef-a', 'csv-statement', seen, d('2026-03-10'))).toBe(true);
    // A second raise from the same reading is refused: the floor moved since.
    expect(await exportFloors.raise('ef-a', 'csv-statement', seen, d('2026-03-12'))).toBe(false);
    const raised = (await exportFloors.readAll(['ef-a'], formats)).get('ef-a')!;
    expect(raised.get('csv-statement')?.fromDay).toBe('2026-03-10');
    expect(raised.get('camt.053.001.02')?.fromDay).toBe(FIRST_DAY);
    // A day written below the floor takes it down, in every format; one above leaves it.
    await statementDays.recordMany([checked('ef-a', '2026-03-11')]);
    expect((await exportFloors.readAll(['ef-a'], formats)).get('ef-a')!.get('csv-statement')?.fromDay).toBe(
      '2026-03-10',
    );
    await statementDays.recordMany([checked('ef-a', '2026-03-08'), checked('ef-a', '2026-03-09')]);
    const lowered = (await exportFloors.readAll(['ef-a'], formats)).get('ef-a')!;
    expect(lowered.get('csv-statement')?.fromDay).toBe('2026-03-08');
    expect(lowered.get('camt.053.001.02')?.fromDay).toBe(FIRST_DAY);
    // Other accounts are not touched.
    expect((await exportFloors.readAll(['ef-b'], formats)).get('ef-b')!.get('csv-statement')?.version).toBe(0);
  });

  it('refuses to raise a floor past days written after it was read, even days above it', async () => {
    const { exportFloors, statementDays, statements } = ctx().store;
    await statements.upsertAccount({ id: 'ef-race', company: 'ef', currency: 'NOK' });
    await exportFloors.readAll(['ef-race'], ['csv-statement']);
    const seen = (await exportFloors.readAll(['ef-race'], ['csv-statement'])).get('ef-race')!.get('csv-statement')!;
    // An export read the floor; a fetch writes a day above it before the export raises.
    await statementDays.recordMany([checked('ef-race', '2026-05-04')]);
    expect(await exportFloors.raise('ef-race', 'csv-statement', seen, d('2026-05-10'))).toBe(false);
    expect(
      (await exportFloors.readAll(['ef-race'], ['csv-statement'])).get('ef-race')!.get('csv-statement')?.fromDay,
    ).toBe(FIRST_DAY);
  });

  it('reads exported and numbered periods from a day on, with runs reaching into it and the highest number', async () => {
    const { exports } = ctx().store;
    const periods = ['2026-01-05', '2026-02-01..2026-02-10', '2026-02-11', '2026-02-12..2026-02-14'];
    const numbers = await exports.assignSequenceNumbers('csv-statement', 'ef-l', periods);
    // An old period numbered last (an explicit export): the next number follows it.
    await exports.numberPeriods('csv-statement', 'ef-l', [{ period: '2026-01-02', number: 9 }]);
    for (const period of [...periods, '2026-01-02'])
      await exports.record({
        company: 'ef',
        format: 'csv-statement',
        subjectId: 'ef-l',
        period,
        fileName: `${period}.csv`,
        entryCount: 1,
      });
    expect((await exports.exportedPeriods('csv-statement', 'ef-l', d('2026-02-05'))).sort()).toEqual([
      '2026-02-01..2026-02-10',
      '2026-02-11',
      '2026-02-12..2026-02-14',
    ]);
    expect((await exports.exportedPeriods('csv-statement', 'ef-l')).length).toBe(5);
    const numbered = await exports.numberedPeriods('csv-statement', 'ef-l', d('2026-02-11'));
    expect([...numbered.keys()].sort()).toEqual(['2026-01-02', '2026-02-11', '2026-02-12..2026-02-14']);
    expect(numbered.get('2026-02-11')?.number).toBe(numbers.get('2026-02-11'));
    expect(numbered.get('2026-01-02')?.number).toBe(9);
  });
}
