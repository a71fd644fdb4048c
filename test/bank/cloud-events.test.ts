import { CloudEvent, HTTP } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { readEventDelivery } from '../../src/bank/cloud-events.js';

const subject =
  '/subscriptions/kx9mp3rw2jf5nt42/resource-groups/999999999/providers/aritma.openbanking/accounts/67e98aeec65145888fefa7cb935c9197';

const statusEvent = (id: string, status = 'PDNG'): Record<string, unknown> => ({
  specversion: '1.0',
  id,
  source: 'kx9mp3rw2jf5nt42',
  type: 'banking.payment.status.updated',
  time: '2026-03-01T09:13:43.5146800+00:00',
  subject,
  tid: 'tenant-1',
  datacontenttype: 'application/json',
  data: {
    paymentId: 'p1p29af3266fa11f2229442000e4bce2590',
    endToEndIdentification: 'E2E-1',
    transactionStatus: status,
    tppMessages: [{ code: 'AM04', message: 'Insufficient funds' }],
    _links: {
      self: {
        href: 'https://banking.aritma.io/api/payments/credit-transfer/p1p29af3266fa11f2229442000e4bce2590',
        verb: 'get',
      },
      bulkPayment: {
        href: 'https://banking.aritma.io/api/bulk-payments/credit-transfer/p1b28af3266fa11f2229442000e4bce2590',
        verb: 'get',
      },
    },
  },
});

describe('CloudEvents webhook reader', () => {
  it('reads a structured payment status event into a typed event with canonical status', () => {
    const body = JSON.stringify(statusEvent('e-1', 'acsc'));
    const { events, rejected } = readEventDelivery(
      { 'content-type': 'application/cloudevents+json; charset=utf-8' },
      body,
    );
    expect(rejected).toEqual([]);
    expect(events).toHaveLength(1);
    const e = events[0];
    expect(e).toMatchObject({
      kind: 'payment.status.updated',
      paymentId: 'p1p29af3266fa11f2229442000e4bce2590',
      endToEndIdentification: 'E2E-1',
      transactionStatus: 'ACSC',
      tppMessages: [{ code: 'AM04', text: 'Insufficient funds' }],
      meta: {
        id: 'e-1',
        tenantId: 'tenant-1',
        subscriptionId: 'kx9mp3rw2jf5nt42',
        resourceGroupName: '999999999',
        resourceId: '67e98aeec65145888fefa7cb935c9197',
      },
    });
    expect(e?.kind === 'payment.status.updated' && e.links.bulkPayment?.href).toContain(
      '/bulk-payments/credit-transfer/',
    );
  });

  it('reads a binary-mode event from ce- headers', () => {
    const message = HTTP.binary(
      new CloudEvent({
        ...statusEvent('e-2'),
        type: 'banking.consent.status.updated',
        data: { consentId: 'c-1', status: 'authorized' },
      }),
    );
    const { events } = readEventDelivery(message.headers, message.body);
    expect(events[0]).toMatchObject({
      kind: 'consent.status.updated',
      consentId: 'c-1',
      status: 'Authorized',
      meta: { id: 'e-2', tenantId: 'tenant-1' },
    });
  });

  it('reads a batch (a JSON array) of mixed types, with or without the batch content type', () => {
    const batch = [
      statusEvent('e-3'),
      {
        ...statusEvent('e-4'),
        type: 'banking.payment.authorized',
        data: {
          paymentId: 'p1',
          authorizationId: 'a1',
          userId: 'u1',
          requiredAuthorizations: 2,
          remainingAuthorizations: 1,
        },
      },
      {
        ...statusEvent('e-5'),
        type: 'banking.account.balance.updated',
        data: {
          id: 'acc',
          balances: [{ balanceAmount: { amount: '10.00' }, balanceType: 'closingBooked', referenceDate: '2026-03-01' }],
        },
      },
    ];
    for (const contentType of [
      'application/cloudevents-batch+json',
      'application/json',
      'application/cloudevents+json',
    ]) {
      const { events, rejected } = readEventDelivery({ 'content-type': contentType }, JSON.stringify(batch));
      expect(rejected, contentType).toEqual([]);
      expect(events.map((e) => e.kind)).toEqual([
        'payment.status.updated',
        'payment.authorized',
        'account.balance.updated',
      ]);
      expect(events[1]).toMatchObject({ remainingAuthorizations: 1, requiredAuthorizations: 2 });
    }
  });

  it('keeps an event of an unknown type as a generic event, not an error', () => {
    const { events } = readEventDelivery(
      { 'content-type': 'application/cloudevents+json' },
      JSON.stringify({ ...statusEvent('e-6'), type: 'banking.mandate.created', data: { mandateId: 'm' } }),
    );
    expect(events[0]).toMatchObject({
      kind: 'unknown',
      meta: { type: 'banking.mandate.created' },
      data: { mandateId: 'm' },
    });
  });

  it('rejects one bad event of a batch and keeps the rest', () => {
    const bad = { ...statusEvent('e-8'), data: { transactionStatus: 'RCVD' } };
    const noId = { ...statusEvent('x'), id: undefined };
    const { events, rejected } = readEventDelivery(
      { 'content-type': 'application/json' },
      JSON.stringify([statusEvent('e-7'), bad, noId]),
    );
    expect(events.map((e) => e.meta.id)).toEqual(['e-7']);
    expect(rejected.map((r) => r.index)).toEqual([1, 2]);
    expect(rejected[0]).toMatchObject({ id: 'e-8', message: expect.stringContaining('paymentId') as string });
  });

  it('refuses a delivery that is not a CloudEvents 1.0 message', () => {
    const code = { code: 'ERR_BANK_EVENT_INVALID' };
    expect(() => readEventDelivery({ 'content-type': 'application/json' }, '{"hello":"world"}')).toThrow(
      expect.objectContaining(code),
    );
    expect(() => readEventDelivery({ 'content-type': 'application/json' }, 'not json')).toThrow(
      expect.objectContaining(code),
    );
    expect(() =>
      readEventDelivery(
        { 'content-type': 'application/cloudevents+json' },
        JSON.stringify({ ...statusEvent('e-9'), specversion: '0.3' }),
      ),
    ).toThrow(expect.objectContaining(code));
    expect(() =>
      readEventDelivery({ 'ce-id': 'x', 'ce-specversion': '1.0', 'content-type': 'application/json' }, '{}'),
    ).toThrow(expect.objectContaining(code));
  });
});
