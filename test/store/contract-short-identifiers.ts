// Part of the repository contract (repository-contract.ts): the stand-ins written for ids longer
// than their ISO 20022 field map back to the full ids (migration 0630).
import { expect, it } from 'vitest';
import { fitIdentifier } from '../../src/domain/iso-identifier.js';
import type { ContractContext } from './contract-approval-reporting.js';

export function shortIdentifierCases(ctx: () => ContractContext): void {
  it('maps a stand-in back to its full id, and keeps the first pair when one is written again', async () => {
    const { shortIdentifiers } = ctx().store;
    const full = '0b6f3a52-9c1d-4e8f-a7b2-3c4d5e6f7a8b';
    const { value: short } = fitIdentifier(full, 35);
    expect(short).not.toBe(full);
    expect(await shortIdentifiers.fullId(short)).toBeUndefined();
    await shortIdentifiers.remember([{ short, full }]);
    await shortIdentifiers.remember([{ short, full }]);
    expect(await shortIdentifiers.fullId(short)).toBe(full);
  });
}
