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
    expect((await exports.exportedPeriodsOf('csv-statement', ['ef-l'], d('2026-02-05'))).get('ef-l')!.sort()).toEqual([
      '2026-02-01..2026-02-10',
      '2026-02-11',
      '2026-02-12..2026-02-14',
    ]);
    expect((await exports.exportedPeriodsOf('csv-statement', ['ef-l'])).get('ef-l')!.length).toBe(5);
    const numbered = await exports.numberedPeriods('csv-statement', 'ef-l', d('2026-02-11'));
    expect([...numbered.keys()].sort()).toEqual(['2026-01-02', '2026-02-11', '2026-02-12..2026-02-14']);
    expect(numbered.get('2026-02-11')?.number).toBe(numbers.get('2026-02-11'));
    expect(numbered.get('2026-01-02')?.number).toBe(9);
  });

  it('reads several accounts at once as each alone: own periods, own highest number, own legal numbers, floors lowered together', async () => {
    const { exports, legalSequence, exportFloors, statementDays, statements } = ctx().store;
    // Two accounts of a company; a third with nothing yet.
    const ids = ['ef-m1', 'ef-m2', 'ef-m3'];
    for (const id of ids) await statements.upsertAccount({ id, company: 'ef', currency: 'NOK' });
    await exports.numberPeriods('csv-statement', 'ef-m1', [
      { period: '2026-03-01', number: 1 },
      { period: '2026-03-02', number: 2 },
      { period: '2026-01-15', number: 7 },
    ]);
    await exports.numberPeriods('csv-statement', 'ef-m2', [{ period: '2026-03-02', number: 40 }]);
    // Another format's numbers are no account's here.
    await exports.numberPeriods('camt.053.001.02', 'ef-m2', [{ period: '2026-03-03', number: 99 }]);
    for (const [subjectId, period] of [
      ['ef-m1', '2026-03-01'],
      ['ef-m1', '2026-03-02'],
      ['ef-m2', '2026-03-02'],
      ['ef-m2', '2026-02-20'],
    ] as const)
      await exports.record({
        company: 'ef',
        format: 'csv-statement',
        subjectId,
        period,
        fileName: `${subjectId}-${period}`,
        entryCount: 1,
      });
    const exported = await exports.exportedPeriodsOf('csv-statement', ids, d('2026-03-01'));
    expect([...exported].map(([id, p]) => [id, [...p].sort()])).toEqual([
      ['ef-m1', ['2026-03-01', '2026-03-02']],
      ['ef-m2', ['2026-03-02']],
      ['ef-m3', []],
    ]);
    const numbered = await exports.numberedPeriodsOf('csv-statement', ids, d('2026-03-02'));
    // Each account's periods from the day on, and its own highest-numbered one wherever it lies.
    expect([...numbered.get('ef-m1')!].sort()).toEqual([
      ['2026-01-15', { number: 7 }],
      ['2026-03-02', { number: 2 }],
    ]);
    expect([...numbered.get('ef-m2')!]).toEqual([['2026-03-02', { number: 40 }]]);
    expect(numbered.get('ef-m3')?.size).toBe(0);
    for (const id of ['ef-m1', 'ef-m2'])
      expect(numbered.get(id)).toEqual(await exports.numberedPeriods('csv-statement', id, d('2026-03-02')));
    // Legal numbers: only the days asked of each account, though another's lie beside them.
    await legalSequence.assignAllOf(
      new Map([
        ['ef-m1', { days: [d('2026-03-01'), d('2026-03-02')] }],
        ['ef-m2', { days: [d('2026-03-01'), d('2026-03-03')] }],
      ]),
    );
    const legal = await legalSequence.findAllOf(
      new Map([
        ['ef-m1', [d('2026-03-02')]],
        ['ef-m2', [d('2026-03-01'), d('2026-03-02'), d('2026-03-03')]],
        ['ef-m3', [d('2026-03-01')]],
      ]),
    );
    expect([...legal].map(([id, m]) => [id, [...m]])).toEqual([
      ['ef-m1', [['2026-03-02', 2]]],
      [
        'ef-m2',
        [
          ['2026-03-01', 1],
          ['2026-03-03', 2],
        ],
      ],
      ['ef-m3', []],
    ]);
    // A write of several accounts' days lowers each one's floors to its own first day.
    const formats = ['csv-statement'];
    for (const [id, floor] of await exportFloors.readAll(ids, formats))
      await exportFloors.raise(id, 'csv-statement', floor.get('csv-statement')!, d('2026-03-10'));
    await statementDays.recordMany([
      checked('ef-m1', '2026-03-05'),
      checked('ef-m2', '2026-03-05'),
      checked('ef-m2', '2026-03-04'),
      checked('ef-m3', '2026-03-12'),
    ]);
    const after = await exportFloors.readAll(ids, formats);
    expect(ids.map((id) => after.get(id)!.get('csv-statement')!.fromDay)).toEqual([
      '2026-03-05',
      '2026-03-04',
      '2026-03-10',
    ]);
  });

  it('numbers several accounts at once as each alone, and reads each one’s latest delivered files', async () => {
    const { exports, legalSequence, statements } = ctx().store;
    const ids = ['ef-n1', 'ef-n2', 'ef-n3'];
    for (const id of ids) await statements.upsertAccount({ id, company: 'ef', currency: 'NOK' });
    // ef-n1 has numbers in two years already; ef-n2 none; ef-n3 asks nothing.
    await legalSequence.assignAllOf(new Map([['ef-n1', { days: [d('2025-12-30'), d('2026-01-02')] }]]));
    const given = await legalSequence.assignAllOf(
      new Map([
        ['ef-n1', { days: [d('2026-01-02'), d('2026-01-04'), d('2025-12-31'), d('2026-01-03')] }],
        ['ef-n2', { days: [d('2026-01-03'), d('2026-01-02')], known: new Map() }],
        ['ef-n3', { days: [] }],
      ]),
    );
    // Each account and year counts on from its own highest, in day order; a day keeps its number.
    expect([...given].map(([id, m]) => [id, [...m].sort()])).toEqual([
      [
        'ef-n1',
        [
          ['2025-12-31', 2],
          ['2026-01-02', 1],
          ['2026-01-03', 2],
          ['2026-01-04', 3],
        ],
      ],
      [
        'ef-n2',
        [
          ['2026-01-02', 1],
          ['2026-01-03', 2],
        ],
      ],
      ['ef-n3', []],
    ]);
    expect((await legalSequence.findAllOf(new Map([['ef-n2', [d('2026-01-03')]]]))).get('ef-n2')).toEqual(
      new Map([['2026-01-03', 2]]),
    );
    // Latest delivered files: each subject's own periods, the highest version of each.
    for (const [subjectId, period, fileName] of [
      ['ef-n1', '2026-01-02', 'a-v1'],
      ['ef-n1', '2026-01-02', 'a-v2'],
      ['ef-n1', '2026-01-03', 'b-v1'],
      ['ef-n2', '2026-01-02', 'c-v1'],
    ] as const)
      await exports.record({ company: 'ef', format: 'csv-statement', subjectId, period, fileName, entryCount: 1 });
    const latest = await exports.latestOfAll(
      'csv-statement',
      new Map([
        ['ef-n1', ['2026-01-02']],
        ['ef-n2', ['2026-01-02', '2026-01-03']],
      ]),
    );
    expect([...latest].map(([id, m]) => [id, [...m].map(([p, e]) => [p, e.fileName, e.version])])).toEqual([
      ['ef-n1', [['2026-01-02', 'a-v2', 2]]],
      ['ef-n2', [['2026-01-02', 'c-v1', 1]]],
    ]);
  });
}
