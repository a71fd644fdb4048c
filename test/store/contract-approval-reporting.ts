// Part of the repository contract (repository-contract.ts): signing baskets, exports and
// statement continuity. Called inside the contract's describe block.
import { expect, it } from 'vitest';
import type { ManualClock } from '../../src/domain/clock.js';
import { isSettleError } from '../../src/domain/errors.js';
import type { Store } from '../../src/store/index.js';
import { payment, paymentFile, pendingBulks } from './fixtures.js';

export interface ContractContext {
  store: Store;
  clock: ManualClock;
}

export function approvalAndReportingCases(ctx: () => ContractContext): void {
  it('creates one basket per set of bulks and re-issues an approval link only after it expired', async () => {
    const { store, clock } = ctx();
    const stored = await store.files.recordAcceptedFile(paymentFile('basket-1'), [
      payment(1, { endToEndId: 'BK-1' }),
      payment(2, { endToEndId: 'BK-2' }),
    ]);
    const lines = await store.payments.listByFile(stored.id);
    const bulks = await store.bulks.createBulks(
      stored.id,
      lines.map((l, i) => ({
        position: i,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as never,
        batchBooking: true,
        paymentIds: [l.id],
      })),
    );
    const ids = bulks.map((b) => b.id);
    const basket = await store.baskets.create('acme', ids);
    expect((await store.baskets.create('acme', [...ids].reverse())).id).toBe(basket.id);
    expect(await store.baskets.bulkIds(basket.id)).toEqual([...ids].sort());

    await store.baskets.markCreated(basket.id, 'BASKET-1');
    const expiry = new Date(clock.now().getTime() + 7 * 86_400_000);
    await store.baskets.issueLink(basket.id, 'https://bank.example/sca/abc', expiry);
    let error: unknown;
    try {
      await store.baskets.issueLink(basket.id, 'https://bank.example/sca/again', expiry);
    } catch (e) {
      error = e;
    }
    expect(isSettleError(error, 'ERR_STATE_TRANSITION_ILLEGAL')).toBe(true);
    expect(await store.baskets.expireLinks()).toEqual([]);
    clock.advance(7 * 86_400_000);
    expect(await store.baskets.expireLinks()).toEqual([basket.id]);
    await store.baskets.issueLink(
      basket.id,
      'https://bank.example/sca/def',
      new Date(clock.now().getTime() + 86_400_000),
    );
    await store.baskets.markAuthorised(basket.id);
    expect(await store.baskets.get(basket.id)).toMatchObject({
      state: 'authorised',
      bankBasketId: 'BASKET-1',
      approvalLink: 'https://bank.example/sca/def',
    });
    expect((await store.transitions('basket', basket.id)).map((t) => t.to)).toEqual([
      'pending',
      'created',
      'link_issued',
      'expired',
      'link_issued',
      'authorised',
    ]);
  });

  it('reads for Approvals who dropped each file, when the current link was issued and when the bank approved', async () => {
    const { store, clock } = ctx();
    const stored = await store.files.recordAcceptedFile(paymentFile('dropped-1', { droppedBy: 'erp-sftp' }), [
      payment(1, { endToEndId: 'DR-1' }),
    ]);
    const lines = await store.payments.listByFile(stored.id);
    const [bulk] = await store.bulks.createBulks(stored.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as never,
        batchBooking: true,
        paymentIds: lines.map((l) => l.id),
      },
    ]);
    const marks = await store.consoleViews.approvalMarks('acme', lines);
    expect(marks.droppedBy.get(stored.id)).toBe('erp-sftp');
    expect((await store.files.listFiles({ company: 'acme' })).find((f) => f.id === stored.id)?.droppedBy).toBe(
      'erp-sftp',
    );
    const basket = await store.baskets.create('acme', [bulk!.id]);
    await store.baskets.markCreated(basket.id, 'BASKET-DR');
    await store.baskets.issueLink(
      basket.id,
      'https://bank.example/sca/dr1',
      new Date(clock.now().getTime() + 3_600_000),
    );
    clock.advance(2 * 3_600_000);
    await store.baskets.expireLinks();
    const reissued = clock.now();
    const expires = new Date(reissued.getTime() + 86_400_000);
    await store.baskets.issueLink(basket.id, 'https://bank.example/sca/dr2', expires);
    clock.advance(60_000);
    // The latest issue, not the first: the page reads the expiry against the current link's life.
    expect((await store.consoleViews.basket('acme', basket.id))?.approvalLinkIssuedAt).toEqual(reissued);
    const near = await store.today.linksExpiringBy('acme', new Date(expires.getTime() + 1));
    expect(near.rows.find((l) => l.basketId === basket.id)?.issuedAt).toEqual(reissued);
    expect(await store.consoleViews.basketHistory(basket.id)).toEqual({ linkShown: [] });
    await store.audit.append({
      actor: 'local:alma',
      action: 'approval.link_shown',
      subject: { type: 'basket', id: basket.id },
      origin: 'console@127.0.0.1',
    });
    await store.baskets.markAuthorised(basket.id);
    const history = await store.consoleViews.basketHistory(basket.id);
    expect(history.approvedAt).toEqual(clock.now());
    expect(history.linkShown.map((s) => s.actor)).toEqual(['local:alma']);
  });

  it("reads one company's bulks by state and its live baskets in the approve step's order", async () => {
    const { store } = ctx();
    const [a1, a2] = (await pendingBulks(store, 'scoped-a', 2, 'scoped-a')).ids;
    const [b1, b2] = (await pendingBulks(store, 'scoped-b', 2, 'scoped-b')).ids;
    const pending = (await store.bulks.listByState('pending', ['scoped-a'])).map((b) => b.id);
    expect(pending).toEqual([a1, a2]);
    expect((await store.bulks.listByState('pending', ['scoped-a', 'scoped-b'])).map((b) => b.id).sort()).toEqual(
      [a1, a2, b1, b2].sort(),
    );
    expect(await store.bulks.listByState('sent', ['scoped-a'])).toEqual([]);

    const older = await store.baskets.create('scoped-a', [a1!]);
    const newer = await store.baskets.create('scoped-a', [a2!]);
    await store.baskets.create('scoped-b', [b1!]);
    await store.baskets.markCreated(older.id, 'BASKET-SC-1');
    // pending first, then created: the order of the states asked for, oldest first within each.
    expect((await store.baskets.listInStates('scoped-a', ['pending', 'created'])).map((b) => b.id)).toEqual([
      newer.id,
      older.id,
    ]);
    expect((await store.baskets.listInStates('scoped-a', ['created', 'pending'])).map((b) => b.id)).toEqual([
      older.id,
      newer.id,
    ]);
    expect(await store.baskets.listInStates('scoped-c', ['pending'])).toEqual([]);
  });

  it('numbers re-exports of the same account day instead of replacing them', async () => {
    const { store } = ctx();
    const input = {
      company: 'acme',
      format: 'camt.053.001.02',
      subjectId: 'acct-x',
      period: '2026-01-05',
      fileName: 'a.xml',
      entryCount: 3,
    };
    expect(await store.exports.find('camt.053.001.02', 'acct-x', '2026-01-05')).toEqual([]);
    expect((await store.exports.record(input)).version).toBe(1);
    expect((await store.exports.record({ ...input, fileName: 'a-v2.xml' })).version).toBe(2);
    expect((await store.exports.find('camt.053.001.02', 'acct-x', '2026-01-05')).map((e) => e.fileName)).toEqual([
      'a.xml',
      'a-v2.xml',
    ]);
    // Which formats hold the period: one read for all of them, other subjects and periods apart.
    await store.exports.record({ ...input, format: 'csv-statement', subjectId: 'acct-y' });
    await store.exports.record({ ...input, format: 'csv-statement', period: '2026-01-06' });
    expect(
      await store.exports.formatsWith(['camt.053.001.02', 'csv-statement', 'pain.002.001.03'], 'acct-x', '2026-01-05'),
    ).toEqual(new Set(['camt.053.001.02']));
    expect(await store.exports.formatsWith([], 'acct-x', '2026-01-05')).toEqual(new Set());
  });

  it('keeps one continuity finding per account day, with exact balances', async () => {
    const { store } = ctx();
    await store.statements.upsertAccount({ id: 'acct-days', company: 'acme' });
    const day = {
      accountId: 'acct-days',
      day: '2026-01-05' as never,
      currency: 'NOK',
      openingMinor: 2n ** 62n,
      closingMinor: 2n ** 62n + 7n,
      bookedSumMinor: 7n,
      entryCount: 1,
      continuity: 'ok' as const,
    };
    await store.statementDays.record(day);
    await store.statementDays.record({ ...day, continuity: 'mismatch', finding: 'closing differs by 1.00' });
    expect(await store.statementDays.list('acct-days', '2026-01-01' as never, '2026-01-31' as never)).toEqual([
      { ...day, continuity: 'mismatch', finding: 'closing differs by 1.00' },
    ]);
  });
}
