// Part of the repository contract (repository-contract.ts): legal sequence numbers of statements
// (per account and year, gap-free, the same number for a day exported again, never one number
// twice when exports race) and the statement details of a transaction kept from the fetch.
import { expect, it } from 'vitest';
import type { LocalDate } from '../../src/domain/local-date.js';
import type { ContractContext } from './contract-approval-reporting.js';

const d = (s: string) => s as LocalDate;

export function statementCases(ctx: () => ContractContext): void {
  it('numbers statement days per account and year, gap-free, and gives a day its number again', async () => {
    const { store } = ctx();
    await store.statements.upsertAccount({ id: 'lsn-a', company: 'lsn', currency: 'NOK' });
    await store.statements.upsertAccount({ id: 'lsn-b', company: 'lsn', currency: 'NOK' });
    const seq = store.legalSequence;
    expect(await seq.find('lsn-a', d('2026-12-30'))).toBeUndefined();
    expect(await seq.assign('lsn-a', d('2026-12-30'))).toBe(1);
    expect(await seq.assign('lsn-a', d('2026-12-31'))).toBe(2);
    expect(await seq.assign('lsn-a', d('2026-12-30'))).toBe(1);
    expect(await seq.assign('lsn-b', d('2026-12-31'))).toBe(1);
    // A new year starts at 1 again.
    expect(await seq.assign('lsn-a', d('2027-01-01'))).toBe(1);
    expect(await seq.assign('lsn-a', d('2027-01-02'))).toBe(2);
    expect(await seq.find('lsn-a', d('2026-12-31'))).toBe(2);
  });

  it('numbers many days of an account at once as assign would, and yields when another export took one first', async () => {
    const { store } = ctx();
    await store.statements.upsertAccount({ id: 'lsn-many', company: 'lsn', currency: 'NOK' });
    const seq = store.legalSequence;
    const assignAll = async (days: string[], known?: Map<LocalDate, number>) =>
      (await seq.assignAllOf(new Map([['lsn-many', { days: days.map(d), ...(known ? { known } : {}) }]]))).get(
        'lsn-many',
      )!;
    expect(await seq.assign('lsn-many', d('2026-12-30'))).toBe(1);
    const all = await assignAll(['2027-01-01', '2026-12-31', '2026-12-30', '2027-01-02']);
    expect([...all.entries()].sort()).toEqual([
      ['2026-12-30', 1],
      ['2026-12-31', 2],
      ['2027-01-01', 1],
      ['2027-01-02', 2],
    ]);
    expect(await seq.find('lsn-many', d('2027-01-02'))).toBe(2);
    // Another export numbered one of the days after this one read its numbers (its number 3 also
    // the next free one): the batch fails as a whole and every day gets its number one by one,
    // none twice.
    expect(await seq.assign('lsn-many', d('2027-01-04'))).toBe(3);
    const again = await assignAll(['2027-01-03', '2027-01-04', '2027-01-05'], new Map());
    expect([...again.entries()].sort()).toEqual([
      ['2027-01-03', 4],
      ['2027-01-04', 3],
      ['2027-01-05', 5],
    ]);
  });

  it('records first exports in one go, and each as the next version when one was recorded meanwhile', async () => {
    const { store } = ctx();
    const input = (period: string) => ({
      company: 'lsn',
      format: 'csv-statement',
      subjectId: 'lsn-x',
      period,
      fileName: `f-${period}`,
      entryCount: 1,
    });
    const firsts = await store.exports.recordFirsts([input('2026-03-01'), input('2026-03-02')]);
    expect(firsts.map((e) => [e.period, e.version])).toEqual([
      ['2026-03-01', 1],
      ['2026-03-02', 1],
    ]);
    const mixed = await store.exports.recordFirsts([input('2026-03-03'), input('2026-03-01')]);
    expect(mixed.map((e) => [e.period, e.version])).toEqual([
      ['2026-03-03', 1],
      ['2026-03-01', 2],
    ]);
    expect((await store.exports.find('csv-statement', 'lsn-x', '2026-03-03')).map((e) => e.version)).toEqual([1]);
  });

  it('records more first exports than one statement takes all or none', async () => {
    const { store } = ctx();
    const input = (n: number) => ({
      company: 'lsn',
      format: 'csv-statement',
      subjectId: 'lsn-many',
      period: `p${String(n).padStart(3, '0')}`,
      fileName: `f${n}`,
      entryCount: 0,
    });
    await store.exports.recordFirsts([input(249)]);
    // The last of 250 clashes: none of the batch goes in, and each is recorded on its own.
    const all = await store.exports.recordFirsts(Array.from({ length: 250 }, (_, n) => input(n)));
    expect(all.filter((e) => e.version === 1)).toHaveLength(249);
    expect(all.at(-1)).toMatchObject({ period: 'p249', version: 2 });
    const more = await store.exports.recordFirsts(Array.from({ length: 250 }, (_, n) => input(n + 250)));
    expect(more.every((e) => e.version === 1)).toBe(true);
    expect((await store.exports.exportedPeriodsOf('csv-statement', ['lsn-many'])).get('lsn-many')).toHaveLength(500);
  });

  it('gives a period the next electronic sequence number after the highest given, keeps it, and never gives one twice', async () => {
    const { exports } = ctx().store;
    expect(await exports.assignSequenceNumbers('csv-statement', 'esn-a', ['2026-03-02', '2026-03-04'])).toEqual(
      new Map([
        ['2026-03-02', 1],
        ['2026-03-04', 2],
      ]),
    );
    // A day that comes late takes the next number, not its place by date; a period keeps its own.
    const late = await exports.assignSequenceNumbers('csv-statement', 'esn-a', ['2026-03-03', '2026-03-04']);
    expect([late.get('2026-03-03'), late.get('2026-03-04')]).toEqual([3, 2]);
    expect((await exports.sequenceNumbers('camt.053.001.02', 'esn-a')).size).toBe(0);
    // Exports numbering at the same moment: every period gets one number, none twice.
    const periods = ['2026-04-01', '2026-04-02', '2026-04-03..2026-04-05', '2026-04-06'];
    await Promise.all(
      [...periods, ...[...periods].reverse()].map((p) => exports.assignSequenceNumbers('csv-statement', 'esn-b', [p])),
    );
    const numbers = await exports.sequenceNumbers('csv-statement', 'esn-b');
    expect([...numbers.values()].sort()).toEqual([1, 2, 3, 4]);
  });

  it('never gives one number twice when exports assign at the same moment', async () => {
    const { store } = ctx();
    await store.statements.upsertAccount({ id: 'lsn-race', company: 'lsn', currency: 'NOK' });
    const days = ['2026-02-01', '2026-02-02', '2026-02-03', '2026-02-04', '2026-02-05', '2026-02-06'].map(d);
    // Every day twice, all at once: each day gets one number, the numbers are 1…6.
    const numbers = await Promise.all([...days, ...days].map((day) => store.legalSequence.assign('lsn-race', day)));
    const byDay = new Map<string, Set<number>>();
    [...days, ...days].forEach((day, i) => byDay.set(day, (byDay.get(day) ?? new Set()).add(numbers[i]!)));
    for (const set of byDay.values()) expect(set.size).toBe(1);
    expect([...byDay.values()].map((s) => [...s][0]).sort((a, b) => a! - b!)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('reads a range of days in one go as the per-day reads give them, and stores many day checks', async () => {
    const { store } = ctx();
    const repo = store.statements;
    await repo.upsertAccount({ id: 'rng-a', company: 'rng', currency: 'NOK' });
    await repo.upsertAccount({ id: 'rng-b', company: 'rng', currency: 'NOK' });
    const tx = (id: string, day: string, status: 'booked' | 'pending' = 'booked') => ({
      bankTransactionId: id,
      status,
      amount: { minor: -100n, currency: 'NOK' },
      bookingDate: d(day),
    });
    await repo.upsertTransactions('rng-a', [
      tx('A3', '2026-03-02'),
      tx('A1', '2026-03-01'),
      tx('A2', '2026-03-02'),
      tx('A4', '2026-03-02', 'pending'),
      tx('A5', '2026-03-04'),
    ]);
    await repo.upsertTransactions('rng-b', [tx('B1', '2026-03-02')]);
    const byDay = await repo.bookedByDay('rng-a', d('2026-03-01'), d('2026-03-03'));
    expect([...byDay.keys()]).toEqual(['2026-03-01', '2026-03-02']);
    for (const day of ['2026-03-01', '2026-03-02'].map(d))
      expect(byDay.get(day)).toEqual(await repo.listTransactions('rng-a', { status: 'booked', bookingDate: day }));
    // Several accounts in one read, each its own; an account with nothing booked is absent.
    const both = await repo.bookedByDayOf(['rng-a', 'rng-b', 'rng-none'], d('2026-03-01'), d('2026-03-03'));
    expect([...both.keys()].sort()).toEqual(['rng-a', 'rng-b']);
    expect(both.get('rng-a')).toEqual(byDay);
    expect([...both.get('rng-b')!].map(([day, list]) => [day, list.map((t) => t.bankTransactionId)])).toEqual([
      ['2026-03-02', ['B1']],
    ]);
    const money = (minor: bigint) => ({ minor, currency: 'NOK' });
    await repo.upsertBalances('rng-a', [
      { type: 'closingBooked', referenceDate: d('2026-02-28'), amount: money(1n) },
      { type: 'closingBooked', referenceDate: d('2026-03-02'), amount: money(2n) },
      { type: 'openingBooked', referenceDate: d('2026-03-02'), amount: money(3n) },
      { type: 'closingBooked', referenceDate: d('2026-03-05'), amount: money(4n) },
    ]);
    const closings = await repo.balancesByDay('rng-a', 'closingBooked', d('2026-02-28'), d('2026-03-04'));
    expect([...closings.entries()].sort()).toEqual([
      ['2026-02-28', money(1n)],
      ['2026-03-02', money(2n)],
    ]);
    const day = (n: number, continuity: 'ok' | 'gap') => ({
      accountId: 'rng-a',
      day: d(`2026-03-0${n}`),
      currency: 'NOK',
      closingMinor: BigInt(n),
      entryCount: n,
      continuity,
    });
    await store.statementDays.recordMany([day(1, 'ok'), day(2, 'gap')]);
    await store.statementDays.recordMany([day(2, 'ok'), day(3, 'ok')]);
    expect(
      (await store.statementDays.list('rng-a', d('2026-03-01'), d('2026-03-09'))).map((x) => [x.day, x.continuity]),
    ).toEqual([
      ['2026-03-01', 'ok'],
      ['2026-03-02', 'ok'],
      ['2026-03-03', 'ok'],
    ]);
    // Both balance types in one read, each by day; several accounts at once, each its own.
    await repo.upsertBalances('rng-b', [{ type: 'closingBooked', referenceDate: d('2026-03-02'), amount: money(9n) }]);
    const ofBoth = await repo.balancesOfTypesOf(
      ['rng-a', 'rng-b'],
      ['closingBooked'],
      d('2026-03-01'),
      d('2026-03-05'),
    );
    expect([...ofBoth.get('rng-a')!.get('closingBooked')!].sort()).toEqual([
      ['2026-03-02', money(2n)],
      ['2026-03-05', money(4n)],
    ]);
    expect([...ofBoth.get('rng-b')!.get('closingBooked')!]).toEqual([['2026-03-02', money(9n)]]);
    const types = (
      await repo.balancesOfTypesOf(['rng-a'], ['closingBooked', 'openingBooked'], d('2026-03-01'), d('2026-03-05'))
    ).get('rng-a')!;
    expect([...types.entries()].map(([t, m]) => [t, [...m.keys()].sort()])).toEqual([
      ['closingBooked', ['2026-03-02', '2026-03-05']],
      ['openingBooked', ['2026-03-02']],
    ]);
    // The next fetch starts at the first broken day, else the day after the last one checked.
    const unsettled = async (id: string) => (await repo.fetchStarts([id])).get(id)?.firstUnsettled;
    expect(await unsettled('rng-b')).toBeUndefined();
    expect(await unsettled('rng-a')).toBe('2026-03-04');
    await store.statementDays.recordMany([{ ...day(2, 'gap') }, { ...day(4, 'ok') }]);
    expect(await unsettled('rng-a')).toBe('2026-03-02');
    // While none of its days is checked, where the window of the fetch that stored its balances
    // began (the day after the first closing balance); not told once a day is checked.
    const firstClosing = async (id: string) => (await repo.fetchStarts([id])).get(id)?.firstClosing;
    await repo.upsertBalances('rng-b', [{ type: 'closingBooked', referenceDate: d('2026-03-01'), amount: money(8n) }]);
    await repo.upsertBalances('rng-b', [{ type: 'openingBooked', referenceDate: d('2026-02-27'), amount: money(8n) }]);
    expect(await firstClosing('rng-b')).toBe('2026-03-01');
    expect(await firstClosing('rng-a')).toBeUndefined();
  });

  it('keeps the statement details of a transaction as fetched', async () => {
    const { store } = ctx();
    await store.statements.upsertAccount({ id: 'lsn-tx', company: 'lsn', currency: 'NOK' });
    const details = {
      accountServicerRef: 'ARCH-1',
      additionalInfo: 'Bulk payment',
      bankTransactionCode: 'PMNT-ICDT-ESCT',
      instructionId: 'INSTR-1',
      bankPaymentId: 'BULK-1',
      instructedAmount: { minor: 12_345n, currency: 'SEK' },
      returnReason: 'AC04',
    };
    const base = {
      bankTransactionId: 'T-1',
      status: 'booked' as const,
      amount: { minor: -10_000n, currency: 'NOK' },
      bookingDate: d('2026-02-01'),
    };
    expect(await store.statements.upsertTransactions('lsn-tx', [{ ...base, ...details }])).toMatchObject({
      inserted: 1,
    });
    const [stored] = await store.statements.listTransactions('lsn-tx');
    expect(stored).toMatchObject(details);
    // A later fetch that changes one of them is an update, not "unchanged".
    expect(
      await store.statements.upsertTransactions('lsn-tx', [{ ...base, ...details, returnReason: 'MS03' }]),
    ).toMatchObject({ updated: 1 });
  });

  it('writes what one fetch read of an account all together, or none of it', async () => {
    const { store } = ctx();
    const repo = store.statements;
    const day = d('2026-04-01');
    const nok = (minor: bigint) => ({ minor, currency: 'NOK' });
    const fetched = {
      account: { id: 'sf-a', company: 'sf', currency: 'NOK', iban: 'NO9386011117947' },
      status: { status: 'enabled', at: new Date('2026-04-02T06:00:00Z') },
      transactions: [
        { bankTransactionId: 'B-1', status: 'booked' as const, amount: nok(-500n), bookingDate: day },
        { bankTransactionId: 'P-2', status: 'pending' as const, amount: nok(-70n) },
      ],
      stillPending: new Set(['P-2']),
      balances: [{ type: 'closingBooked', referenceDate: day, amount: nok(10_000n) }],
      fetchedTo: new Date('2026-04-02T06:00:00Z'),
    };
    expect((await repo.storeFetchedAll([fetched]))[0]).toMatchObject({ inserted: 2, pendingResolved: [] });
    expect((await repo.listAccounts('sf')).map((a) => a.iban)).toEqual(['NO9386011117947']);
    expect(await store.accountStatus.list('sf')).toMatchObject([{ accountId: 'sf-a', status: 'enabled' }]);
    expect(await repo.getBalance('sf-a', 'closingBooked', day)).toEqual(nok(10_000n));
    expect(await repo.fetchedTo('sf-a')).toEqual(fetched.fetchedTo);

    // The next fetch fails at its balances: its booking, the pending entry it resolves and its
    // watermark are rolled back with them, so the next fetch reads the same window again.
    const next = {
      ...fetched,
      transactions: [{ bankTransactionId: 'B-3', status: 'booked' as const, amount: nok(-900n), bookingDate: day }],
      stillPending: new Set<string>(),
      balances: [
        { type: 'closingBooked', referenceDate: day, amount: { minor: 1n, currency: null as unknown as string } },
      ],
      fetchedTo: new Date('2026-04-03T06:00:00Z'),
    };
    await expect(repo.storeFetchedAll([next])).rejects.toThrow();
    expect((await repo.listTransactions('sf-a')).map((t) => t.bankTransactionId).sort()).toEqual(['B-1', 'P-2']);
    expect(await repo.fetchedTo('sf-a')).toEqual(fetched.fetchedTo);
    expect(await repo.getBalance('sf-a', 'closingBooked', day)).toEqual(nok(10_000n));

    // The same fetch with good balances: all of it lands, the pending entry the bank no longer lists goes.
    const [stored] = await repo.storeFetchedAll([{ ...next, balances: fetched.balances }]);
    expect(stored).toMatchObject({ inserted: 1, pendingResolved: ['P-2'] });
    expect((await repo.listTransactions('sf-a')).map((t) => t.bankTransactionId).sort()).toEqual(['B-1', 'B-3']);
    expect(await repo.fetchedTo('sf-a')).toEqual(next.fetchedTo);
  });

  it('writes the statuses of accounts a fetch read together, each unless a later one is stored', async () => {
    const { store } = ctx();
    const listed = new Date('2026-04-02T06:00:00Z');
    const ids = ['ss-1', 'ss-2', 'ss-3'];
    await store.bankAccounts.replace(
      'ss',
      ids.map((accountId) => ({ accountId, status: 'enabled' })),
      new Date('2026-04-01T06:00:00Z'),
    );
    const fetched = (id: string, status: string) => ({
      account: { id, company: 'ss', currency: 'NOK' },
      status: { status, at: listed },
      transactions: [],
      stillPending: new Set<string>(),
      balances: [],
      fetchedTo: listed,
    });
    await store.statements.storeFetchedAll(ids.map((id) => fetched(id, 'enabled')));
    // An event after the list: ss-2 blocked. The next fetch read the list before it.
    expect(await store.accountStatus.record('ss-2', 'blocked', new Date('2026-04-02T06:00:05Z'))).toBe('recorded');
    await store.statements.storeFetchedAll([
      fetched('ss-1', 'disabled'),
      fetched('ss-2', 'enabled'),
      fetched('ss-3', 'disabled'),
    ]);
    expect((await store.accountStatus.list('ss')).map((a) => [a.accountId, a.status])).toEqual([
      ['ss-1', 'disabled'],
      ['ss-2', 'blocked'],
      ['ss-3', 'disabled'],
    ]);
    // The directory the pickup checks takes them too, the same way.
    const directory = async () =>
      (await store.bankAccounts.directory('ss'))?.accounts.map((a) => [a.accountId, a.status]);
    expect(await directory()).toEqual([
      ['ss-1', 'disabled'],
      ['ss-2', 'blocked'],
      ['ss-3', 'disabled'],
    ]);
    // An event dated before the stored status reaches neither.
    expect(await store.accountStatus.record('ss-1', 'enabled', new Date('2026-04-02T05:59:00Z'))).toBe('stale');
    expect((await directory())?.[0]).toEqual(['ss-1', 'disabled']);
  });

  it('writes several accounts a fetch read together, each its own, where their banks reuse a transaction id', async () => {
    const { store } = ctx();
    const repo = store.statements;
    const day = d('2026-04-01');
    const nok = (minor: bigint) => ({ minor, currency: 'NOK' });
    const booked = (id: string, minor: bigint) => ({
      bankTransactionId: id,
      status: 'booked' as const,
      amount: nok(minor),
      bookingDate: day,
    });
    const pending = (id: string, minor: bigint) => ({
      bankTransactionId: id,
      status: 'pending' as const,
      amount: nok(minor),
    });
    const at = new Date('2026-04-02T06:00:00Z');
    const account = (id: string) => ({ id, company: 'sfa', currency: 'NOK' });
    // Two accounts whose banks both number their entries from B-1, each with a pending entry.
    const first = await repo.storeFetchedAll([
      {
        account: account('sfa-a'),
        transactions: [booked('B-1', -100n), pending('P-1', -5n)],
        stillPending: new Set(['P-1']),
        balances: [{ type: 'closingBooked', referenceDate: day, amount: nok(1_000n) }],
        fetchedTo: at,
      },
      {
        account: account('sfa-b'),
        transactions: [booked('B-1', -200n), booked('B-2', -300n), pending('P-1', -7n)],
        stillPending: new Set(['P-1']),
        balances: [{ type: 'closingBooked', referenceDate: day, amount: nok(2_000n) }],
        fetchedTo: at,
      },
    ]);
    expect(first).toEqual([
      { inserted: 2, updated: 0, unchanged: 0, pendingResolved: [] },
      { inserted: 3, updated: 0, unchanged: 0, pendingResolved: [] },
    ]);
    const amounts = async (id: string) =>
      (await repo.listTransactions(id)).map((t) => `${t.bankTransactionId} ${t.amount.minor}`).sort();
    expect(await amounts('sfa-a')).toEqual(['B-1 -100', 'P-1 -5']);
    expect(await amounts('sfa-b')).toEqual(['B-1 -200', 'B-2 -300', 'P-1 -7']);

    // The next fetch: a's B-1 changed and its pending entry is still listed; b's entries are the
    // same, but its pending one is gone (booked as B-3). Each account is answered for itself.
    const later = new Date('2026-04-03T06:00:00Z');
    const next = await repo.storeFetchedAll([
      {
        account: account('sfa-a'),
        transactions: [{ ...booked('B-1', -100n), remittance: 'invoice 7' }, pending('P-1', -5n)],
        stillPending: new Set(['P-1']),
        balances: [],
        fetchedTo: later,
      },
      {
        account: account('sfa-b'),
        transactions: [booked('B-1', -200n), booked('B-2', -300n), booked('B-3', -7n)],
        stillPending: new Set(),
        balances: [{ type: 'closingBooked', referenceDate: day, amount: nok(1_993n) }],
        fetchedTo: later,
      },
    ]);
    expect(next).toEqual([
      { inserted: 0, updated: 1, unchanged: 1, pendingResolved: [] },
      { inserted: 1, updated: 0, unchanged: 2, pendingResolved: ['P-1'] },
    ]);
    expect(await amounts('sfa-a')).toEqual(['B-1 -100', 'P-1 -5']);
    expect(await amounts('sfa-b')).toEqual(['B-1 -200', 'B-2 -300', 'B-3 -7']);
    expect(await repo.getBalance('sfa-a', 'closingBooked', day)).toEqual(nok(1_000n));
    expect(await repo.getBalance('sfa-b', 'closingBooked', day)).toEqual(nok(1_993n));
    expect(await repo.fetchedTo('sfa-a')).toEqual(later);
    expect(await repo.fetchedTo('sfa-b')).toEqual(later);
    expect(await repo.storeFetchedAll([])).toEqual([]);
  });
}
