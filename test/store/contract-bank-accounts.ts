// Part of the repository contract (repository-contract.ts): each company's account directory as
// its banks list it, replaced as a whole by each read and kept with the time of that read.
import { expect, it } from 'vitest';
import type { ContractContext } from './contract-approval-reporting.js';

export function bankAccountCases(ctx: () => ContractContext): void {
  it('keeps the last read account list of a company with its time, replaced as a whole', async () => {
    const { store, clock } = ctx();
    expect(await store.bankAccounts.directory('multi')).toBeUndefined();
    const first = clock.now();
    await store.bankAccounts.replace(
      'multi',
      [
        {
          accountId: 'a-1',
          bankId: 'testbank',
          iban: 'no93 8601 1117 947',
          status: 'enabled',
          preApproval: true,
          numberOfApprovers: 2,
        },
        { accountId: 'a-2', bankId: 'nordbank', iban: 'NO7215031234562', status: 'disabled' },
      ],
      first,
    );
    await store.bankAccounts.replace('other', [{ accountId: 'a-9', status: 'enabled' }], first);
    const read = await store.bankAccounts.directory('multi');
    expect(read?.readAt.toISOString()).toBe(first.toISOString());
    expect(
      read?.accounts.map((a) => [a.accountId, a.bankId, a.iban, a.status, a.preApproval, a.numberOfApprovers]),
    ).toEqual([
      ['a-1', 'testbank', 'NO9386011117947', 'enabled', true, 2],
      ['a-2', 'nordbank', 'NO7215031234562', 'disabled', undefined, undefined],
    ]);
    const later = new Date(first.getTime() + 60_000);
    await store.bankAccounts.replace('multi', [], later);
    const empty = await store.bankAccounts.directory('multi');
    expect(empty?.accounts).toEqual([]);
    expect(empty?.readAt.toISOString()).toBe(later.toISOString());
    expect((await store.bankAccounts.directory('other'))?.accounts.map((a) => a.accountId)).toEqual(['a-9']);
  });
}
