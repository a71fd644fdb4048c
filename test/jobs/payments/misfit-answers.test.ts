// Bank answers are checked, not trusted (issue #50 Must 4), through the sandbox: a bulk POST
// answered with a number for the paymentId is an unknown outcome — never stored as the bank's
// id, never sent again, resolved by lookup — and a status read with a misfit is a failed read.
import { beforeEach, describe, expect, it } from 'vitest';
import { runStatus } from '../../../jobs/status/poll.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { bankBulks, createWorld, type World } from './world.js';

describe('answers that do not fit the API', () => {
  let w: World;
  // The world is closed by the teardown beforeEach returns.
  beforeEach(async () => {
    w = await createWorld();
    return () => w.close();
  });

  it('a bulk POST answered {"paymentId": 12345} is unknown, never re-sent, and found by lookup', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}]);
    await w.control('/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'misfit', set: { paymentId: 12345 } }],
    });
    const first = await runSubmit(w.deps('a'), [w.company]);
    expect(first.bulks[0]).toMatchObject({ outcome: 'unknown' });
    expect(first.bulks[0]!.explanation).toMatch(/could not be read.*Nothing is re-sent/);
    const [bulk] = await w.store.bulks.listByFile(fileId);
    expect(bulk!.state).toBe('unknown');
    expect(bulk!.bankPaymentId ?? null).toBeNull();
    // The bank took it exactly once, whatever it answered.
    const atBank = await bankBulks(w);
    expect(atBank).toHaveLength(1);
    // Later runs look it up; none sends it again.
    w.advance(2 * 24 * 3600_000);
    const second = await runSubmit(w.deps('b'), [w.company]);
    expect(second.bulks.map((b) => b.outcome)).toEqual(['found']);
    expect(await bankBulks(w)).toHaveLength(1);
    const [after] = await w.store.bulks.listByFile(fileId);
    expect(after).toMatchObject({ state: 'sent', bankPaymentId: atBank[0]!.paymentId });
  });

  it('a status read with a misfit status is a failed read: nothing about the bulk changes', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}]);
    await runSubmit(w.deps('a'), [w.company]);
    const [sent] = await w.store.bulks.listByFile(fileId);
    await w.control('/faults', {
      faults: [{ route: 'GET /api/bulk-payments/**', kind: 'misfit', set: { transactionStatus: 7 } }],
    });
    w.advance(3 * 24 * 3600_000);
    const misread = await runStatus(w.deps('b'), [w.company]);
    expect(misread).toMatchObject({ failed: 1, changed: 0 });
    const [after] = await w.store.bulks.listByFile(fileId);
    expect(after).toMatchObject({ state: sent!.state, bankStatus: sent!.bankStatus });
    await w.control('/faults', undefined, 'DELETE');
    w.advance(3600_000); // past the poll's backoff
    expect(await runStatus(w.deps('c'), [w.company])).toMatchObject({ polled: 1, failed: 0 });
    expect((await w.store.bulks.get(sent!.id))!.state).toBe('done');
  });
});
