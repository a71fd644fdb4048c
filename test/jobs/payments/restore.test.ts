// A database restored from a backup older than the bank's idempotency retention must not pay
// again: the bulk the backup still has as `pending` is looked up at the bank before its POST and
// found there. Against the sandbox bank over HTTP; the backup is a real copy of the SQLite file.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { createStore, openDatabase } from '../../../src/store/index.js';
import { bankBulks, createWorld, type World } from './world.js';

const RETENTION_MS = 24 * 3600_000;

describe('submit after a database restore', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('does not send again a bulk that a database restored from an older backup still has as not sent', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}, {}]);
    const backup = join(w.dir, 'backup.sqlite');
    await w.db.knex.raw('VACUUM INTO ?', [backup]);
    expect((await runSubmit(w.deps('a'), [w.company])).bulks.map((b) => b.outcome)).toEqual(['sent']);
    const [atBank] = await bankBulks(w);
    w.advance(RETENTION_MS + 3600_000); // past the retention; the bank has started settling (pending debits)

    const restored = await openDatabase({ url: `sqlite:${backup}` });
    try {
      await restored.migrate();
      const store = createStore(restored, w.clock);
      expect((await store.bulks.listByFile(fileId)).map((b) => b.state)).toEqual([]); // planned after the backup
      const again = await runSubmit(w.deps('b', { store }), [w.company]);
      expect(again.bulks.map((b) => [b.outcome, b.bankPaymentId])).toEqual([['found', atBank!.paymentId]]);
      expect(again.bulks[0]!.explanation).toMatch(/database is older than the bank's records/);
      expect(await bankBulks(w)).toHaveLength(1);
      const [bulk] = await store.bulks.listByFile(fileId);
      expect(bulk).toMatchObject({ state: 'sent', bankPaymentId: atBank!.paymentId });
      // Running again changes nothing.
      expect((await runSubmit(w.deps('c', { store }), [w.company])).bulks).toEqual([]);
      expect(await bankBulks(w)).toHaveLength(1);
    } finally {
      await restored.close();
    }
  });

  it('sends a bulk of an old file that the bank does not have, after looking', async () => {
    await w.acceptFile('late.csv', [{ requestedExecutionDate: '2026-01-09' as never }]);
    w.advance(RETENTION_MS + 3600_000); // e.g. the bank was down for a day after the file arrived
    const summary = await runSubmit(w.deps('a'), [w.company]);
    expect(summary.bulks.map((b) => b.outcome)).toEqual(['sent']);
    expect(await bankBulks(w)).toHaveLength(1);
  });
});
