// Answers the jobs act on are checked by schema (issue #50 Must 4): ids and statuses of the
// wrong type or form are refused with the field named, the documented spellings still read.
import { describe, expect, it } from 'vitest';
import {
  readAccount,
  readBank,
  readBulkPaymentCreated,
  readConsent,
  readPaymentInformation,
  readPaymentStatus,
  readScaAuthorization,
  readSigningBasket,
  readTransaction,
} from '../../src/bank/readers.js';

const refused = (read: () => unknown, field: string): void => {
  expect(read).toThrow(expect.objectContaining({ code: 'ERR_BANK_INVALID_RESPONSE' }) as Error);
  expect(read).toThrow(new RegExp(`: ${field.replace('.', '\\.')}: `));
};

describe('answer schemas', () => {
  it('refuse an id that is not a string of id characters', () => {
    refused(() => readBulkPaymentCreated({ paymentId: 12345 }, 201, false), 'paymentId');
    refused(() => readBulkPaymentCreated({ paymentId: 'a b/../c' }, 201, false), 'paymentId');
    refused(() => readPaymentStatus({ paymentId: true, transactionStatus: 'ACSC' }), 'paymentId');
    refused(() => readSigningBasket({ basketId: 'b1', paymentIds: ['p1', 2] }, false), 'paymentIds.1');
    refused(() => readConsent({ consentId: { id: 'x' }, status: 'authorized' }), 'consentId');
    refused(() => readScaAuthorization({ authorizationId: 9000 }, false), 'authorizationId');
  });

  it('refuse a number for the id of an account, a transaction or a bank', () => {
    refused(() => readAccount({ id: 42 }), 'id');
    refused(() => readTransaction({ transactionId: 7, transactionAmount: { amount: '1.00' } }), 'transactionId');
    refused(() => readBank({ bankId: 3 }), 'bankId');
  });

  it('refuse a status that is not a four-letter code', () => {
    refused(() => readPaymentStatus({ paymentId: 'p1', transactionStatus: 7 }), 'transactionStatus');
    refused(() => readPaymentInformation({ paymentId: 'p1', transactionStatus: 'ACCEPTED' }), 'transactionStatus');
    refused(
      () =>
        readPaymentInformation({
          paymentId: 'p1',
          transactionStatus: 'ACSP',
          paymentLines: [{ paymentId: 'l1', transactionStatus: ['RJCT'] }],
        }),
      'transactionStatus',
    );
  });

  it('still read the spellings the bank documents: casing, `id`, nulls', () => {
    expect(readPaymentStatus({ id: 'A30D7108-A584-4C32-95ED-8FF4BB5A7C2C', transactionStatus: 'acsc' })).toMatchObject({
      paymentId: 'A30D7108-A584-4C32-95ED-8FF4BB5A7C2C',
      transactionStatus: 'ACSC',
    });
    expect(
      readBulkPaymentCreated({ paymentId: 'p1b28af', transactionStatus: null, paymentLines: null }, 201, false),
    ).toMatchObject({ paymentId: 'p1b28af', transactionStatus: 'RCVD' });
    expect(readConsent({ consentId: 'c-1', status: 'awaiting_approval' }).status).toBe('AwaitingApproval');
  });
});
