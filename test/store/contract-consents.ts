// Part of the repository contract (repository-contract.ts): the consents table, one row per
// (company, bank). Called inside the contract's describe block.
import { expect, it } from 'vitest';
import type { ContractContext } from './contract-approval-reporting.js';

const DAY = 86_400_000;

export function consentCases(ctx: () => ContractContext): void {
  it('keeps one consent per company and bank, replaced by a newer report and never by an older one', async () => {
    const { store, clock } = ctx();
    const now = clock.now();
    const base = { company: 'acme', bankId: 'testbank', source: 'bank' as const };
    const expires = new Date(now.getTime() + 5 * DAY);
    expect(
      await store.consents.record({
        ...base,
        consentId: 'c-1',
        status: 'Authorized',
        expiresAt: expires,
        statusAt: now,
      }),
    ).toBe('recorded');
    await store.consents.record({
      ...base,
      bankId: 'nordbank',
      consentId: 'c-2',
      status: 'AwaitingApproval',
      statusAt: now,
    });
    const older = new Date(now.getTime() - 1000);
    expect(await store.consents.record({ ...base, consentId: 'c-0', status: 'Expired', statusAt: older })).toBe(
      'stale',
    );
    expect((await store.consents.list('acme')).map((c) => [c.bankId, c.consentId, c.status])).toEqual([
      ['nordbank', 'c-2', 'AwaitingApproval'],
      ['testbank', 'c-1', 'Authorized'],
    ]);
    const [first] = await store.consents.list('acme');
    expect(first?.expiresAt).toBeUndefined();
    expect((await store.consents.list('acme'))[1]?.expiresAt?.toISOString()).toBe(expires.toISOString());

    expect((await store.consents.expiringBy(new Date(now.getTime() + 7 * DAY))).map((c) => c.consentId)).toEqual([
      'c-1',
    ]);
    expect(await store.consents.expiringBy(new Date(now.getTime() + DAY))).toEqual([]);

    expect(await store.consents.updateStatus('c-1', 'Revoked', new Date(now.getTime() + 1000))).toBe(true);
    expect(await store.consents.updateStatus('c-1', 'Authorized', older)).toBe(true);
    expect(await store.consents.updateStatus('c-unknown', 'Revoked', now)).toBe(false);
    const revoked = (await store.consents.list('acme')).find((c) => c.bankId === 'testbank');
    expect(revoked).toMatchObject({ consentId: 'c-1', status: 'Revoked', source: 'event' });
    expect(await store.consents.expiringBy(new Date(now.getTime() + 7 * DAY))).toEqual([]);
  });

  it('lets two writers record the same new pair at once without an error', async () => {
    const { store, clock } = ctx();
    const at = clock.now();
    const results = await Promise.all(
      ['x-1', 'x-2', 'x-3'].map((consentId) =>
        store.consents.record({
          company: 'race',
          bankId: 'testbank',
          consentId,
          status: 'Authorized',
          statusAt: at,
          source: 'bank',
        }),
      ),
    );
    expect(results).toContain('recorded');
    expect(await store.consents.list('race')).toHaveLength(1);
  });
}
