import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttentionRepository } from '../../src/store/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { silentLogger } from '../../src/log/index.js';
import { AlertService, MemoryAlertLedger, type AlertMessage, type Notifier } from '../../src/notify/index.js';
import { scanForAttention, StoreAlertLedger } from '../../src/server/index.js';
import { ConsentRepository } from '../../src/store/consents.js';
import { DedupeRepository } from '../../src/store/dedupe.js';
import { openTempDb, type TempDb } from './helpers.js';

const DAY = 86_400_000;

describe('scan for what needs a person', () => {
  let t: TempDb;
  const clock = new ManualClock('2026-01-07T01:00:00Z');
  beforeEach(async () => {
    t = await openTempDb();
    const now = clock.now().toISOString();
    const stamps = { created_at: now, updated_at: now };
    const k = t.db.knex;
    await k('payment_files').insert({
      id: 'f1',
      company: 'acme',
      file_name: 'a.csv',
      sha256: 'a'.repeat(64),
      format: 'csv',
      size_bytes: 1,
      received_at: now,
      state: 'submitted',
      ...stamps,
    });
    const bulk = {
      file_id: 'f1',
      company: 'acme',
      debtor_iban: 'NO9386011117947',
      execution_date: '2026-01-07',
      batch_booking: false,
      line_count: 3,
      ...stamps,
    };
    await k('bulks').insert([
      { id: 'b1', position: 0, idempotency_key: 'k1', state: 'unknown', ...bulk },
      { id: 'b2', position: 1, idempotency_key: 'k2', state: 'sent', ...bulk },
    ]);
    await k('baskets').insert([
      {
        id: 'bk1',
        company: 'acme',
        idempotency_key: 'bk1',
        state: 'link_issued',
        sca_link: 'https://bank/sca/1',
        sca_link_expires_at: new Date(clock.now().getTime() + 3 * DAY).toISOString(),
        ...stamps,
      },
      {
        id: 'bk2',
        company: 'acme',
        idempotency_key: 'bk2',
        state: 'link_issued',
        sca_link_expires_at: new Date(clock.now().getTime() + 20 * DAY).toISOString(),
        ...stamps,
      },
      { id: 'bk3', company: 'acme', idempotency_key: 'bk3', state: 'authorised', ...stamps },
    ]);
    const consents = new ConsentRepository(t.db, clock);
    const consent = (company: string, bankId: string, consentId: string, status: string, days: number) =>
      consents.record({
        company,
        bankId,
        consentId,
        status,
        expiresAt: new Date(clock.now().getTime() + days * DAY),
        statusAt: clock.now(),
        source: 'bank',
      });
    await consent('acme', 'testbank', 'cons-1', 'Authorized', 5);
    await consent('acme', 'nordbank', 'cons-2', 'Authorized', 60);
    await consent('acme', 'svenskbank', 'cons-3', 'Revoked', 1);
    await k('accounts').insert({ id: 'acc-1', company: 'acme', iban: 'NO9386011117947', currency: 'NOK', ...stamps });
    await k('statement_days').insert([
      { account_id: 'acc-1', day: '2026-01-05', currency: 'NOK', entry_count: 2, continuity: 'ok', checked_at: now },
      {
        account_id: 'acc-1',
        day: '2026-01-06',
        currency: 'NOK',
        entry_count: 1,
        continuity: 'gap',
        finding: 'opening 100.00 ≠ previous closing 90.00',
        checked_at: now,
      },
    ]);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('finds unknown bulks, waiting approvals, links and consents near expiry, and statement gaps — each with a stable key', async () => {
    const findings = await scanForAttention({
      attention: new AttentionRepository(t.db),
      clock,
      warnBeforeMs: 7 * DAY,
      linkWarnBeforeMs: 7 * DAY,
    });
    expect(findings.map((f) => f.key)).toEqual([
      'payment-unknown:b1',
      'approval-waiting:bk1',
      'link-expiring:bk1:2026-01-10T01:00:00.000Z',
      'approval-waiting:bk2',
      'consent-expiring:cons-1:2026-01-12T01:00:00.000Z',
      'statement-gap:acc-1:2026-01-06',
    ]);
    const unknown = findings[0]!;
    expect(unknown.title).toBe('acme: outcome of 3 payment(s) from …7947 for 2026-01-07 is unknown');
    expect(JSON.stringify(findings)).not.toContain('NO9386011117947');
  });

  it('warns of an approval link by its own, shorter period: a link lives at most 7 days', async () => {
    const attention = new AttentionRepository(t.db);
    const keys = async (linkDays: number) =>
      (await scanForAttention({ attention, clock, warnBeforeMs: 7 * DAY, linkWarnBeforeMs: linkDays * DAY })).map(
        (f) => f.key,
      );
    // bk1's link expires in 3 days: not yet within a 1-day period; the consent (5 days) still is within 7.
    expect(await keys(1)).not.toContain('link-expiring:bk1:2026-01-10T01:00:00.000Z');
    expect(await keys(1)).toContain('consent-expiring:cons-1:2026-01-12T01:00:00.000Z');
    expect(await keys(3)).toContain('link-expiring:bk1:2026-01-10T01:00:00.000Z');
  });

  it('alerts each finding once across runs and instances through the shared alerts_sent table', async () => {
    const sent: AlertMessage[] = [];
    const channel: Notifier = {
      channel: 'test',
      send: (m) => (sent.push(m), Promise.resolve()),
      close: () => Promise.resolve(),
    };
    const ledger = () => new StoreAlertLedger(new DedupeRepository(t.db, clock));
    const first = new AlertService({ notifiers: [channel], ledger: ledger(), logger: silentLogger() });
    const second = new AlertService({ notifiers: [channel], ledger: ledger(), logger: silentLogger() });
    const findings = await scanForAttention({
      attention: new AttentionRepository(t.db),
      clock,
      warnBeforeMs: 7 * DAY,
      linkWarnBeforeMs: 7 * DAY,
    });
    expect(await first.raise(findings)).toEqual({ sent: 6, alreadySent: 0, failed: 0 });
    expect(
      await second.raise(
        await scanForAttention({
          attention: new AttentionRepository(t.db),
          clock,
          warnBeforeMs: 7 * DAY,
          linkWarnBeforeMs: 7 * DAY,
        }),
      ),
    ).toEqual({
      sent: 0,
      alreadySent: 6,
      failed: 0,
    });
    expect(sent).toHaveLength(6);
    // A new finding later (the unknown bulk of another file) is sent, the old ones are not.
    await t.db.knex('bulks').where({ id: 'b2' }).update({ state: 'unknown' });
    expect(
      await second.raise(
        await scanForAttention({
          attention: new AttentionRepository(t.db),
          clock,
          warnBeforeMs: 7 * DAY,
          linkWarnBeforeMs: 7 * DAY,
        }),
      ),
    ).toEqual({
      sent: 1,
      alreadySent: 6,
      failed: 0,
    });
    expect(sent.at(-1)?.payload).toMatchObject({ key: 'payment-unknown:b2' });
  });

  it('the memory ledger and the store ledger agree on once-per-channel', async () => {
    const store = new StoreAlertLedger(new DedupeRepository(t.db, clock));
    const memory = new MemoryAlertLedger();
    for (const l of [store, memory]) {
      expect(await l.wasSent('k'.repeat(300), 'email')).toBe(false);
      expect(await l.recordSent('k'.repeat(300), 'email')).toBe(true);
      expect(await l.recordSent('k'.repeat(300), 'email')).toBe(false);
      expect(await l.wasSent('k'.repeat(300), 'email')).toBe(true);
      expect(await l.wasSent('k'.repeat(300), 'webhook')).toBe(false);
    }
  });
});
