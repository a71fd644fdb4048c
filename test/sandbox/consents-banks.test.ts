import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, SEED, type Harness, type Json } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close());
beforeEach(() => h.reset());

const consentBody = (overrides: Record<string, unknown> = {}) => ({
  channelType: 'openbanking',
  subscriptionId: SEED.subscriptionId,
  resourceGroupName: '123456785',
  resourceGroupDisplayName: 'New Company AS',
  bankId: 'testbank',
  properties: {
    isHeadless: 'true',
    psuCorporateId: '123456785',
    accountNumbers: '15031234589',
    combinedServiceIndicator: 'true',
  },
  ...overrides,
});

describe('banks', () => {
  it('lists banks without authentication and filters by country and channel', async () => {
    const all = await h.call('GET', '/banks', { token: null, scope: false });
    expect(all.status).toBe(200);
    expect(all.body.banks.map((b: Json) => b.bankId)).toContain('testbank');
    const no = await h.call('GET', '/banks?countryCode=NO&channels=psd2', { token: null, scope: false });
    expect(no.body.banks.map((b: Json) => b.bankId)).toEqual(['testbank']);
  });

  it('refuses a countryCode that is not exactly 2 letters', async () => {
    expect((await h.call('GET', '/banks?countryCode=NOR', { token: null })).status).toBe(400);
  });

  it('shows property requirements only with includeAdditionalInformation, and the onboarding field', async () => {
    const plain = await h.call('GET', '/banks?countryCode=NO', { token: null });
    expect(plain.body.banks[0].additionalInformation).toBeUndefined();
    const rich = await h.call('GET', '/banks?countryCode=NO&includeAdditionalInformation=true', { token: null });
    const nord = rich.body.banks.find((b: Json) => b.bankId === 'nordbank');
    expect(nord.onboarding.links[0].href).toMatch(/^https:/);
    expect(nord.additionalInformation.propertyRequirements).toContainEqual(
      expect.objectContaining({ key: 'accountNumbers', required: true }),
    );
  });

  it('needs authentication for one bank and takes the bankId exactly as listed', async () => {
    expect((await h.call('GET', '/banks/testbank', { token: null })).status).toBe(401);
    expect((await h.call('GET', '/banks/testbank')).body.bankId).toBe('testbank');
    expect((await h.call('GET', '/banks/TESTBANK')).status).toBe(404);
  });
});

describe('consents', () => {
  it('refuses an uppercase bankId with 400 Bank not found', async () => {
    const r = await h.call('POST', '/consents', { body: consentBody({ bankId: 'TestBank' }) });
    expect(r.status).toBe(400);
    expect(r.body.title).toBe('Bank not found');
  });

  it('allows one active consent per company per bank (the seed already has one for 999999999)', async () => {
    const r = await h.call('POST', '/consents', { body: consentBody({ resourceGroupName: SEED.resourceGroupName }) });
    expect(r.status).toBe(409);
  });

  it('answers 403 for a subscription the client may not create consents in', async () => {
    expect(
      (await h.call('POST', '/consents', { body: consentBody({ subscriptionId: SEED.otherSubscriptionId }) })).status,
    ).toBe(403);
  });

  it('requires the bank-specific properties', async () => {
    const r = await h.call('POST', '/consents', { body: consentBody({ properties: { isHeadless: 'true' } }) });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain('psuCorporateId');
  });

  it('takes a headless test-bank consent Created → Started → Authorized on the clock and provisions its accounts', async () => {
    const r = await h.call('POST', '/consents', { body: consentBody() });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'Created', redirectUrl: null });
    expect(r.body.resourceId).toBe(
      `/subscriptions/sandbox/resource-groups/123456785/providers/aritma.banking/consents/${r.body.consentId}`,
    );
    const status = async () => (await h.call('GET', `/consents/${r.body.consentId}`)).body.status;
    h.sb.advance(10_000);
    expect(await status()).toBe('Started');
    h.sb.advance(60_000);
    expect(await status()).toBe('Authorized');
    const accounts = await h.call('GET', '/accounts', { headers: { 'resource-group-name': '123456785' } });
    expect(accounts.body.accounts.map((a: Json) => a.iban)).toEqual(['NO2215031234589']);
    expect((await h.call('GET', '/consents?status=authorized')).body.consents.map((c: Json) => c.consentId)).toContain(
      r.body.consentId,
    );
  });

  it('gives a single-use SCA link through refresh, and a new link invalidates the old one', async () => {
    const consent = (await h.call('POST', '/consents', { body: consentBody() })).body;
    const first = await h.call('PUT', `/consents/${consent.consentId}/refresh`, { body: { properties: {} } });
    expect(first.status).toBe(201);
    expect(first.body.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__sandbox\/sca\//);
    const second = await h.call('PUT', `/consents/${consent.consentId}/refresh`, { body: {} });
    expect((await fetch(first.body.redirectUrl)).status).toBe(410);
    expect((await fetch(second.body.redirectUrl)).status).toBe(200);
    expect((await fetch(second.body.redirectUrl)).status).toBe(410);
  });

  it('expires a consent SCA link after 7 days; refresh gives a working one', async () => {
    const consent = (await h.call('POST', '/consents', { body: consentBody() })).body;
    const link = (await h.call('PUT', `/consents/${consent.consentId}/refresh`, { body: {} })).body.redirectUrl;
    h.sb.advance(7 * 86_400_000);
    const expired = await fetch(link);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as Json).type).toMatch(/#sca-link-expired$/);
    const fresh = (await h.call('PUT', `/consents/${consent.consentId}/refresh`, { token: await h.token(), body: {} }))
      .body.redirectUrl;
    expect((await fetch(fresh)).status).toBe(200);
  });

  it('waits at AwaitingApproval for a non-headless bank until the PSU completes the SCA link', async () => {
    const body = consentBody({
      bankId: 'nordbank',
      channelType: 'openBanking',
      properties: { psuCorporateId: '123456785', accountNumbers: '15031234589' },
    });
    const r = await h.call('POST', '/consents', { body });
    expect(r.body.status).toBe('AwaitingApproval');
    h.sb.advance(86_400_000);
    const token = await h.token();
    expect((await h.call('GET', `/consents/${r.body.consentId}`, { token })).body.status).toBe('AwaitingApproval');
    expect((await fetch(r.body.redirectUrl)).status).toBe(200);
    h.sb.advance(60_000);
    expect((await h.call('GET', `/consents/${r.body.consentId}`, { token })).body.status).toBe('Authorized');
  });

  it('revokes a consent on DELETE (200, no body), after which a new one may be created', async () => {
    const d = await h.call('DELETE', `/consents/${SEED.consentId}`);
    expect(d.status).toBe(200);
    expect(d.text).toBe('');
    expect((await h.call('GET', `/consents/${SEED.consentId}`)).body.status).toBe('Revoked');
    expect((await h.call('GET', '/accounts', { scope: false, headers: { 'consent-id': SEED.consentId } })).status).toBe(
      401,
    );
    expect(
      (await h.call('POST', '/consents', { body: consentBody({ resourceGroupName: SEED.resourceGroupName }) })).status,
    ).toBe(201);
  });

  it('answers 404 Consent not found and 403 for another subscription', async () => {
    const missing = await h.call('GET', '/consents/00000000-0000-0000-0000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.title).toBe('Consent not found');
    expect((await h.call('GET', '/consents/0b1e7c2d-0000-4000-8000-000000000001')).status).toBe(403);
  });
});
