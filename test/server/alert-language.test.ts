// The alerts the server raises itself, in the reader's language (docs/i18n.md): a missed deadline
// (one company: its `locale`) through the deadline watch on a real store, and a failed job (no
// company: the install's `locale`) through the scheduler on a real store. Bokmål reads in bokmål
// with its dates; English stays the text settle always sent, and the webhook's payload English.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { SettleError } from '../../src/domain/errors.js';
import type { Locale } from '../../src/i18n/index.js';
import { silentLogger } from '../../src/log/index.js';
import type { App } from '../../src/main/app.js';
import { DeadlineWatch } from '../../src/main/deadlines.js';
import { AlertService, MemoryAlertLedger, type AlertMessage } from '../../src/alerts/index.js';
import { Scheduler } from '../../src/server/index.js';
import { createStore, type Store } from '../../src/store/index.js';
import { JobRunRepository } from '../../src/store/job-runs.js';
import { LeaseRepository } from '../../src/store/leases.js';
import { openTempDb, type TempDb } from './helpers.js';

/** An alert service that keeps what it sends, speaking `locale` for every company and the install. */
function alertsIn(locale: Locale): { alerts: AlertService; sent: AlertMessage[] } {
  const sent: AlertMessage[] = [];
  const alerts = new AlertService({
    notifiers: [{ channel: 'test', send: (m) => (sent.push(m), Promise.resolve()), close: () => Promise.resolve() }],
    ledger: new MemoryAlertLedger(),
    logger: silentLogger(),
    localeOf: () => locale,
  });
  return { alerts, sent };
}

describe('alerts the server raises, in the reader’s language', () => {
  let t: TempDb;
  let store: Store;
  // Thursday 8 January 2026, 07:30 in Oslo: the nightly chain was due by 06:00.
  const clock = new ManualClock('2026-01-08T06:30:00Z');
  beforeEach(async () => {
    t = await openTempDb();
    store = createStore(t.db, clock);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  async function missedDeadline(locale: Locale, everRan: boolean): Promise<AlertMessage> {
    if (everRan) {
      clock.set(new Date('2026-01-06T03:15:00Z'));
      await store.jobSuccesses.record('nightly', 'acme', 'run-0');
      clock.set(new Date('2026-01-08T06:30:00Z'));
    }
    const config = {
      timeZone: 'Europe/Oslo',
      alerts: { nightlyBy: '06:00' },
      companies: [{ id: 'acme', timeZone: 'Europe/Oslo' }],
    } as unknown as App['config'];
    const { alerts, sent } = alertsIn(locale);
    await new DeadlineWatch({ config, store, clock, logger: silentLogger() }, alerts).check();
    expect(sent).toHaveLength(1);
    return sent[0]!;
  }

  it('a missed deadline reads in bokmål, with the last success as 06.01.2026, 04:15 in the company’s zone', async () => {
    const never = await missedDeadline('nb', false);
    expect(never.text).toContain('(Europe/Oslo); den er aldri blitt fullført. Sjekk');
    const mail = await missedDeadline('nb', true);
    expect(mail.subject).toBe('[settle] acme: nattkjøringen ble ikke fullført innen 06:00');
    expect(mail.text.split('\n')[0]).toBe(
      'Nattkjøringen for acme var ikke fullført innen 06:00 (Europe/Oslo); den ble sist fullført 06.01.2026, 04:15. Sjekk at settle serve eller systemd-timeren kjører, og hva siste kjøring sa (docs/runbook.md, «A deadline was missed»).',
    );
    expect(mail.payload.title).toBe('acme: nightly chain not completed by 06:00');
  });

  it('a missed deadline keeps its English byte for byte', async () => {
    const mail = await missedDeadline('en', true);
    expect(mail.subject).toBe('[settle] acme: nightly chain not completed by 06:00');
    expect(mail.text.split('\n')[0]).toBe(
      'The nightly chain of acme had not completed by 06:00 (Europe/Oslo); it last completed at 2026-01-06T03:15:00.000Z. Check that settle serve or the systemd timer runs and what the last run said (docs/runbook.md, "A deadline was missed").',
    );
  });

  async function failedJob(locale: Locale): Promise<AlertMessage> {
    const { alerts, sent } = alertsIn(locale);
    const scheduler = new Scheduler({
      entries: [
        {
          job: {
            name: 'nightly',
            run: () => Promise.reject(new SettleError('ERR_BANK_UNAVAILABLE', 'the bank answered 503 five times')),
          },
          cron: '0 2 * * *',
        },
      ],
      timeZone: 'Europe/Oslo',
      leases: new LeaseRepository(t.db, clock),
      jobRuns: new JobRunRepository(t.db, clock),
      leaseTtlMs: 5000,
      logger: silentLogger(),
      clock,
      holder: 'host-a',
      onRunFinished: async (summary) => void (await alerts.runFinished(summary)),
    });
    await scheduler.trigger('nightly');
    const finding = sent.find((m) => m.type === 'finding');
    expect(finding).toBeDefined();
    return finding!;
  }

  it('a failed job reads in the install’s language: bokmål for nb, and its English byte for byte', async () => {
    const nb = await failedJob('nb');
    expect(nb.subject).toBe('[settle] settle nightly feilet: ERR_BANK_UNAVAILABLE');
    expect(nb.text.split('\n').slice(0, 2)).toEqual([
      'Jobben nightly feilet med ERR_BANK_UNAVAILABLE: the bank answered 503 five times',
      'Den kjøres igjen til neste planlagte tid. docs/errors.md forklarer koden.',
    ]);
    const en = await failedJob('en');
    expect(en.subject).toBe('[settle] settle nightly failed: ERR_BANK_UNAVAILABLE');
    expect(en.text.split('\n').slice(0, 2)).toEqual([
      'The nightly job failed with ERR_BANK_UNAVAILABLE: the bank answered 503 five times',
      'It runs again at its next scheduled time. docs/errors.md explains the code.',
    ]);
    expect([nb.payload.title, nb.payload.text]).toEqual([en.payload.title, en.payload.text]);
  });
});
