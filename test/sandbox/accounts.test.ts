import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isValidIBAN } from 'ibantools';
import { harness, SEED, type Harness, type Json } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ pageSize: 2 });
});
afterAll(async () => h.close());
beforeEach(() => h.reset());

async function follow(path: string, pick: (body: Json) => { items: Json[]; next: Json }): Promise<Json[]> {
  const all: Json[] = [];
  let url: string | undefined = path;
  let pages = 0;
  while (url) {
    const r = await h.call('GET', url);
    expect(r.status).toBe(200);
    const { items, next } = pick(r.body);
    all.push(...items);
    url = next?.href;
    if (++pages > 20) throw new Error('paging does not end');
  }
  return all;
}

describe('accounts', () => {
  it('lists the NOK accounts of the seeded company at two banks, one not yet enabled, with valid Norwegian IBANs', async () => {
    const r = await h.call('GET', '/accounts');
    expect(r.status).toBe(200);
    const next = await h.call('GET', r.body._links.next.href);
    const all = [...(r.body.accounts as Json[]), ...(next.body.accounts as Json[])];
    expect(all.map((a: Json) => [a.id, a.iban, a.currency, a.status, a.bankId])).toEqual([
      [SEED.operatingAccountId, SEED.operatingIban, 'NOK', 'enabled', 'testbank'],
      [SEED.approvalAccountId, SEED.approvalIban, 'NOK', 'enabled', 'testbank'],
      [SEED.nordbankAccountId, SEED.nordbankIban, 'NOK', 'enabled', 'nordbank'],
      [SEED.pendingAccountId, SEED.pendingIban, 'NOK', 'disabled', 'nordbank'],
    ]);
    expect(next.body._links.next).toBeNull();
    for (const a of all) expect(isValidIBAN(String(a.iban))).toBe(true);
    expect(r.body.accounts[0].balances).toBeUndefined();
  });

  it('includes balances only with withBalance=true, as of balanceDate', async () => {
    const r = await h.call('GET', '/accounts?withBalance=true&balanceDate=2026-01-02');
    expect(r.body.accounts[0].balances).toEqual([
      {
        balanceAmount: { currency: 'NOK', amount: '2544001.00' },
        balanceType: 'closingBooked',
        referenceDate: '2026-01-02',
        lastChangeDate: '2026-01-02',
      },
    ]);
    expect((await h.call('GET', '/accounts?withBalance=maybe')).status).toBe(400);
  });

  it('filters by iban, bban and search text', async () => {
    expect(
      (await h.call('GET', `/accounts?iban=${SEED.approvalIban.toLowerCase()}`)).body.accounts.map((a: Json) => a.id),
    ).toEqual([SEED.approvalAccountId]);
    expect(
      (await h.call('GET', `/accounts?bban=${SEED.operatingIban.slice(4)}`)).body.accounts.map((a: Json) => a.id),
    ).toEqual([SEED.operatingAccountId]);
    expect((await h.call('GET', '/accounts?search=pre-approved')).body.accounts).toHaveLength(1);
  });

  it('pages with cursor links until next is null', async () => {
    const r = await h.call('GET', '/accounts', { scope: false, headers: { scopes: '/' } });
    // Scopes "/" covers the one subscription of the client: four accounts, two pages of two.
    expect(r.body.accounts).toHaveLength(2);
    expect(
      (await h.call('GET', r.body._links.next.href, { scope: false, headers: { scopes: '/' } })).body._links.next,
    ).toBeNull();
    const small = await harness({ pageSize: 1 });
    try {
      const first = await small.call('GET', '/accounts');
      expect(first.body.accounts).toHaveLength(1);
      expect(first.body._links.next.href).toContain('cursor=');
      let page = await small.call('GET', first.body._links.next.href);
      expect(page.body.accounts[0].id).toBe(SEED.approvalAccountId);
      const ids = [first.body.accounts[0].id, page.body.accounts[0].id];
      while (page.body._links.next !== null) {
        page = await small.call('GET', page.body._links.next.href);
        ids.push(page.body.accounts[0].id);
      }
      expect(ids).toEqual([
        SEED.operatingAccountId,
        SEED.approvalAccountId,
        SEED.nordbankAccountId,
        SEED.pendingAccountId,
      ]);
      expect(page.body._links.previous).not.toBeNull();
      expect((await small.call('GET', '/accounts?cursor=garbage')).status).toBe(400);
    } finally {
      await small.close();
    }
  });

  it('reads one account, with balances, and answers 404 problem details for an unknown one', async () => {
    const r = await h.call('GET', `/accounts/${SEED.operatingAccountId}`);
    expect(r.body).toMatchObject({
      id: SEED.operatingAccountId,
      iban: SEED.operatingIban,
      currency: 'NOK',
      status: 'enabled',
    });
    expect(r.body.balances.map((b: Json) => b.balanceType)).toEqual([
      'closingBooked',
      'interimBooked',
      'interimAvailable',
    ]);
    const missing = await h.call('GET', '/accounts/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ title: 'Account not found', status: 404 });
  });

  it('needs a data-access context: 400 for a list, 404 for an account, when no context header is sent', async () => {
    expect((await h.call('GET', '/accounts', { scope: false })).status).toBe(400);
    expect((await h.call('GET', `/accounts/${SEED.operatingAccountId}`, { scope: false })).status).toBe(404);
    expect((await h.call('GET', '/accounts', { headers: { 'subscription-id': 'bad name!' } })).status).toBe(400);
    expect((await h.call('GET', '/accounts', { headers: { scopes: '/' } })).status).toBe(400); // Scopes excludes Subscription-Id
    const narrowed = await h.call('GET', '/accounts', {
      scope: false,
      headers: { scopes: `/subscriptions/${SEED.subscriptionId}/resource-groups/${SEED.resourceGroupName}` },
    });
    expect(narrowed.body.accounts).toHaveLength(2);
    expect(
      (
        await h.call('GET', '/accounts', {
          scope: false,
          headers: { scopes: `/subscriptions/${SEED.otherSubscriptionId}` },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await h.call('GET', `/accounts/${SEED.operatingAccountId}`, {
          scope: false,
          headers: { 'consent-id': SEED.consentId },
        })
      ).status,
    ).toBe(200);
  });

  it('deletes an account with 202 and no body; it is then gone', async () => {
    const r = await h.call('DELETE', `/accounts/${SEED.approvalAccountId}`);
    expect(r.status).toBe(202);
    expect(r.text).toBe('');
    expect((await h.call('GET', `/accounts/${SEED.approvalAccountId}`)).status).toBe(404);
  });
});

describe('balances', () => {
  it('gives one closingBooked per past day and interim balances for today', async () => {
    const r = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/balances?dateFrom=2026-01-03&dateTo=2026-01-05`,
    );
    expect(r.body.account.iban).toBe(SEED.operatingIban);
    const all = [
      ...r.body.balances,
      ...(r.body._links.next ? (await h.call('GET', r.body._links.next.href)).body.balances : []),
    ];
    expect(all.map((b: Json) => `${b.referenceDate}:${b.balanceType}`)).toEqual([
      '2026-01-03:closingBooked',
      '2026-01-04:closingBooked',
      '2026-01-05:interimBooked',
      '2026-01-05:interimAvailable',
    ]);
  });

  it('filters by type and refuses an unknown type or an inverted range', async () => {
    const r = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/balances?dateFrom=2026-01-01&type=interimavailable`,
    );
    expect(r.body.balances.map((b: Json) => b.balanceType)).toEqual(['interimAvailable']);
    expect((await h.call('GET', `/accounts/${SEED.operatingAccountId}/balances?type=fancy`)).status).toBe(400);
    expect(
      (await h.call('GET', `/accounts/${SEED.operatingAccountId}/balances?dateFrom=2026-01-05&dateTo=2026-01-01`))
        .status,
    ).toBe(400);
  });
});

describe('transactions', () => {
  it('requires dateFrom and bookingStatus', async () => {
    expect((await h.call('GET', `/accounts/${SEED.operatingAccountId}/transactions?bookingStatus=booked`)).status).toBe(
      400,
    );
    expect((await h.call('GET', `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-01`)).status).toBe(
      400,
    );
    expect(
      (
        await h.call(
          'GET',
          `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-01&bookingStatus=sideways`,
        )
      ).status,
    ).toBe(400);
  });

  it('pages booked transactions with _links nested inside transactions, in booking order', async () => {
    const all = await follow(
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2025-12-01T00:00:00Z&bookingStatus=BOOKED`,
      (b) => ({
        items: b.transactions.booked,
        next: b.transactions._links.next,
      }),
    );
    expect(all).toHaveLength(6);
    expect(all.map((t: Json) => t.bookingDate)).toEqual([
      '2025-12-31',
      '2025-12-31',
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
    ]);
    expect(new Set(all.map((t: Json) => t.transactionId)).size).toBe(6);
  });

  it('books an incoming credit on request (control API), and refuses a bad one', async () => {
    const booked = await h.control('POST', '/credits', {
      account: SEED.operatingIban,
      amount: '12500.00',
      debtorName: 'Kunde Nord AS',
      reference: '1002003018',
      referenceType: 'KID',
      bookingDate: '2026-01-04',
    });
    expect(booked.status).toBe(201);
    const r = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-04&dateTo=2026-01-04&bookingStatus=booked`,
    );
    expect(r.body.transactions.booked.map((t: Json) => t.transactionId)).toContain(booked.body.transactionId);
    expect((await h.control('POST', '/credits', { account: SEED.operatingIban, amount: '-1' })).status).toBe(400);
    expect((await h.control('POST', '/credits', { account: 'NO6315061111112', amount: '1.00' })).status).toBe(404);
  });

  it('limits by dateFrom and dateTo, inclusive', async () => {
    const r = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-02&dateTo=2026-01-03&bookingStatus=booked`,
    );
    expect(r.body.transactions.booked.map((t: Json) => t.bookingDate)).toEqual(['2026-01-02', '2026-01-03']);
  });

  it('reads one transaction and 404s an unknown one', async () => {
    const list = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-04&bookingStatus=booked`,
    );
    const tx = list.body.transactions.booked[0];
    const r = await h.call('GET', `/accounts/${SEED.operatingAccountId}/transactions/${tx.transactionId}`);
    expect(r.body.transactionsDetails).toMatchObject({
      transactionId: tx.transactionId,
      transactionAmount: { currency: 'NOK', amount: '-990.00' },
    });
    expect((await h.call('GET', `/accounts/${SEED.operatingAccountId}/transactions/nope`)).status).toBe(404);
  });
});
