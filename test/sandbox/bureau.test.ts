// A bureau in the sandbox: many organisations, each with its consent and accounts (valid
// Norwegian IBANs) and booked history; and the subscription's rate limit, answered 429 with
// Retry-After and counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkIban } from '../../src/domain/account-id.js';
import { bureauAccountId, bureauIban, bureauOrganisation } from '../../src/sandbox/bureau.js';
import { harness, SEED, type Harness, type Json } from './helpers.js';

describe('a bureau in the sandbox', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ bureau: { count: 40, accountsPerOrganisation: 3 }, rateLimitPerSecond: 5 });
  });
  afterAll(async () => h.close());

  it('generates distinct valid IBANs for a thousand organisations of three accounts', () => {
    const ibans = Array.from({ length: 1000 }, (_, i) => [0, 1, 2].map((j) => bureauIban(i, j))).flat();
    expect(new Set(ibans).size).toBe(3000);
    expect(ibans.filter((iban) => !checkIban(iban).ok)).toEqual([]);
  });

  it("lists each organisation's accounts and their booked history under its resource group", async () => {
    const headers = { 'subscription-id': SEED.subscriptionId, 'resource-group-name': bureauOrganisation(39) };
    const r = await h.call('GET', '/accounts', { headers });
    expect(r.status).toBe(200);
    expect(r.body.accounts.map((a: Json) => a.id)).toEqual([0, 1, 2].map((j) => bureauAccountId(39, j)));
    expect(r.body.accounts[0].iban).toBe(bureauIban(39, 0));
    const tx = await h.call(
      'GET',
      `/accounts/${bureauAccountId(39, 2)}/transactions?dateFrom=2025-12-01&bookingStatus=booked`,
      {
        headers,
      },
    );
    expect(tx.status).toBe(200);
    // The two days before the start and the start day itself.
    expect(tx.body.transactions.booked.length).toBe(3);
  });

  it('answers 429 with Retry-After beyond the rate limit, and counts what it refused', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => h.call('GET', '/accounts')));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const control = (await (await fetch(`${h.sb.urls.controlUrl}`)).json()) as { rateLimit: { refused: number } };
    expect(control.rateLimit.refused).toBeGreaterThanOrEqual(refused.length);
  });
});
