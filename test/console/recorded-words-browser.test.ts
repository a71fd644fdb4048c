// The words settle recorded and a person reads later, in a real browser against a running `settle
// serve` (issue #53): a finding's sentence with its amounts and dates as bokmål writes them on
// Reconciliation, and in the reconciliation CSV a person opens from the console; in English the
// page keeps the English the run recorded and the CSV is the stored machine CSV, byte for byte.
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessCalendar } from '../../src/domain/business-calendar.js';
import {
  applyDecisions,
  factHash,
  findingSubject,
  reconcile,
  resolveReconcileConfig,
} from '../../src/domain/reconcile/index.js';
import { FINDINGS_CSV_COLUMNS, renderFindingsCsv } from '../../src/formats/report/index.js';
import { BrowserSession, seriousViolations } from '../support/browser.js';
import { d, debit, payment } from '../domain/reconcile/builders.js';
import { startConsoleFixture, type ConsoleFixture } from './fixture.js';
import { signInAsking } from './sign-in-asking.js';

const TEST_MS = 240_000;
const REPORT = 'reconciliation-acme-2026-03-20.csv';
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/** A run's findings as the reconcile job records them: a debit settle did not send, a payment not booked. */
const findings = applyDecisions(
  'acme',
  reconcile(
    {
      payments: [payment('p4', { requestedExecutionDate: d('2026-03-10') })],
      transactions: [debit('fee', 9_388_540n, { counterpartyName: 'Bank fee', bookingDate: d('2026-03-10') })],
    },
    { today: d('2026-03-20'), now: new Date('2026-03-20T06:00:00Z'), calendar: businessCalendar('NO') },
    resolveReconcileConfig(),
  ).findings,
  new Map(),
);
const DEBIT_EN = 'A debit of 93885.40 NOK booked on 2026-03-10 matches no payment settle sent.';
const DEBIT_NB = 'En belastning på 93 885,40 kr bokført 10.03.2026 samsvarer ikke med noen betaling settle har sendt.';

describe('recorded words in the reader’s language, in a browser', () => {
  let f: ConsoleFixture;
  let session: BrowserSession;

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture(), BrowserSession.open()]);
    expect(findings.map((x) => x.message)).toContain(DEBIT_EN);
    await f.app.store.findings.recordRun(
      'acme',
      'run-1',
      findings.map((x) => ({
        id: x.id!,
        type: x.type,
        factHash: factHash(x),
        subject: findingSubject(x),
        summary: x.message,
        ...(x.said ? { summaryText: x.said } : {}),
        ...(x.amount ? { amount: x.amount } : {}),
        factDate: '2026-03-10',
      })),
    );
    await f.app.store.reports.record({
      company: 'acme',
      kind: 'reconciliation',
      subject: { type: 'reconcile_run', id: 'run-1' },
      name: REPORT,
      mediaType: 'text/csv',
      content: renderFindingsCsv(findings),
    });
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  const signIn = (language: string) => signInAsking(session, f, language);
  const reportCsv = async (page: Page, language: string) => {
    await page.goto(`${f.base}/console/reconciliation?company=acme`);
    const link = page.getByRole('link', { name: REPORT });
    const csv = await page.context().request.get(`${f.base}${await link.getAttribute('href')}`, {
      headers: { 'accept-language': language },
    });
    return csv.text();
  };

  it(
    'writes a finding’s amount and date as bokmål writes them on Reconciliation, and keeps the English in English',
    async () => {
      const nb = await signIn('nb-NO');
      await nb.goto(`${f.base}/console/reconciliation?company=acme`);
      const text = spaces((await nb.locator('main').textContent()) ?? '');
      expect(text).toContain(DEBIT_NB);
      expect(text).toMatch(/Sendt til utførelse 10\.03\.2026, men ikke bokført 2 virkedager senere \(12\.03\.2026\)\./);
      expect(text).not.toContain('93885.40');
      // What each finding is about, in bokmål too (the payment and the booking are not in the store).
      expect(text).toContain('betaling p4');
      expect(text).toContain('bokføring fee');
      expect(text).not.toMatch(/payment p4|booking fee/);
      expect(await seriousViolations(nb)).toEqual([]);

      const en = await signIn('en');
      await en.goto(`${f.base}/console/reconciliation?company=acme`);
      expect((await en.locator('main').textContent()) ?? '').toContain(DEBIT_EN);
    },
    TEST_MS,
  );

  it(
    'opens the reconciliation CSV with the findings’ sentences in bokmål; in English the stored CSV itself',
    async () => {
      const body = await reportCsv(await signIn('nb-NO'), 'nb-NO');
      const records: string[][] = parse(body.replace(/^\ufeff/, ''), { delimiter: ';' });
      const message = FINDINGS_CSV_COLUMNS.indexOf('message');
      const sentences = records.slice(1).map((row) => spaces(row[message]!));
      expect(sentences).toContain(DEBIT_NB);
      expect(sentences.join('\n')).not.toMatch(/A debit of|Sent for execution|\d{4}-\d\d-\d\d/);

      const stored = await f.app.store.reports.list('acme', 'reconciliation', { limit: 1 });
      const machine = (await f.app.store.reports.find('acme', stored.rows[0]!.id))!.content;
      expect(machine).toContain(DEBIT_EN);
      expect(await reportCsv(await signIn('en'), 'en')).toBe(machine);
    },
    TEST_MS,
  );
});
