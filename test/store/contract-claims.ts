// Part of the repository contract (repository-contract.ts): claims of work rows by several
// instances at once. Every row goes to exactly one claimer, and claimers that stop at their
// first empty answer (as a job does: "no work left") leave nothing for the next night, even
// while another writer keeps touching the rows.
import { expect, it } from 'vitest';
import { createStore, openDatabase, type Store } from '../../src/store/index.js';
import type { ContractContext } from './contract-approval-reporting.js';
import { pendingBulks } from './fixtures.js';

export interface ClaimContext extends ContractContext {
  target: { url: string; dataDir?: string };
}

export function claimCases(ctx: () => ClaimContext): void {
  it('claimers that stop at their first empty answer leave no row behind and share none', async () => {
    const { store, clock, target } = ctx();
    const { fileId, ids } = await pendingBulks(store, 'claims-left', 48);
    // A second handle with its own connections, as a second settle instance would have.
    const otherDb = await openDatabase({ url: target.url, ...(target.dataDir ? { dataDir: target.dataDir } : {}) });
    const other = createStore(otherDb, clock);
    let writing = true;
    try {
      // Status writes on the same rows meanwhile: on MariaDB each locks its row for a moment.
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          await otherDb
            .knex('bulks')
            .where({ id: ids[i % ids.length]! })
            .update({ updated_at: new Date(Date.UTC(2026, 0, 5, 8, 0, i % 60)).toISOString() });
        }
      })();
      const claimer = async (s: Store, holder: string) => {
        const got: string[] = [];
        for (;;) {
          const rows = await s.claim('bulks', {
            where: { state: 'pending', file_id: fileId },
            limit: 2,
            holder,
            leaseMs: 60_000,
          });
          if (rows.length === 0) return got;
          for (const r of rows) expect(r.lease_holder).toBe(holder);
          got.push(...rows.map((r) => String(r.id)));
        }
      };
      const results = await Promise.all(
        ['a-1', 'b-1', 'a-2', 'b-2', 'a-3', 'b-3'].map((h, i) => claimer(i % 2 === 0 ? store : other, h)),
      );
      writing = false;
      await writer;
      const all = results.flat();
      expect(all).toHaveLength(ids.length);
      expect([...all].sort()).toEqual(ids);
      const free = await store.claim('bulks', {
        where: { file_id: fileId },
        limit: 100,
        holder: 'late',
        leaseMs: 60_000,
      });
      expect(free).toEqual([]);
    } finally {
      writing = false;
      await otherDb.close();
    }
  });

  it('returns only the rows this claim took, not those its holder already held', async () => {
    const { store } = ctx();
    const { fileId, ids } = await pendingBulks(store, 'claims-token', 5);
    const where = { file_id: fileId };
    const first = await store.claim('bulks', { where, limit: 2, holder: 'h', leaseMs: 60_000 });
    const second = await store.claim('bulks', { where, limit: 2, holder: 'h', leaseMs: 60_000 });
    const third = await store.claim('bulks', { where, limit: 2, holder: 'h', leaseMs: 60_000 });
    expect(first.map((r) => r.id)).toEqual(ids.slice(0, 2));
    expect(second.map((r) => r.id)).toEqual(ids.slice(2, 4));
    expect(third.map((r) => r.id)).toEqual(ids.slice(4));
    expect(new Set([first, second, third].map((rows) => rows[0]!.lease_token)).size).toBe(3);
  });
}
