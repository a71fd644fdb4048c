import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runStatus } from '../../../jobs/status/poll.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { readEventDelivery } from '../../../src/bank/cloud-events.js';
import type { BankingEvent } from '../../../src/bank/index.js';
import { handleBankEvents } from '../../../jobs/status/events.js';
import { EVENT_HOLDER, MIN_POLL_INTERVAL_MS, pollLeaseName } from '../../../jobs/status/poll-schedule.js';
import { createWorld, type World } from './world.js';

const DAY = 24 * 3600_000;

describe('bank status events and polling share one transition function', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  /** Every payment event the sandbox raised, read through the real CloudEvents reader. */
  const bankEvents = async (): Promise<BankingEvent[]> => {
    const { events } = (await w.control('/events')) as { events: unknown[] };
    const delivery = readEventDelivery(
      { 'content-type': 'application/cloudevents-batch+json; charset=utf-8' },
      JSON.stringify(events),
    );
    expect(delivery.rejected).toEqual([]);
    return delivery.events.filter(
      (e) => e.kind === 'payment.status.updated' || e.kind === 'bulk_payment.status.updated',
    );
  };
  const handler = () => ({ store: w.store, clock: w.clock, logger: w.logger });

  it('duplicated and reversed events end in the final states, each change recorded once', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}, {}]);
    await runSubmit(w.deps(), [w.company]);
    w.advance(3 * DAY);
    const events = await bankEvents();
    expect(events.length).toBeGreaterThanOrEqual(4);
    const reversed = [...events].reverse();
    const results = await handleBankEvents(handler(), [...reversed, ...events, ...reversed]);
    expect(results.filter((r) => r.outcome === 'unmatched')).toEqual([]);
    expect((await w.store.payments.listByFile(fileId)).map((p) => p.state)).toEqual(['ACSC', 'ACSC']);
    const [bulk] = await w.store.bulks.listByFile(fileId);
    expect(bulk).toMatchObject({ state: 'done', bankStatus: 'ACSC' });
    // The POST's answer gave each line RCVD; then, reversed first: ACSC is applied, the older
    // ACSP after it is stale, the repeats (and the events' RCVD) are duplicates or stale.
    const transitions = await w.store.transitions('payment', (await w.store.payments.listByFile(fileId))[0]!.id);
    expect(transitions.map((t) => t.to)).toEqual(['queued', 'RCVD', 'ACSC']);
  });

  it('polling after events changes nothing, and events after polling change nothing', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}]);
    await runSubmit(w.deps(), [w.company]);
    w.advance(3 * DAY);
    const polled = await runStatus(w.deps('poll-1'), [w.company]);
    expect(polled.changed).toBeGreaterThan(0);
    const results = await handleBankEvents(handler(), await bankEvents());
    expect(results.every((r) => r.outcome === 'duplicate' || r.outcome === 'stale')).toBe(true);
    expect((await w.store.payments.listByFile(fileId))[0]!.state).toBe('ACSC');
  });

  it('an event skips the next poll of its bulk for a while', async () => {
    await w.acceptFile('pay.csv', [{}]);
    await runSubmit(w.deps(), [w.company]);
    w.advance(2 * 60_000); // RCVD → ACSP
    await handleBankEvents(handler(), await bankEvents());
    const soon = await runStatus(w.deps('poll-1'), [w.company]);
    expect(soon).toMatchObject({ polled: 0, notDue: 1 });
    w.advance(10 * 60_000);
    expect(await runStatus(w.deps('poll-2'), [w.company])).toMatchObject({ polled: 1 });
  });

  it('an event that overtakes the lost answer of the POST is applied by end-to-end id', async () => {
    const fileId = await w.acceptFile('pay.csv', [{}]);
    await w.control('/faults', { faults: [{ route: 'POST /api/bulk-payments/*', kind: 'lostResponse', count: 10 }] });
    await runSubmit(w.deps('a'), [w.company]);
    await w.control('/faults', undefined, 'DELETE');
    w.advance(2 * 60_000);
    await handleBankEvents(handler(), await bankEvents());
    expect((await w.store.payments.listByFile(fileId))[0]!.state).toBe('ACSP');
    expect((await runSubmit(w.deps('b'), [w.company])).bulks[0]!.outcome).toBe('replayed');
    expect((await w.store.payments.listByFile(fileId))[0]!.state).toBe('ACSP');
  });

  it('polling backs off: a bulk read a moment ago is not read again', async () => {
    await w.acceptFile('pay.csv', [{}]);
    await runSubmit(w.deps(), [w.company]);
    expect(await runStatus(w.deps('p1'), [w.company])).toMatchObject({ polled: 1 });
    expect(await runStatus(w.deps('p2'), [w.company])).toMatchObject({ polled: 0, notDue: 1 });
    w.advance(31_000);
    expect(await runStatus(w.deps('p3'), [w.company])).toMatchObject({ polled: 1 });
  });

  it('a bulk whose poll lease an event took moments after the send is not polled', async () => {
    // A bulk this young is usually unpolled, so the poll tries the INSERT of its lease first;
    // an event's lease found there must still make it wait.
    await w.acceptFile('pay.csv', [{}]);
    await runSubmit(w.deps(), [w.company]);
    const [bulk] = await w.store.bulks.listByState('sent', [w.company.id]);
    expect(await w.store.leases.acquire(pollLeaseName(bulk!.id), EVENT_HOLDER, MIN_POLL_INTERVAL_MS)).toBeDefined();
    expect(await runStatus(w.deps('p1'), [w.company])).toMatchObject({ polled: 0, notDue: 1 });
    w.advance(MIN_POLL_INTERVAL_MS + 1_000);
    expect(await runStatus(w.deps('p2'), [w.company])).toMatchObject({ polled: 1 });
  });
});
