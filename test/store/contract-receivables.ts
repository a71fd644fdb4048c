// Part of the repository contract (repository-contract.ts): open receivables from the ERP's
// files. Called inside the contract's describe block.
import { expect, it } from 'vitest';
import { toLocalDate } from '../../src/domain/local-date.js';
import type { Store } from '../../src/store/index.js';

export function receivableCases(ctx: () => { store: Store }): void {
  it('imports a receivables file once; a later file updates an invoice, closes one it no longer lists, reopens one listed again', async () => {
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
    // The later file no longer lists INV-2: the ERP closed it; it is kept, marked closed.
    expect(listed.map((r) => [r.invoice, r.amount.minor, r.reference, r.line, r.fileSha256[0], r.closedAt])).toEqual([
      ['INV-1', 500n, undefined, 7, 'b', undefined],
      ['INV-2', 9_007_199_254_740_993n, '1002003018', 3, 'a', expect.any(Date)],
    ]);
    expect(await store.receivables.list('other-co')).toEqual([]);
    // Listed again by a third file, it is open again.
    await store.receivables.importFile({ ...file, sha256: 'c'.repeat(64) }, [{ ...line, invoice: 'INV-2', line: 2 }]);
    const again = await store.receivables.list('rcv-co');
    expect(again.map((r) => [r.invoice, r.closedAt === undefined])).toEqual([
      ['INV-1', false],
      ['INV-2', true],
    ]);
  });
}
