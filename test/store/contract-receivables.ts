// Part of the repository contract (repository-contract.ts): open receivables from the ERP's
// files. Called inside the contract's describe block.
import { expect, it } from 'vitest';
import { toLocalDate } from '../../src/domain/local-date.js';
import type { Store } from '../../src/store/index.js';

export function receivableCases(ctx: () => { store: Store }): void {
  it('imports a receivables file once, and a later file updates an invoice instead of adding it twice', async () => {
    const { store } = ctx();
    const file = { company: 'rcv-co', sha256: 'a'.repeat(64), fileName: 'open-items.csv' };
    const line = {
      invoice: 'INV-1',
      customer: 'Kunde Nord AS',
      amount: { minor: 9_007_199_254_740_993n, currency: 'NOK' },
      reference: '1002003018',
      dueDate: toLocalDate('2026-01-20'),
      line: 2,
    };
    expect(await store.receivables.findFile('rcv-co', file.sha256)).toBeUndefined();
    expect(await store.receivables.importFile(file, [line, { ...line, invoice: 'INV-2', line: 3 }])).toBe(true);
    expect(await store.receivables.findFile('rcv-co', file.sha256)).toEqual({
      fileName: 'open-items.csv',
      receivedAt: expect.any(Date),
    });
    expect(await store.receivables.importFile(file, [line])).toBe(false);
    const later = { ...file, sha256: 'b'.repeat(64) };
    const { reference: _dropped, ...withoutReference } = line;
    await store.receivables.importFile(later, [
      { ...withoutReference, amount: { minor: 500n, currency: 'NOK' }, line: 7 },
    ]);
    const listed = await store.receivables.list('rcv-co');
    expect(listed.map((r) => [r.invoice, r.amount.minor, r.reference, r.line, r.fileSha256[0]])).toEqual([
      ['INV-1', 500n, undefined, 7, 'b'],
      ['INV-2', 9_007_199_254_740_993n, '1002003018', 3, 'a'],
    ]);
    expect(await store.receivables.list('other-co')).toEqual([]);
  });
}
