import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bulkBody, DAY, harness, SEED, type Harness, type Json } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h.close());
beforeEach(() => h.reset());

// Sandbox time starts 2026-01-05T08:00:00Z (09:00 in Oslo, a Monday).
const create = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  h.call('POST', '/bulk-payments/credit-transfer', { body, headers });
const balance = async (accountId: string, type: string): Promise<string> => {
  const r = await h.call('GET', `/accounts/${accountId}/balances?type=${type}`, { token: await h.token() });
  return r.body.balances.at(-1).balanceAmount.amount;
};

describe('bulk credit transfer creation', () => {
  it('creates a bulk at RCVD with a paymentId per line and a Location header', async () => {
    const r = await create(bulkBody('2026-01-06', 3));
    expect(r.status).toBe(201);
    expect(r.body.transactionStatus).toBe('RCVD');
    expect(r.body.paymentId).toMatch(/^p1b[0-9a-f]{32}$/);
    expect(r.body.paymentLines).toHaveLength(3);
    expect(r.body.paymentLines[0]).toMatchObject({ endToEndIdentification: 'E2E-1', transactionStatus: 'RCVD' });
    expect(r.headers.get('location')).toBe(r.body._links.self.href);
    const read = await h.call('GET', `/bulk-payments/credit-transfer/${r.body.paymentId}`);
    expect(read.body.paymentLines[1]).toMatchObject({
      instructedAmount: { currency: 'NOK', amount: '101.50' },
      creditorName: 'Creditor 2',
      transactionStatus: 'RCVD',
    });
  });

  it("gives each line an id of the bank's form, unique across bulks, by which the line alone is found", async () => {
    const first = (await create(bulkBody('2026-01-06', 3))).body;
    const second = (await create(bulkBody('2026-01-06', 3))).body;
    const ids: string[] = [...first.paymentLines, ...second.paymentLines].map((l: Json) => l.paymentId);
    for (const id of ids) expect(id).toMatch(/^p1p[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(6);
    const line = await h.call('GET', `/payments/credit-transfer/${second.paymentLines[2].paymentId}`);
    expect(line.body).toMatchObject({ endToEndIdentification: 'E2E-3', bulkPaymentId: second.paymentId });
    // An id that names no line: another position under a bulk's prefix, a shortened one, the bulk's own.
    const known: string = first.paymentLines[0].paymentId;
    for (const id of [`${known.slice(0, -6)}000003`, known.slice(0, -1), first.paymentId])
      expect((await h.call('GET', `/payments/credit-transfer/${id}`)).status).toBe(404);
  });

  it('answers 404 Account not found when the subscription headers are missing', async () => {
    const r = await h.call('POST', '/bulk-payments/credit-transfer', { body: bulkBody('2026-01-06'), scope: false });
    expect(r.status).toBe(404);
    expect(r.body.title).toBe('Account not found');
  });

  it('answers 404 Account not found for a debtor account that is not onboarded', async () => {
    const r = await create(bulkBody('2026-01-06', 1, { debtorAccount: { iban: 'NO4997101010108' } }));
    expect(r.status).toBe(404);
    expect(r.body.title).toBe('Account not found');
  });

  it('refuses an execution date that is today or earlier with 400', async () => {
    const r = await create(bulkBody('2026-01-05'));
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([expect.objectContaining({ field: 'requestedExecutionDate' })]);
  });

  it('refuses more decimals than the currency has, numbers as amounts, bad IBANs and duplicate end-to-end ids, all at once', async () => {
    const body = bulkBody('2026-01-06', 3);
    const lines = body.paymentLines as Json[];
    lines[0].instructedAmount.amount = '10.005';
    lines[1].instructedAmount.amount = 10.5;
    lines[2].creditorAccount.iban = 'NO9386011117948';
    lines[2].endToEndIdentification = 'E2E-1';
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: Json) => e.field)).toEqual([
      'paymentLines[0].instructedAmount.amount',
      'paymentLines[1].instructedAmount.amount',
      'paymentLines[2].endToEndIdentification',
      'paymentLines[2].creditorAccount.iban',
    ]);
    expect((await h.control('GET', '/payments')).body.payments).toHaveLength(0);
  });

  it('accepts the camelCase product spelling creditTransfer as well', async () => {
    const r = await h.call('POST', '/bulk-payments/creditTransfer', { body: bulkBody('2026-01-06') });
    expect(r.status).toBe(201);
  });

  it('answers 404 for a payment read without headers or under another resource group', async () => {
    const r = await create(bulkBody('2026-01-06'));
    expect((await h.call('GET', `/bulk-payments/credit-transfer/${r.body.paymentId}`, { scope: false })).status).toBe(
      404,
    );
    expect((await h.call('GET', '/bulk-payments/credit-transfer/p1bdoesnotexist')).status).toBe(404);
  });
});

describe('payment listing and cancellation', () => {
  it('lists the bulks of the resource group with status and date filters, paged', async () => {
    const a = (await create(bulkBody('2026-01-06'))).body.paymentId;
    h.sb.advance(60_000);
    const b = (await create(bulkBody('2026-01-07'))).body.paymentId;
    const all = await h.call('GET', '/bulk-payments/credit-transfer');
    expect(all.body.payments.map((p: Json) => p.paymentId)).toEqual([a, b]);
    expect(
      (await h.call('GET', '/bulk-payments/credit-transfer?status=acsp')).body.payments.map((p: Json) => p.paymentId),
    ).toEqual([a]);
    expect((await h.call('GET', '/bulk-payments/credit-transfer?createdFrom=2026-01-06')).body.payments).toEqual([]);
    expect((await h.call('GET', '/bulk-payments/credit-transfer?status=done')).status).toBe(400);
  });

  it('cancels a bulk still at RCVD with 202 CANC, and refuses once it is accepted', async () => {
    const pending = (await create(bulkBody('2026-01-06', 1, { debtorAccount: { iban: SEED.approvalIban } }))).body
      .paymentId;
    const r = await h.call('DELETE', `/bulk-payments/credit-transfer/${pending}`);
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ paymentId: pending, transactionStatus: 'CANC' });
    expect(
      (await h.call('GET', `/bulk-payments/credit-transfer/${pending}`)).body.paymentLines[0].transactionStatus,
    ).toBe('CANC');
    expect((await h.call('POST', '/signing-baskets', { body: { paymentIds: [pending] } })).status).toBe(400);
    const normal = (await create(bulkBody('2026-01-06'))).body;
    // The resource is the whole bulk: one line cannot be cancelled on its own.
    expect((await h.call('DELETE', `/payments/credit-transfer/${normal.paymentLines[0].paymentId}`)).status).toBe(404);
    h.sb.advance(60_000);
    const refused = await h.call('DELETE', `/bulk-payments/credit-transfer/${normal.paymentId}`);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toMatch(/ACSP and can no longer be cancelled/);
  });
});

describe('payment progression on the clock', () => {
  it('moves a normal payment RCVD → ACSP after the processing delay and ACSC on the execution date, booking it', async () => {
    const before = await balance(SEED.operatingAccountId, 'interimBooked');
    const r = await create(bulkBody('2026-01-06', 2));
    const id = r.body.paymentId;
    h.sb.advance(59_000);
    expect((await h.call('GET', `/bulk-payments/credit-transfer/${id}`)).body.transactionStatus).toBe('RCVD');
    h.sb.advance(1_000);
    expect((await h.call('GET', `/bulk-payments/credit-transfer/${id}`)).body.transactionStatus).toBe('ACSP');
    const pending = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-01&bookingStatus=pending`,
    );
    expect(pending.body.transactions.pending.map((t: Json) => t.endToEndIdentification)).toEqual(['E2E-1', 'E2E-2']);
    expect(await balance(SEED.operatingAccountId, 'interimAvailable')).not.toBe(before);
    h.sb.advance(DAY);
    const done = await h.call('GET', `/bulk-payments/credit-transfer/${id}`, { token: await h.token() });
    expect(done.body.transactionStatus).toBe('ACSC');
    expect(done.body.paymentLines.map((l: Json) => l.transactionStatus)).toEqual(['ACSC', 'ACSC']);
    const booked = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-06&bookingStatus=booked`,
      { token: await h.token() },
    );
    expect(booked.body.transactions.booked).toEqual([
      expect.objectContaining({
        endToEndIdentification: 'E2E-1',
        bookingDate: '2026-01-06',
        transactionAmount: { currency: 'NOK', amount: '-100.50' },
      }),
      expect.objectContaining({
        endToEndIdentification: 'E2E-2',
        bookingDate: '2026-01-06',
        transactionAmount: { currency: 'NOK', amount: '-101.50' },
      }),
    ]);
    expect(booked.body.transactions.booked[0].references.endToEndIds).toEqual(['E2E-1']);
    const after = await balance(SEED.operatingAccountId, 'interimBooked');
    expect(BigInt(after.replace('.', ''))).toBe(BigInt(before.replace('.', '')) - 20200n);
  });

  it('books a bulk that asked for batch booking as one entry naming the bulk and every end-to-end id', async () => {
    const r = await create(bulkBody('2026-01-06', 2, { batchBookingPreferred: true }));
    h.sb.advance(DAY);
    const booked = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-06&bookingStatus=booked`,
      { token: await h.token() },
    );
    const entries = booked.body.transactions.booked as Json[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      paymentId: r.body.paymentId,
      endToEndIdentification: null,
      transactionAmount: { currency: 'NOK', amount: '-202.00' },
      references: { endToEndIds: ['E2E-1', 'E2E-2'] },
      bankTransactionCode: 'PMNT-ICDT-ESCT',
      additionalInformation: 'Bulk payment, 2 payments',
    });
    const lines = (
      await h.call('GET', `/bulk-payments/credit-transfer/${r.body.paymentId}`, { token: await h.token() })
    ).body.paymentLines as Json[];
    expect(lines.map((l) => l.transactionStatus)).toEqual(['ACSC', 'ACSC']);
  });

  it('books the return of a settled payment as a credit with the return reason, on request of the control API', async () => {
    await create(bulkBody('2026-01-06', 1));
    expect((await h.control('POST', '/returns', { endToEndId: 'E2E-1', code: 'AC04' })).status).toBe(404);
    h.sb.advance(DAY);
    const returned = await h.control('POST', '/returns', {
      endToEndId: 'E2E-1',
      code: 'AC04',
      message: 'Account closed',
    });
    expect(returned.status).toBe(201);
    expect((await h.control('POST', '/returns', { endToEndId: 'E2E-1', code: 'not a code' })).status).toBe(400);
    const booked = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-06&bookingStatus=booked`,
      { token: await h.token() },
    );
    const entry = (booked.body.transactions.booked as Json[]).find(
      (t) => t.transactionId === returned.body.transactionId,
    );
    expect(entry).toMatchObject({
      endToEndIdentification: 'E2E-1',
      transactionAmount: { currency: 'NOK', amount: '100.50' },
      bankTransactionCode: 'PMNT-ICDT-RRTN',
      returnReason: 'AC04',
      additionalInformation: 'Returned payment: Account closed',
    });
  });

  it('reaches the same end state with one big advance as with many small ones', async () => {
    const id = (await create(bulkBody('2026-01-08'))).body.paymentId;
    h.sb.advance(5 * DAY);
    const r = await h.call(
      'GET',
      `/payments/credit-transfer/${(await h.control('GET', '/payments')).body.payments[0].paymentLines[0].paymentId}`,
      { token: await h.token() },
    );
    expect(r.body).toMatchObject({ transactionStatus: 'ACSC', bulkPaymentId: id, endToEndIdentification: 'E2E-1' });
    const history = (await h.control('GET', '/payments')).body.payments[0].paymentLines[0].history;
    expect(history.map((x: Json) => x.status)).toEqual(['RCVD', 'ACSP', 'ACSC']);
    expect(history[2].at).toBe('2026-01-07T23:00:00.000Z');
  });

  it('executes a payment due on a weekend on the next Norwegian business day', async () => {
    const id = (await create(bulkBody('2026-01-10'))).body.paymentId; // a Saturday
    h.sb.advance(7 * DAY);
    const line = (await h.control('GET', '/payments')).body.payments[0].paymentLines[0];
    expect(line.history.at(-1)).toEqual({ status: 'ACSC', at: '2026-01-11T23:00:00.000Z' });
    const booked = await h.call(
      'GET',
      `/accounts/${SEED.operatingAccountId}/transactions?dateFrom=2026-01-09&bookingStatus=booked`,
      { token: await h.token() },
    );
    expect(booked.body.transactions.booked.map((t: Json) => [t.paymentId, t.bookingDate])).toEqual([
      [line.paymentId, '2026-01-12'],
    ]);
    expect(id).toMatch(/^p1b/);
  });

  it('rejects payments to a configured creditor IBAN with RJCT and a tppMessage code', async () => {
    await h.control('POST', '/rejections', { iban: 'NO6315061111112', code: 'AC04', message: 'Closed account' });
    const id = (await create(bulkBody('2026-01-06'))).body.paymentId;
    h.sb.advance(2 * DAY);
    const r = await h.call('GET', `/bulk-payments/credit-transfer/${id}`, { token: await h.token() });
    expect(r.body.transactionStatus).toBe('RJCT');
    expect(r.body.paymentLines[0].tppMessage).toEqual([{ category: 'error', code: 'AC04', message: 'Closed account' }]);
  });

  it('reports a partly rejected bulk as PART', async () => {
    await h.control('POST', '/rejections', { iban: 'NO9115062222228' });
    const body = bulkBody('2026-01-06', 2);
    (body.paymentLines as Json[])[1].creditorAccount.iban = 'NO9115062222228';
    const id = (await create(body)).body.paymentId;
    h.sb.advance(2 * DAY);
    const r = await h.call('GET', `/bulk-payments/credit-transfer/${id}`, { token: await h.token() });
    expect(r.body.transactionStatus).toBe('PART');
    expect(r.body.paymentLines.map((l: Json) => l.transactionStatus)).toEqual(['ACSC', 'RJCT']);
  });
});

describe('pre-approved accounts and signing baskets', () => {
  const preApproved = () => create(bulkBody('2026-01-06', 1, { debtorAccount: { iban: SEED.approvalIban } }));

  it('shows pre-approval in the account parameters', async () => {
    const r = await h.call('GET', `/accounts/${SEED.approvalAccountId}/parameters`);
    expect(r.body).toMatchObject({ preApproval: true, numberOfApprovers: 1, account: { iban: SEED.approvalIban } });
    expect((await h.call('GET', `/accounts/${SEED.operatingAccountId}/parameters`)).body.preApproval).toBe(false);
  });

  it('keeps a pre-approved payment at RCVD until its basket is authorised, then settles it', async () => {
    const id = (await preApproved()).body.paymentId;
    h.sb.advance(DAY);
    let token = await h.token();
    expect((await h.call('GET', `/bulk-payments/credit-transfer/${id}`, { token })).body.transactionStatus).toBe(
      'RCVD',
    );
    const basket = await h.call('POST', '/signing-baskets', { token, body: { paymentIds: [id] } });
    expect(basket.status).toBe(201);
    expect(basket.body).toMatchObject({ transactionStatus: 'RCVD', paymentIds: [id], requiredAuthorizations: 1 });
    const auth = await h.call('POST', `/signing-baskets/${basket.body.basketId}/authorizations`, { token });
    expect(auth.status).toBe(201);
    expect(auth.body.scaStatus).toBe('started');
    const href: string = auth.body._links.scaRedirect.href;
    const opened = await fetch(href);
    expect(opened.status).toBe(200);
    expect(((await opened.json()) as Json).scaStatus).toBe('finalised');
    const second = await fetch(href);
    expect(second.status).toBe(410);
    h.sb.advance(60_000);
    token = await h.token();
    expect((await h.call('GET', `/bulk-payments/credit-transfer/${id}`, { token })).body.transactionStatus).toBe(
      'ACSC',
    );
    expect((await h.call('GET', `/signing-baskets/${basket.body.basketId}`, { token })).body.transactionStatus).toBe(
      'ACTC',
    );
  });

  it('keeps payments at RCVD when SCA fails, and lets a new authorisation succeed', async () => {
    const id = (await preApproved()).body.paymentId;
    const basket = await h.call('POST', '/signing-baskets', { body: { paymentIds: [id] } });
    const first = await h.call('POST', `/signing-baskets/${basket.body.basketId}/authorizations`);
    expect(
      (await h.control('POST', '/sca', { link: first.body._links.scaRedirect.href, outcome: 'failed' })).body.scaStatus,
    ).toBe('failed');
    h.sb.advance(120_000);
    expect((await h.call('GET', `/bulk-payments/credit-transfer/${id}`)).body.transactionStatus).toBe('RCVD');
    const retry = await h.call('POST', `/signing-baskets/${basket.body.basketId}/authorizations`);
    await h.control('POST', '/sca', { link: retry.body._links.scaRedirect.href });
    h.sb.advance(60_000);
    expect((await h.call('GET', `/bulk-payments/credit-transfer/${id}`)).body.transactionStatus).toBe('ACSP');
  });

  it('redirects to TPP-Redirect-URI with scaStatus after SCA', async () => {
    const id = (await preApproved()).body.paymentId;
    const basket = await h.call('POST', '/signing-baskets', { body: { paymentIds: [id] } });
    const auth = await h.call('POST', `/signing-baskets/${basket.body.basketId}/authorizations`, {
      headers: { 'tpp-redirect-uri': 'https://erp.example/done' },
    });
    const r = await fetch(auth.body._links.scaRedirect.href, { redirect: 'manual' });
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe('https://erp.example/done?scaStatus=finalized');
  });

  it('expires an unused SCA link after 7 days', async () => {
    const id = (await preApproved()).body.paymentId;
    const basket = await h.call('POST', '/signing-baskets', { body: { paymentIds: [id] } });
    const auth = await h.call('POST', `/signing-baskets/${basket.body.basketId}/authorizations`);
    h.sb.advance(7 * DAY);
    expect((await fetch(auth.body._links.scaRedirect.href)).status).toBe(410);
  });

  it('refuses a basket for a payment on a normal account, and a payment already in a basket', async () => {
    const normal = (await create(bulkBody('2026-01-06'))).body.paymentId;
    expect((await h.call('POST', '/signing-baskets', { body: { paymentIds: [normal] } })).status).toBe(400);
    const id = (await preApproved()).body.paymentId;
    expect((await h.call('POST', '/signing-baskets', { body: { paymentIds: [id] } })).status).toBe(201);
    expect((await h.call('POST', '/signing-baskets', { body: { paymentIds: [id] } })).status).toBe(409);
  });
});

describe('several approvers', () => {
  it('releases a basket only when numberOfApprovers SCAs have finished, reporting the remaining count', async () => {
    const consent = await h.call('POST', '/consents', {
      body: {
        channelType: 'openBanking',
        subscriptionId: SEED.subscriptionId,
        resourceGroupName: '123456785',
        bankId: 'testbank',
        properties: {
          isHeadless: 'true',
          psuCorporateId: '123456785',
          accountNumbers: '15031234589',
          numberOfApprovers: '2',
        },
      },
    });
    expect(consent.status).toBe(201);
    h.sb.advance(70_000);
    const ctx = { 'resource-group-name': '123456785' };
    const accounts = await h.call('GET', '/accounts', { headers: ctx });
    const account = accounts.body.accounts[0];
    expect((await h.call('GET', `/accounts/${account.id}/parameters`, { headers: ctx })).body).toMatchObject({
      preApproval: true,
      numberOfApprovers: 2,
    });
    const pay = await h.call('POST', '/bulk-payments/credit-transfer', {
      headers: ctx,
      body: bulkBody('2026-01-07', 1, { debtorAccount: { iban: account.iban } }),
    });
    const basket = await h.call('POST', '/signing-baskets', {
      headers: ctx,
      body: { paymentIds: [pay.body.paymentId] },
    });
    expect(basket.body.requiredAuthorizations).toBe(2);
    const first = await h.call('POST', `/signing-baskets/${basket.body.basketId}/authorizations`);
    await h.control('POST', '/sca', { link: first.body._links.scaRedirect.href });
    let state = await h.call('GET', `/signing-baskets/${basket.body.basketId}`);
    expect(state.body).toMatchObject({ transactionStatus: 'RCVD', remainingAuthorizations: 1 });
    h.sb.advance(120_000);
    const token = await h.token();
    expect(
      (await h.call('GET', `/bulk-payments/credit-transfer/${pay.body.paymentId}`, { token, headers: ctx })).body
        .transactionStatus,
    ).toBe('RCVD');
    const second = await h.call('POST', `/signing-baskets/${basket.body.basketId}/authorizations`, { token });
    await h.control('POST', '/sca', { link: second.body._links.scaRedirect.href });
    state = await h.call('GET', `/signing-baskets/${basket.body.basketId}`, { token });
    expect(state.body).toMatchObject({ transactionStatus: 'ACTC', remainingAuthorizations: 0 });
    h.sb.advance(60_000);
    expect(
      (await h.call('GET', `/bulk-payments/credit-transfer/${pay.body.paymentId}`, { token, headers: ctx })).body
        .transactionStatus,
    ).toBe('ACSP');
    // A newly provisioned account has no money: execution rejects the line for insufficient funds.
    h.sb.advance(2 * 86_400_000);
    const done = await h.call('GET', `/bulk-payments/credit-transfer/${pay.body.paymentId}`, {
      token: await h.token(),
      headers: ctx,
    });
    expect(done.body.transactionStatus).toBe('RJCT');
    expect(done.body.paymentLines[0].tppMessage[0].code).toBe('AM04');
  });
});

describe('control API', () => {
  it('lists every bulk ever created with its lines, end-to-end ids and statuses', async () => {
    await create(bulkBody('2026-01-06', 2));
    const r = await h.control('GET', '/payments');
    expect(r.body.payments).toHaveLength(1);
    expect(r.body.payments[0].paymentLines.map((l: Json) => [l.endToEndIdentification, l.transactionStatus])).toEqual([
      ['E2E-1', 'RCVD'],
      ['E2E-2', 'RCVD'],
    ]);
  });

  it('records every field a line carried: creditor bank, ultimate parties, purpose, both remittances', async () => {
    const body = bulkBody('2026-01-06', 2);
    const lines = body.paymentLines as Record<string, unknown>[];
    Object.assign(lines[0]!, {
      creditorAgent: 'DNBANOKKXXX',
      ultimateDebtor: 'Sandbox Holding AS',
      ultimateCreditor: 'Creditor Group',
      purposeCode: 'SUPP',
      remittanceInformationStructured: { reference: '2345676', referenceType: 'KID' },
    });
    expect((await create(body)).status).toBe(201);
    const [bulk] = (await h.control('GET', '/payments')).body.payments;
    expect(bulk).toMatchObject({ debtorName: 'Sandbox AS', batchBookingPreferred: false });
    expect(bulk.paymentLines[0]).toMatchObject({
      creditorAccount: { iban: 'NO6315061111112' },
      creditorAgent: 'DNBANOKKXXX',
      creditorName: 'Creditor 1',
      ultimateDebtor: 'Sandbox Holding AS',
      ultimateCreditor: 'Creditor Group',
      purposeCode: 'SUPP',
      remittanceInformationUnstructured: 'Invoice 1',
      remittanceInformationStructured: { reference: '2345676', referenceType: 'KID' },
      instructionPriority: 'normal',
    });
    expect(bulk.paymentLines[1]).toMatchObject({
      creditorAgent: null,
      ultimateDebtor: null,
      purposeCode: null,
      remittanceInformationStructured: null,
    });
  });

  it('refuses a line whose optional fields are malformed, naming each', async () => {
    const body = bulkBody('2026-01-06');
    Object.assign((body.paymentLines as Record<string, unknown>[])[0]!, {
      creditorAgent: 'NOTABIC',
      purposeCode: 'supplier',
      ultimateCreditor: 'x'.repeat(71),
      remittanceInformationStructured: { reference: '', referenceType: 'OCR' },
    });
    const r = await create(body);
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: Json) => e.field)).toEqual([
      'paymentLines[0].creditorAgent',
      'paymentLines[0].ultimateCreditor',
      'paymentLines[0].purposeCode',
      'paymentLines[0].remittanceInformationStructured.reference',
    ]);
  });

  it('advances the clock by an ISO 8601 duration or milliseconds and resets to the seed', async () => {
    expect((await h.control('POST', '/clock', { advance: 'PT2H' })).body.now).toBe('2026-01-05T10:00:00.000Z');
    expect((await h.control('POST', '/clock', { advanceMs: 1000 })).body.now).toBe('2026-01-05T10:00:01.000Z');
    expect((await h.control('POST', '/clock', { advance: 'two hours' })).status).toBe(400);
    await create(bulkBody('2026-01-06'));
    await h.control('POST', '/reset');
    expect((await h.control('GET', '/clock')).body.now).toBe('2026-01-05T08:00:00.000Z');
    expect((await h.control('GET', '/payments')).body.payments).toHaveLength(0);
  });
});
