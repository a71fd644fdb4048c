import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttentionRepository } from '../../src/store/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { silentLogger } from '../../src/log/index.js';
import { AlertService, MemoryAlertLedger, type AlertMessage, type Notifier } from '../../src/alerts/index.js';
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

  it('alerts each thing that needs a person once across runs and instances through the shared alerts_sent table', async () => {
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

  it('writes each alert’s mail in the company’s language: bokmål for nb, the English it always sent for en', async () => {
    const mails = async (locale: 'en' | 'nb') => {
      const sent: AlertMessage[] = [];
      const channel: Notifier = {
        channel: 'test',
        send: (m) => (sent.push(m), Promise.resolve()),
        close: () => Promise.resolve(),
      };
      const service = new AlertService({
        notifiers: [channel],
        ledger: new MemoryAlertLedger(),
        logger: silentLogger(),
        localeOf: () => locale,
      });
      const findings = await scanForAttention({
        attention: new AttentionRepository(t.db),
        clock,
        warnBeforeMs: 7 * DAY,
        linkWarnBeforeMs: 7 * DAY,
        timeZoneOf: () => 'Europe/Oslo',
      });
      await service.raise(findings);
      return new Map(sent.map((m) => [m.payload.key as string, m]));
    };
    const nb = await mails('nb');
    const en = await mails('en');
    const said = (m: Map<string, AlertMessage>, key: string) => {
      const mail = m.get(key)!;
      return [mail.subject, mail.text.split('\n\n')[0]];
    };
    expect(said(nb, 'payment-unknown:b1')).toEqual([
      '[settle] acme: utfallet av 3 betalinger fra …7947 med forfallsdato 07.01.2026 er ukjent',
      'settle sendte bunten b1 (3 betalinger fra konto …7947, forfallsdato 07.01.2026) og fikk aldri svar. Den sendes ikke på nytt automatisk: pengene kan ha blitt overført eller ikke. Følg docs/runbook.md, «A payment is unknown».',
    ]);
    expect(said(nb, 'approval-waiting:bk1')).toEqual([
      '[settle] acme: betalinger venter på godkjenning (signeringskurv bk1)',
      'Betalinger fra acme venter i signeringskurv bk1 på at en godkjenner fullfører godkjenningslenken, som gjelder til 10.01.2026, 02:00. Til da utfører ikke banken dem.',
    ]);
    expect(said(nb, 'link-expiring:bk1:2026-01-10T01:00:00.000Z')).toEqual([
      '[settle] acme: godkjenningslenken til kurv bk1 utløper 10.01.2026, 02:00',
      'Godkjenningslenken til signeringskurv bk1 utløper 10.01.2026, 02:00. Be godkjennerne fullføre den, eller følg docs/runbook.md, «A consent or an approval link expires».',
    ]);
    expect(said(nb, 'consent-expiring:cons-1:2026-01-12T01:00:00.000Z')).toEqual([
      '[settle] acme: samtykket hos testbank utløper 12.01.2026, 02:00',
      'Samtykket cons-1 for acme hos testbank utløper 12.01.2026, 02:00. Forny det med `settle consents refresh cons-1` (docs/runbook.md).',
    ]);
    expect(said(nb, 'statement-gap:acc-1:2026-01-06')).toEqual([
      '[settle] acme: hull i kontoutskriften for …7947 for 06.01.2026',
      'Kontoutskriften for konto …7947 for 06.01.2026 fortsetter ikke fra dagen før (hull): opening 100.00 ≠ previous closing 90.00. Hent kontoutskriftene på nytt; består avviket, sammenlign med bankens kontoutskrift før importen til regnskapet.',
    ]);
    expect(nb.get('payment-unknown:b1')!.text).toContain('Type: payment-unknown');
    // English readers get what settle always sent, byte for byte; the webhook's payload stays English.
    expect(said(en, 'payment-unknown:b1')).toEqual([
      '[settle] acme: outcome of 3 payment(s) from …7947 for 2026-01-07 is unknown',
      'settle sent bulk b1 (3 payment(s) from account …7947, execution date 2026-01-07) and never got an answer. It is not re-sent automatically: the money may or may not have moved. Follow docs/runbook.md, "A payment is unknown".',
    ]);
    expect(said(en, 'approval-waiting:bk1')).toEqual([
      '[settle] acme: payments wait for approval (signing basket bk1)',
      'Payments of acme wait in signing basket bk1 for an approver to complete the approval link (valid until 2026-01-10T01:00:00.000Z). Until then the bank does not execute them.',
    ]);
    expect(said(en, 'approval-waiting:bk2')[1]).toContain('(valid until 2026-01-27T01:00:00.000Z)');
    expect(said(en, 'link-expiring:bk1:2026-01-10T01:00:00.000Z')).toEqual([
      '[settle] acme: approval link of basket bk1 expires 2026-01-10',
      'The approval link of signing basket bk1 expires at 2026-01-10T01:00:00.000Z. Ask the approvers to complete it, or follow docs/runbook.md, "A consent or an approval link expires".',
    ]);
    expect(said(en, 'consent-expiring:cons-1:2026-01-12T01:00:00.000Z')).toEqual([
      '[settle] acme: consent at testbank expires 2026-01-12',
      'The consent cons-1 of acme at testbank expires at 2026-01-12T01:00:00.000Z. Renew it with `settle consents refresh cons-1` (docs/runbook.md).',
    ]);
    expect(said(en, 'statement-gap:acc-1:2026-01-06')).toEqual([
      '[settle] acme: statement gap on …7947 for 2026-01-06',
      "The statement of account …7947 for 2026-01-06 does not continue the previous day (gap): opening 100.00 ≠ previous closing 90.00. Fetch statements again; if it stays, compare with the bank's statement before the ledger import.",
    ]);
    expect(nb.get('statement-gap:acc-1:2026-01-06')!.payload).toEqual(
      en.get('statement-gap:acc-1:2026-01-06')!.payload,
    );
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
