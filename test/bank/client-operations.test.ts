// Every operation of spec §4 against the sandbox over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { all, bulk, company, SEED, startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness({ sandbox: { pageSize: 1 } });
});
afterEach(async () => {
  await h.close();
});

describe('bank client operations against the sandbox', () => {
  it('lists banks without a token, following every page to the end', async () => {
    const banks = await all(h.client.listBanks({ includeAdditionalInformation: true }));
    expect(banks.map((b) => b.bankId)).toEqual(['testbank', 'nordbank', 'svenskbank']);
    expect(banks[1]?.propertyRequirements.filter((r) => r.required).map((r) => r.key)).toEqual([
      'psuCorporateId',
      'accountNumbers',
    ]);
    expect(banks[1]?.onboardingLinks[0]?.href).toContain('nordbank');
    expect(h.client.tokens.fetches).toBe(0);
  });

  it('filters banks by country and reads one bank with its requirements', async () => {
    expect((await all(h.client.listBanks({ countryCode: 'SE' }))).map((b) => b.bankId)).toEqual(['svenskbank']);
    const bank = await h.client.getBank('testbank', { includeAdditionalInformation: true });
    expect(bank).toMatchObject({ bankId: 'testbank', countryCode: 'NO', channels: ['openBanking', 'psd2'] });
    expect(bank.propertyRequirements.map((r) => r.key)).toContain('isHeadless');
  });

  it('reads accounts, parameters, balances, transactions and details in the company resource group', async () => {
    const accounts = await all(h.client.listAccounts(company, { withBalance: true }));
    // The company's accounts at both of its banks: testbank's two and nordbank's two, one of them not enabled yet.
    expect(accounts.map((a) => a.id).sort()).toEqual(
      [SEED.approvalAccountId, SEED.operatingAccountId, SEED.nordbankAccountId, SEED.pendingAccountId].sort(),
    );
    const enabled = accounts.filter((a) => a.status === 'enabled');
    expect(enabled.map((a) => a.id).sort()).toEqual(
      [SEED.approvalAccountId, SEED.operatingAccountId, SEED.nordbankAccountId].sort(),
    );
    expect(enabled.every((a) => a.balances.length > 0)).toBe(true);

    const account = await h.client.getAccount(company, SEED.operatingAccountId);
    expect(account).toMatchObject({ iban: SEED.operatingIban, currency: 'NOK' });
    const params = await h.client.getAccountParameters(company, SEED.approvalAccountId);
    expect(params.preApproval).toBe(true);

    const balances = await all(
      h.client.listBalances(company, SEED.operatingAccountId, { dateFrom: '2026-01-01', dateTo: '2026-01-05' }),
    );
    expect(balances.length).toBeGreaterThan(2); // several pages of one item each
    expect(balances.every((b) => /^-?\d+\.\d{2}$/.test(b.balanceAmount.amount))).toBe(true);

    const txs = await all(
      h.client.listTransactions(company, SEED.operatingAccountId, { dateFrom: '2025-01-01', bookingStatus: 'booked' }),
    );
    expect(txs.length).toBeGreaterThan(1);
    expect(new Set(txs.map((t) => t.transactionId)).size).toBe(txs.length);
    expect(txs.every((t) => t.bookingStatus === 'booked')).toBe(true);
    const first = txs[0];
    if (!first) throw new Error('no transactions in the seed');
    const detail = await h.client.getTransactionDetails(company, SEED.operatingAccountId, first.transactionId);
    expect(detail.transactionAmount).toEqual(first.transactionAmount);
  });

  it('chooses the data context by resource group, Scopes or Consent-ID', async () => {
    const byScopes = await all(
      h.client.listAccounts({
        scopes: [`/subscriptions/${SEED.subscriptionId}/resource-groups/${SEED.resourceGroupName}`],
      }),
    );
    const byConsent = await all(h.client.listAccounts({ consentId: SEED.consentId }));
    // A consent is tied to one bank (spec §3.1): it sees that bank's accounts of the resource group.
    expect(byScopes).toHaveLength(4);
    expect(byConsent.map((a) => a.id).sort()).toEqual([SEED.approvalAccountId, SEED.operatingAccountId].sort());
  });

  it('runs a consent through create, list, get, refresh (an SCA link) and delete', async () => {
    const created = await h.client.createConsent({
      bankId: 'testbank',
      organisationNumber: '123456789',
      displayName: 'New Co AS',
      accountNumbers: ['15031234562'],
    });
    expect(created.status).toBe('Created');
    expect(created.replayed).toBe(false);
    const second = h.client.createConsent(
      { bankId: 'testbank', organisationNumber: '123456789' },
      { idempotencyKey: '0f8fad5b-d9cb-469f-a165-70867728950e' },
    );
    await expect(second).rejects.toMatchObject({ code: 'ERR_BANK_CONFLICT', status: 409 });
    const listed = await all(h.client.listConsents());
    expect(listed.map((c) => c.consentId)).toContain(created.consentId);
    const refreshed = await h.client.refreshConsent(created.consentId);
    expect(refreshed.redirectUrl).toMatch(/^https?:\/\//);
    h.sandbox.advance(120_000);
    expect((await h.client.getConsent(created.consentId)).status).toBe('Authorized');
    await h.client.deleteConsent(created.consentId);
    const after = await h.client.getConsent(created.consentId);
    expect(after).toMatchObject({ status: 'Revoked', bankId: 'testbank' });
    expect((await all(h.client.listConsents({ status: 'Revoked' }))).map((c) => c.consentId)).toEqual([
      created.consentId,
    ]);
  });

  it('initiates a bulk payment, reads it and one of its lines', async () => {
    const created = await h.client.createBulkPayment(SEED.resourceGroupName, bulk(), {
      idempotencyKey: 'b7de1cbf-f2a1-40d3-b380-e5fc8919988c',
    });
    expect(created).toMatchObject({ transactionStatus: 'RCVD', replayed: false, httpStatus: 201 });
    expect(created.paymentLines?.map((l) => [l.endToEndIdentification, l.transactionStatus])).toEqual([
      ['E2E-1', 'RCVD'],
    ]);
    const info = await h.client.getBulkPayment(SEED.resourceGroupName, created.paymentId);
    expect(info.paymentLines).toHaveLength(1);
    const linePaymentId = info.paymentLines[0]?.paymentId ?? '';
    const line = await h.client.getPayment(SEED.resourceGroupName, linePaymentId);
    expect(line).toMatchObject({ paymentId: linePaymentId, endToEndIdentification: 'E2E-1' });
    expect(await h.client.getBulkPaymentStatus(SEED.resourceGroupName, created.paymentId)).toMatchObject({
      paymentId: created.paymentId,
      transactionStatus: 'RCVD',
      tppMessages: [],
    });
    expect(await h.client.getPaymentStatus(SEED.resourceGroupName, linePaymentId)).toMatchObject({
      paymentId: linePaymentId,
      transactionStatus: 'RCVD',
    });
    h.sandbox.advance(120_000);
    expect((await h.client.getBulkPayment(SEED.resourceGroupName, created.paymentId)).transactionStatus).toBe('ACSP');
  });

  it('approves a payment on a pre-approved account through a signing basket', async () => {
    const created = await h.client.createBulkPayment(SEED.resourceGroupName, bulk('E2E-B', SEED.approvalIban), {
      idempotencyKey: '5bfa15da-0969-46a3-820d-be0ec7a16c24',
    });
    const basket = await h.client.createSigningBasket(SEED.resourceGroupName, [created.paymentId], {
      idempotencyKey: '6cfa15da-0969-46a3-820d-be0ec7a16c24',
    });
    expect(basket).toMatchObject({ paymentIds: [created.paymentId], transactionStatus: 'RCVD', replayed: false });
    const auth = await h.client.startSigningBasketAuthorization(basket.basketId, {
      idempotencyKey: '7dfa15da-0969-46a3-820d-be0ec7a16c24',
    });
    expect(auth).toMatchObject({ scaStatus: 'started' });
    expect(auth.scaRedirect).toMatch(/^https?:\/\//);
    h.sandbox.advance(3_600_000);
    expect((await h.client.getBulkPayment(SEED.resourceGroupName, created.paymentId)).transactionStatus).toBe('RCVD');
    expect(await h.client.getSigningBasket(basket.basketId)).toMatchObject({
      basketId: basket.basketId,
      remainingAuthorizations: 1,
    });
    await h.control('POST', '/sca', { link: auth.scaRedirect });
    h.sandbox.advance(120_000);
    expect((await h.client.getBulkPayment(SEED.resourceGroupName, created.paymentId)).transactionStatus).toBe('ACSP');
  });

  it('deletes an account', async () => {
    await h.client.deleteAccount(company, SEED.approvalAccountId);
    await expect(h.client.getAccount(company, SEED.approvalAccountId)).rejects.toMatchObject({
      code: 'ERR_BANK_NOT_FOUND',
      status: 404,
    });
  });

  it('turns problem details into typed errors with title and traceId', async () => {
    const error: unknown = await h.client.getAccount(company, 'no-such-account').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'ERR_BANK_NOT_FOUND',
      status: 404,
      title: 'Account not found',
      retryable: false,
    });
    expect((error as { traceId?: string }).traceId).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await expect(h.client.createConsent({ bankId: 'TESTBANK', organisationNumber: '123456789' })).rejects.toMatchObject(
      { code: 'ERR_BANK_BAD_REQUEST', title: 'Bank not found' },
    );
  });
});
