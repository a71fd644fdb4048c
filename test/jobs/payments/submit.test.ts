import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStatus } from '../../../jobs/status/poll.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { captureQueries } from '../../support/query-plan.js';
import { bankBulks, createWorld, type World } from './world.js';

describe('the submit job', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('sends an accepted file as one bulk with its stored key, and the lines reach ACSC after the execution date', async () => {
    const fileId = await w.acceptFile('pay-1.csv', [{}, { amount: { minor: 25_050n, currency: 'NOK' } }]);
    const summary = await runSubmit(w.deps(), [w.company]);
    expect(summary.planned).toBe(1);
    expect(summary.bulks.map((b) => b.outcome)).toEqual(['sent']);
    const [bulk] = await w.store.bulks.listByFile(fileId);
    expect(bulk).toMatchObject({ state: 'sent', bankStatus: 'RCVD', bankPaymentId: summary.bulks[0]!.bankPaymentId });
    const atBank = await bankBulks(w);
    expect(atBank).toHaveLength(1);
    expect(atBank[0]!.idempotencyKey).toBe(bulk!.idempotencyKey);
    expect(atBank[0]!.paymentLines.map((l) => l.endToEndIdentification)).toEqual(['E2E-1-1', 'E2E-1-2']);

    w.advance(3 * 24 * 3600_000); // past 2026-01-07 00:00 Oslo
    const status = await runStatus(w.deps('run-2'), [w.company]);
    expect(status.polled).toBe(1);
    const lines = await w.store.payments.listByFile(fileId);
    expect(lines.map((l) => l.state)).toEqual(['ACSC', 'ACSC']);
    expect((await w.store.bulks.get(bulk!.id))!.state).toBe('done');
    expect((await w.store.files.getFile(fileId))!.state).toBe('completed');
  });

  it("records each line's status from the POST's answer, and a poll that reports the same writes nothing for the lines", async () => {
    const fileId = await w.acceptFile('pay-1.csv', [{}, {}]);
    await runSubmit(w.deps(), [w.company]);
    const lines = await w.store.payments.listByFile(fileId);
    expect(lines.map((l) => [l.state, l.bankStatus])).toEqual([
      ['RCVD', 'RCVD'],
      ['RCVD', 'RCVD'],
    ]);
    const history = async () => (await w.store.transitions('payment', lines[1]!.id)).map((t) => [t.to, t.source]);
    expect(await history()).toEqual([
      ['queued', 'submit'],
      ['RCVD', 'submit'],
    ]);
    // The bank has not moved on: the poll reads the bulk and changes nothing.
    const status = await runStatus(w.deps('run-2'), [w.company]);
    expect(status).toMatchObject({ polled: 1, changed: 0 });
    expect(await history()).toEqual([
      ['queued', 'submit'],
      ['RCVD', 'submit'],
    ]);
  });

  it('splits a file by debtor account and execution date, at most maxLinesPerBulk lines per bulk', async () => {
    await w.close();
    w = await createWorld({ company: { payments: { maxLinesPerBulk: 2 } } });
    await w.acceptFile('pay.csv', [{}, {}, {}, { requestedExecutionDate: '2026-01-08' as never }]);
    const summary = await runSubmit(w.deps(), [w.company]);
    expect(summary.planned).toBe(3);
    const atBank = await bankBulks(w);
    expect(atBank.map((b) => b.paymentLines.length).sort()).toEqual([1, 1, 2]);
  });

  it('claims each batch of bulks without naming the bulks it already sent', async () => {
    await w.close();
    w = await createWorld({ company: { payments: { maxLinesPerBulk: 1 } } });
    await w.acceptFile(
      'many.csv',
      Array.from({ length: 70 }, () => ({})),
    );
    const queries = captureQueries(w.db);
    const summary = await runSubmit(w.deps(), [w.company]);
    expect(summary.bulks.map((b) => b.outcome)).toEqual(Array.from({ length: 70 }, () => 'sent'));
    expect(await bankBulks(w)).toHaveLength(70);
    // The candidates' reads of the claims (three batches of at most 32, and the one that finds none):
    // none binds an id, where each used to bind every bulk the run had tried (at maxLinesPerBulk 1,
    // the 32,767th bulk of a run was more values than SQLite binds).
    const claims = queries.filter(
      (q) => /^select [`"]?id[`"]? from [`"]?bulks[`"]?/i.test(q.sql) && /lease_expires_at/.test(q.sql),
    );
    expect(claims.length).toBeGreaterThanOrEqual(4);
    for (const claim of claims) expect(claim.sql).not.toMatch(/not in/i);
  });

  it('running submit again sends nothing twice', async () => {
    await w.acceptFile('pay.csv', [{}, {}]);
    await runSubmit(w.deps('a'), [w.company]);
    const again = await runSubmit(w.deps('b'), [w.company]);
    expect(again.planned).toBe(0);
    expect(again.bulks).toEqual([]);
    expect(await bankBulks(w)).toHaveLength(1);
  });

  it('rejects a bulk from an account that is not onboarded and explains it for an accountant', async () => {
    const fileId = await w.acceptFile('pay.csv', [{ debtorIban: 'NO5015031234570' }]);
    const summary = await runSubmit(w.deps(), [w.company]);
    expect(summary.bulks[0]).toMatchObject({ outcome: 'rejected' });
    expect(summary.bulks[0]!.explanation).toMatch(/not onboarded for company acme/);
    expect(summary.bulks[0]!.explanation).not.toContain('NO5015031234570');
    const [bulk] = await w.store.bulks.listByFile(fileId);
    expect(bulk!.state).toBe('rejected');
    expect(bulk!.lastProblem).toMatchObject({ status: 404, title: 'Account not found' });
    expect((await w.store.payments.listByFile(fileId)).map((p) => p.state)).toEqual(['RJCT']);
    expect(await bankBulks(w)).toHaveLength(0);
  });

  it('rejects a bulk whose execution date is not in the future, saying so', async () => {
    await w.acceptFile('pay.csv', [{ requestedExecutionDate: '2026-01-05' as never }]);
    const summary = await runSubmit(w.deps(), [w.company]);
    expect(summary.bulks[0]).toMatchObject({ outcome: 'rejected' });
    expect(summary.bulks[0]!.explanation).toMatch(/execution date 2026-01-05/);
  });

  // The chaos run's case: a file left in the inbox until its own execution date. The bank holds
  // nothing of it, and settle never sends it again on later nights: the ERP learns RJCT and decides.
  it('a file read on its own execution date is refused once, its lines RJCT, and later runs never send it again', async () => {
    const fileId = await w.acceptFile('late.csv', [
      { requestedExecutionDate: '2026-01-05' as never },
      { requestedExecutionDate: '2026-01-05' as never },
    ]);
    const first = await runSubmit(w.deps('a'), [w.company]);
    expect(first.bulks.map((b) => b.outcome)).toEqual(['rejected']);
    w.advance(24 * 3600_000);
    expect((await runSubmit(w.deps('b'), [w.company])).bulks).toEqual([]);
    expect(await bankBulks(w)).toEqual([]);
    const lines = await w.store.payments.listByFile(fileId);
    expect(lines.map((l) => l.state)).toEqual(['RJCT', 'RJCT']);
  });

  it('a response lost after the bank committed is retried with the same key: one payment at the bank', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}, {}]);
    // Every attempt of this run loses its answer (the client's own retries included).
    await w.control('/faults', { faults: [{ route: 'POST /api/bulk-payments/*', kind: 'lostResponse', count: 10 }] });
    const first = await runSubmit(w.deps('a'), [w.company]);
    expect(first.bulks[0]!.outcome).toBe('sending');
    await w.control('/faults', undefined, 'DELETE');
    const second = await runSubmit(w.deps('b'), [w.company]);
    expect(second.bulks[0]!.outcome).toBe('replayed');
    const atBank = await bankBulks(w);
    expect(atBank).toHaveLength(1);
    const [bulk] = await w.store.bulks.listByFile(fileId);
    expect(bulk).toMatchObject({ state: 'sent', bankPaymentId: atBank[0]!.paymentId });
  });

  it('a burst of 503s is outlasted by the client retries; a longer outage leaves the bulk queued, then sent once', async () => {
    await w.acceptFile('pay.csv', [{}]);
    await w.control('/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'error', status: 503, count: 2 }],
    });
    expect((await runSubmit(w.deps('a'), [w.company])).bulks[0]!.outcome).toBe('sent');
    await w.acceptFile('pay2.csv', [{}]);
    await w.control('/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'error', status: 503, count: 50 }],
    });
    expect((await runSubmit(w.deps('b'), [w.company])).bulks.map((b) => b.outcome)).toEqual(['retry']);
    await w.control('/faults', undefined, 'DELETE');
    expect((await runSubmit(w.deps('c'), [w.company])).bulks.map((b) => b.outcome)).toEqual(['sent']);
    expect(await bankBulks(w)).toHaveLength(2);
  });

  it('429 with Retry-After is honoured by the client and the bulk goes through once', async () => {
    await w.acceptFile('pay.csv', [{}]);
    await w.control('/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'rateLimit', retryAfterSeconds: 1, count: 1 }],
    });
    expect((await runSubmit(w.deps(), [w.company])).bulks[0]!.outcome).toBe('sent');
    expect(await bankBulks(w)).toHaveLength(1);
  });

  it('after the idempotency retention the bulk becomes unknown and is never re-sent; a lookup finds it once the bank settles it', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}]);
    await w.control('/faults', { faults: [{ route: 'POST /api/bulk-payments/*', kind: 'lostResponse', count: 10 }] });
    expect((await runSubmit(w.deps('a'), [w.company])).bulks[0]!.outcome).toBe('sending');
    await w.control('/faults', undefined, 'DELETE');
    w.advance(25 * 3600_000); // past the 24 h retention; the bank has started settling (ACSP → pending tx)
    const second = await runSubmit(w.deps('b'), [w.company]);
    const outcomes = second.bulks.map((b) => b.outcome);
    expect(outcomes[0]).toBe('unknown');
    // The resolve step in the same run finds the line among the account's transactions.
    expect(outcomes[1]).toBe('found');
    const atBank = await bankBulks(w);
    expect(atBank).toHaveLength(1);
    const [bulk] = await w.store.bulks.listByFile(fileId);
    expect(bulk).toMatchObject({ state: 'sent', bankPaymentId: atBank[0]!.paymentId });
  });

  it('an unknown bulk that never reached the bank is handed to a person after its execution date, never re-sent', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}]);
    // 500s are answered before any work: the bank never has it, but settle cannot know that.
    await w.control('/faults', {
      faults: [{ route: 'POST /api/bulk-payments/*', kind: 'error', status: 500, count: 100 }],
    });
    expect((await runSubmit(w.deps('a'), [w.company])).bulks[0]!.outcome).toBe('sending');
    await w.control('/faults', undefined, 'DELETE');
    w.advance(25 * 3600_000);
    const second = await runSubmit(w.deps('b'), [w.company]);
    expect(second.bulks.map((b) => b.outcome)).toEqual(['unknown', 'unknown']);
    w.advance(5 * 24 * 3600_000); // past 2026-01-07 + 3 days
    const third = await runSubmit(w.deps('c'), [w.company]);
    expect(third.bulks.map((b) => b.outcome)).toEqual(['attention']);
    const [bulk] = await w.store.bulks.listByFile(fileId);
    expect(bulk!.state).toBe('attention');
    expect(await bankBulks(w)).toHaveLength(0);
    expect((await runSubmit(w.deps('d'), [w.company])).bulks).toEqual([]);
  });
});
