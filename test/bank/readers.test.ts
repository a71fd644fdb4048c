import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorFromResponse, readProblem } from '../../src/bank/bank-error.js';
import {
  canonicalConsentStatus,
  canonicalTransactionStatus,
  readLink,
  readTppMessages,
} from '../../src/bank/normalize.js';
import { nextOf } from '../../src/bank/paging.js';
import { paymentRefFromLink } from '../../src/bank/payment-links.js';
import {
  readAccount,
  readBank,
  readConsent,
  readConsentLink,
  readPaymentInformation,
  readScaAuthorization,
  readTransaction,
  readTransactionDetails,
} from '../../src/bank/readers.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('status normalisation', () => {
  it('gives upper-case ISO payment codes whatever the casing', () => {
    expect(canonicalTransactionStatus('rcvd')).toBe('RCVD');
    expect(canonicalTransactionStatus(' Acsc ')).toBe('ACSC');
    expect(canonicalTransactionStatus('PDNG')).toBe('PDNG');
  });

  it('keeps an unknown payment code, upper-cased, instead of dropping it', () => {
    expect(canonicalTransactionStatus('xyzw')).toBe('XYZW');
  });

  it('gives PascalCase consent statuses for every spelling the sources use', () => {
    expect(canonicalConsentStatus('authorized')).toBe('Authorized');
    expect(canonicalConsentStatus('Authorized')).toBe('Authorized');
    expect(canonicalConsentStatus('awaitingApproval')).toBe('AwaitingApproval');
    expect(canonicalConsentStatus('AWAITING_APPROVAL')).toBe('AwaitingApproval');
    expect(canonicalConsentStatus('created')).toBe('Created');
    expect(canonicalConsentStatus('Suspended')).toBe('Suspended');
  });
});

describe('tolerant readers on documented variants', () => {
  it('reads tppMessage (REST, with category) and tppMessages (events) into one shape', () => {
    expect(readTppMessages({ tppMessage: [{ category: 'ERROR', code: 'AC03', message: 'bad' }] })).toEqual([
      { category: 'error', code: 'AC03', text: 'bad' },
    ]);
    expect(readTppMessages({ tppMessages: [{ code: 'AM04', message: null }] })).toEqual([{ code: 'AM04' }]);
    expect(readTppMessages({ tppMessages: [{ message: 'no code' }, null] })).toEqual([]);
  });

  it('reads a payment with lower-case status and keeps unknown fields in raw', () => {
    const p = readPaymentInformation(fixture('payment-rest-tpp-message.json'));
    expect(p.transactionStatus).toBe('RJCT');
    expect(p.tppMessages).toEqual([{ category: 'error', code: 'AC03', text: 'Invalid creditor account' }]);
    expect(p.debtorAccount).toEqual({ iban: 'NO9386011117947', currency: 'NOK' });
    expect(p.raw.futureField).toEqual({ x: 1 });
  });

  it('reads the old PascalCase consent sample with its redirect URL', () => {
    const c = readConsentLink(fixture('consent-created-pascal.json'), false);
    expect(c).toMatchObject({
      consentId: '1E5EFC3B-635E-4973-A605-41D7F0D6D7B3',
      status: 'Created',
      redirectUrl: 'https://google.com',
      state: 'qwerty',
      replayed: false,
    });
  });

  it('reads consent lists with null links, null additionalData and lower-case statuses', () => {
    const old = fixture('consents-old-null-links.json') as { consents: unknown[] };
    expect(old.consents.map(readConsent)[0]).toMatchObject({ consentId: 'c-1', status: 'Authorized' });
    expect(nextOf(old)).toBeUndefined();
    const lower = fixture('consents-lowercase.json') as { consents: unknown[] };
    const read = lower.consents.map(readConsent);
    expect(read.map((c) => [c.status, c.bankId])).toEqual([
      ['AwaitingApproval', 'testbank'],
      ['Authorized', 'nordbank'],
    ]);
    expect(read[1]?.expiresAtUtc).toBeUndefined();
    expect(nextOf(lower)).toEqual({ href: 'https://banking.aritma.io/api/consents?cursor=abc123' });
  });

  it('finds the next link inside the transactions object and reads v4 references', () => {
    const body = fixture('transactions-nested-links.json') as { transactions: { booked: unknown[] } };
    expect(nextOf(body)).toBeUndefined();
    expect(nextOf(body, ['transactions'])).toMatchObject({
      href: expect.stringContaining('cursor=b7de1cbff2a140d3b380e5fc8919988c') as string,
    });
    const tx = readTransaction(body.transactions.booked[0], 'booked');
    expect(tx).toMatchObject({
      transactionId: 'DEAF96E4-5063-46D9-89D4-E32A8E51994C',
      endToEndIds: ['E2E-1'],
      bookingStatus: 'booked',
      transactionAmount: { amount: '-3632.78', currency: 'NOK' },
    });
  });

  it('reads the old transaction item, joining the remittance array', () => {
    const tx = readTransaction(fixture('transaction-old.json'));
    expect(tx.remittanceInformation).toBe('Payment for taxi last week');
    expect(tx.creditorAccount).toEqual({ iban: 'NO9386011117947', currency: 'EUR' });
    expect(tx.raw.purposeCode).toBe('GDDS');
  });

  it('reads what a statement carries beyond the basics in the v4 shape and the old one', () => {
    const v4 = readTransaction({
      transactionId: 'T-V4',
      transactionAmount: { amount: '-1500.00', currency: 'NOK' },
      references: { endToEndIds: ['E1', 'E2'], instructionId: 'INSTR-9', accountServicerReference: 'ARCH-9' },
      amountDetails: { instructedAmount: { amount: '1500.00', currency: 'SEK', exchangeRate: 1.0 } },
      additionalInformation: 'Bulk payment, 2 payments',
      bankTransactionCode: 'PMNT-ICDT-ESCT',
      returnReason: { code: 'AC04' },
      paymentId: 'BULK-9',
    });
    expect(v4).toMatchObject({
      endToEndIds: ['E1', 'E2'],
      accountServicerReference: 'ARCH-9',
      instructionId: 'INSTR-9',
      instructedAmount: { amount: '1500.00', currency: 'SEK' },
      additionalInformation: 'Bulk payment, 2 payments',
      bankTransactionCode: 'PMNT-ICDT-ESCT',
      returnReason: 'AC04',
      paymentId: 'BULK-9',
    });
    const old = readTransaction({
      transactionId: 'T-OLD',
      transactionAmount: { amount: '5.00' },
      accountServicerReference: 'ARCH-OLD',
      proprietaryBankTransactionCode: 'FEE',
      returnReason: null,
    });
    expect(old).toMatchObject({ accountServicerReference: 'ARCH-OLD', bankTransactionCode: 'FEE' });
    expect(old.returnReason).toBeUndefined();
    expect(old.instructedAmount).toBeUndefined();
  });

  it('reads the structured creditor reference from the array form and from the bare string', () => {
    const base = { transactionId: 'T-1', transactionAmount: { amount: '10.00', currency: 'NOK' } };
    const fromArray = readTransaction({
      ...base,
      structuredRemittanceInformation: null,
      structuredRemittanceInformationArray: [
        { reference: ' RF18539007547034 ', referenceType: 'RF', referenceIssuer: 'ISO' },
      ],
    });
    expect(fromArray.creditorReference).toEqual({ reference: 'RF18539007547034', type: 'RF' });
    const fromString = readTransaction({ ...base, structuredRemittanceInformation: '10010000015' });
    expect(fromString.creditorReference).toEqual({ reference: '10010000015', type: 'SCOR' });
    const none = readTransaction({
      ...base,
      structuredRemittanceInformation: '',
      structuredRemittanceInformationArray: [],
    });
    expect(none.creditorReference).toBeUndefined();
  });

  it('unwraps transaction details whether wrapped or bare', () => {
    const bare = fixture('transaction-old.json');
    expect(readTransactionDetails({ transactionsDetails: bare }).transactionId).toBe('T-OLD');
    expect(readTransactionDetails(bare).transactionId).toBe('T-OLD');
  });

  it('reads the old account sample: accountStatus Active becomes active, other kept', () => {
    const a = readAccount(fixture('account-old.json'));
    expect(a).toMatchObject({
      id: '1234',
      status: 'active',
      name: 'Usage Account',
      other: { identification: '123-1234', schemeName: 'BGNR' },
    });
    expect(a.raw.cashAccountType).toBe('CACC');
  });

  it('refuses a record without an identifier with a stable code', () => {
    expect(() => readAccount({ iban: 'NO9386011117947' })).toThrow(
      expect.objectContaining({ code: 'ERR_BANK_INVALID_RESPONSE' }),
    );
    expect(() => readPaymentInformation({ paymentId: 'p' })).toThrow(/transactionStatus/);
  });

  it('reads property requirements given as a list or as a map', () => {
    const listed = readBank({
      bankId: 'b',
      additionalInformation: { propertyRequirements: [{ key: 'psuCorporateId', required: true }] },
    });
    expect(listed.propertyRequirements).toEqual([{ key: 'psuCorporateId', required: true }]);
    const mapped = readBank({
      id: 'b2',
      propertyRequirements: { accountNumbers: { required: false, description: 'x' } },
      onboarding: ['https://x.invalid'],
    });
    expect(mapped).toMatchObject({
      bankId: 'b2',
      propertyRequirements: [{ key: 'accountNumbers', required: false, description: 'x' }],
      onboardingLinks: [{ href: 'https://x.invalid' }],
    });
  });

  it('reads an SCA redirect from _links.scaRedirect or a scaRedirect object', () => {
    expect(
      readScaAuthorization({ _links: { scaRedirect: { href: 'https://sca/1' } }, scaStatus: 'Started' }, false),
    ).toMatchObject({ scaRedirect: 'https://sca/1', scaStatus: 'started' });
    expect(readScaAuthorization({ scaRedirect: { href: 'https://sca/2' } }, true)).toMatchObject({
      scaRedirect: 'https://sca/2',
      replayed: true,
    });
  });

  it('reads links given as objects, strings or null', () => {
    expect(readLink({ href: 'https://x', verb: 'GET' })).toEqual({ href: 'https://x', verb: 'get' });
    expect(readLink('https://y')).toEqual({ href: 'https://y' });
    expect(readLink(null)).toBeUndefined();
  });
});

describe('problem details', () => {
  it('become typed errors with status, type, title, detail and traceId', () => {
    const body = {
      type: 'https://x/errors#not-found',
      title: 'Account not found',
      status: 404,
      detail: 'No account 1.',
      traceId: '00-abc-def-01',
    };
    const e = errorFromResponse(404, body, { method: 'GET', path: '/api/accounts/1' });
    expect(e).toMatchObject({
      code: 'ERR_BANK_NOT_FOUND',
      status: 404,
      type: body.type,
      title: body.title,
      detail: body.detail,
      traceId: body.traceId,
      retryable: false,
      exitCode: 3,
    });
    expect(e.message).toContain('404 Account not found');
  });

  it('map every documented status to its stable code', () => {
    const codes = [400, 401, 403, 404, 409, 422, 405, 429, 500, 503, 504].map(
      (s) => errorFromResponse(s, null, { method: 'GET', path: '/' }).code,
    );
    expect(codes).toEqual([
      'ERR_BANK_BAD_REQUEST',
      'ERR_BANK_UNAUTHORIZED',
      'ERR_BANK_FORBIDDEN',
      'ERR_BANK_NOT_FOUND',
      'ERR_BANK_CONFLICT',
      'ERR_BANK_UNPROCESSABLE',
      'ERR_BANK_REQUEST_REJECTED',
      'ERR_BANK_RATE_LIMITED',
      'ERR_BANK_UNAVAILABLE',
      'ERR_BANK_UNAVAILABLE',
      'ERR_BANK_TIMEOUT',
    ]);
  });

  it('tolerate null fields and non-object bodies', () => {
    expect(readProblem({ type: null, title: null, status: null, detail: null, instance: null })).toEqual({});
    expect(readProblem('<html>bad gateway</html>')).toEqual({});
  });
});

describe('payment links', () => {
  it('reads both path spellings of the sources', () => {
    expect(paymentRefFromLink('https://banking.aritma.io/api/bulk-payments/credit-transfer/p1b28af')).toEqual({
      kind: 'bulk',
      paymentId: 'p1b28af',
      product: 'credit-transfer',
    });
    expect(paymentRefFromLink('https://banking.zdata.io/api/bulkPayments/creditTransfer/B1/status')).toEqual({
      kind: 'bulk',
      paymentId: 'B1',
      product: 'creditTransfer',
    });
    expect(paymentRefFromLink('/api/payments/credit-transfer/p1p29af')).toEqual({
      kind: 'single',
      paymentId: 'p1p29af',
      product: 'credit-transfer',
    });
  });

  it('is not fooled by other resources', () => {
    expect(paymentRefFromLink('https://x/api/payments/credit-transfer/p1/authorizations/a1')).toBeUndefined();
    expect(paymentRefFromLink('https://x/api/accounts/1234/transactions')).toBeUndefined();
    expect(paymentRefFromLink('::::')).toBeUndefined();
  });
});
