// Finance's pages in the person's language, in a real browser against a running `settle serve`
// (issue #53): Reconciliation (findings, filters, reports, periods signed off) and Statements in
// bokmål for a browser asking for nb-NO, axe-clean; the same pages in the pseudo-language en-XA
// show no text outside the catalogue; a reconciliation CSV and a signed period opened from the
// console read as a Norwegian spreadsheet expects (";", decimal comma, BOM) and in bokmål.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOffPeriod } from '../../jobs/reconcile/period-signoff.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { renderFindingsCsv } from '../../src/formats/report/index.js';
import type { FindingSeen } from '../../src/store/index.js';
import { BrowserSession, screenshot, seriousViolations } from '../support/browser.js';
import { startConsoleFixture, type ConsoleFixture } from './fixture.js';
import { signInAsking } from './sign-in-asking.js';
import { sampleResult } from '../formats/report/sample.js';

const TEST_MS = 240_000;
const A = 'NO9386011117947';
const seen = (id: string, over: Partial<FindingSeen> = {}): FindingSeen => ({
  id,
  type: 'unexpected_debit',
  factHash: `hash-${id}`,
  subject: `tx-${id}`,
  summary: `Σ ${id}`,
  accountIban: A,
  amount: { minor: 9_388_540n, currency: 'NOK' },
  factDate: '2026-01-05',
  ...over,
});

/** Every value the seeded pages show that is data, not a sentence: taken out before looking for English. */
const VALUES = [
  'unexpected_debit',
  'match_proposed',
  'F-A',
  'F-B',
  'tx-F-A',
  'tx-F-B',
  'Σ F-A',
  'Σ F-B',
  'reconciliation-acme-2026-01-05.csv',
  'local:olga',
  'olga',
  'Kari Nordmann AS',
  'Europe/Oslo',
  'CSV',
  'HTML',
  'IBAN',
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sept', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Formatted values: currency codes and country prefixes, en-GB month names (times of today too) and zones. */
const ALLOWED_WORDS = new Set(['NOK', 'NO', 'UTC', 'GMT', 'ok', ...MONTHS]);

/** The text left once the catalogue's sentences (⟦…⟧, nested ones too) and the data are taken out. */
function outsideCatalogue(text: string): string[] {
  let rest = text;
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  // Longest first, so that a value containing another ("tx-F-A") goes whole.
  for (const v of [...VALUES].sort((x, y) => y.length - x.length)) rest = rest.replaceAll(v, ' ');
  return (rest.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !ALLOWED_WORDS.has(w));
}

describe("finance's pages in the person's language, in a browser", () => {
  let f: ConsoleFixture;
  let session: BrowserSession;

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture(), BrowserSession.open()]);
    const store = f.app.store;
    await store.findings.recordRun('acme', 'run-1', [
      seen('F-A'),
      seen('F-B', { type: 'match_proposed', factDate: '2026-01-07' }),
    ]);
    await store.reports.record({
      company: 'acme',
      kind: 'reconciliation',
      subject: { type: 'reconcile_run', id: 'run-1' },
      name: 'reconciliation-acme-2026-01-05.csv',
      mediaType: 'text/csv',
      content: renderFindingsCsv(sampleResult().findings),
    });
    await signOffPeriod(store, {
      today: '2026-12-06' as LocalDate,
      company: 'acme',
      period: '2026-03',
      actor: 'local:olga',
      person: 'olga',
      origin: 'test',
      note: 'Kari Nordmann AS',
    });
    await store.statements.upsertAccount({ id: 'acc-1', company: 'acme', iban: A, currency: 'NOK' });
    await store.accountStatus.record('acc-1', 'enabled', new Date('2026-01-04T08:00:00Z'));
    await store.statementDays.record({
      accountId: 'acc-1',
      day: '2026-01-08' as LocalDate,
      currency: 'NOK',
      openingMinor: 100_000n,
      closingMinor: 9_488_540n,
      bookedSumMinor: 9_388_540n,
      entryCount: 2,
      continuity: 'ok',
    });
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  const signIn = (language: string) => signInAsking(session, f, language);
  const check = async (page: Page, name: string) => {
    expect(await seriousViolations(page), name).toEqual([]);
    await screenshot(page, 'console', name);
  };
  const mainText = async (page: Page) => (await page.locator('main').textContent()) ?? '';
  /** The words people read that are not in the page's text: labels for screen readers and placeholders. */
  const attributes = async (page: Page) =>
    page
      .locator('main [aria-label], main [placeholder]')
      .evaluateAll((els) =>
        els.map((e) => `${e.getAttribute('aria-label') ?? ''} ${e.getAttribute('placeholder') ?? ''}`),
      );

  it(
    'shows Reconciliation and Statements in bokmål to a browser asking for nb-NO, axe-clean',
    async () => {
      const page = await signIn('nb-NO,nb;q=0.9,en;q=0.5');
      await page.goto(`${f.base}/console/reconciliation?company=acme`);
      expect(await page.locator('html').getAttribute('lang')).toBe('nb');
      expect(await page.locator('h1').textContent()).toBe('Avvik i avstemmingen');
      const text = (await mainText(page)).replace(/[\u00a0\u202f]/g, ' ');
      for (const words of [
        'Rapporter fra kjøringene',
        'Beløp i de åpne avvikene på denne siden: 187 770,80 kr.',
        'Avvik fra siste kjøring, nyeste først',
        'Kvitter ut valgte',
        'Belastninger som ikke kom fra settle (unexpected_debit)',
        'trenger oppfølging',
        'Signerte perioder',
        'Signer en periode',
      ])
        expect(text).toContain(words);
      expect(text).not.toMatch(/Reports of the runs|At stake|Acknowledge|needs a person|Periods signed off/);
      await check(page, 'reconciliation-nb');

      // A filter that does not read answers in bokmål too.
      const refused = await page.goto(`${f.base}/console/reconciliation?company=acme&min=abc`);
      expect(refused?.status()).toBe(400);
      expect(await mainText(page)).toContain('«abc» er ikke et beløp');

      await page.goto(`${f.base}/console/statements?company=acme`);
      const statements = (await mainText(page)).replace(/[\u00a0\u202f]/g, ' ');
      expect(await page.locator('h1').textContent()).toBe('Kontoutskrifter');
      expect(statements).toContain('Dager for NO9386011117947, nyeste først');
      expect(statements).toContain('08.01.2026');
      expect(statements).toContain('94 885,40 kr');
      expect(statements).toContain('ikke eksportert');
      await check(page, 'statements-nb');
    },
    TEST_MS,
  );

  it(
    'shows no text outside the catalogue on these pages in the pseudo-language',
    async () => {
      const page = await signIn('en-XA');
      for (const path of ['/console/reconciliation', '/console/statements']) {
        await page.goto(`${f.base}${path}?company=acme`);
        expect(await page.locator('html').getAttribute('lang'), path).toBe('en-XA');
        expect(outsideCatalogue(await mainText(page)), path).toEqual([]);
        for (const label of await attributes(page))
          expect(outsideCatalogue(label.replace(/\b\d{4}-\d{2}\b|1000\.00/g, ' ')), `${path}: ${label}`).toEqual([]);
        await check(page, `${path.slice('/console/'.length)}-pseudo`);
      }
    },
    TEST_MS,
  );

  it(
    'opens the reconciliation CSV and the signed period as a Norwegian spreadsheet and reader expect',
    async () => {
      const page = await signIn('nb-NO');
      await page.goto(`${f.base}/console/reconciliation?company=acme`);
      const link = page.getByRole('link', { name: 'reconciliation-acme-2026-01-05.csv' });
      const csv = await page.context().request.get(`${f.base}${await link.getAttribute('href')}`, {
        headers: { 'accept-language': 'nb-NO' },
      });
      const body = await csv.text();
      // The BOM and ";" with bokmål heads; amounts with a decimal comma; the stored machine CSV unchanged.
      expect(body.startsWith('\ufeffAvvikstype;Alvorlighet;Trenger oppfølging;Selskap;')).toBe(true);
      expect(body).toMatch(/;NOK;\d+,\d{2};/);
      expect(body).not.toMatch(/;NOK;\d+\.\d{2};/);
      const stored = (await f.app.store.reports.list('acme', 'reconciliation', { limit: 1 })).rows[0]!;
      expect((await f.app.store.reports.find('acme', stored.id))!.content.startsWith('finding_type,severity,')).toBe(
        true,
      );

      const signed = await page.context().request.get(`${f.base}/console/periods/2026-03/csv?company=acme`, {
        headers: { 'accept-language': 'nb-NO' },
      });
      expect((await signed.text()).startsWith('\ufeffDel;Selskap;Periode;Fra;Til;Status;Signert av;')).toBe(true);

      const html = await page.context().request.get(`${f.base}/console/periods/2026-03/html?company=acme`, {
        headers: { 'accept-language': 'nb-NO' },
      });
      expect(html.headers()['content-security-policy']).toContain('sandbox');
      // The sandbox lets no script run, axe's neither: the same document is checked in a page of its own.
      const copy = await page.context().newPage();
      await copy.setContent(await html.text());
      expect(await copy.locator('html').getAttribute('lang')).toBe('nb');
      expect(await copy.locator('h1').textContent()).toBe('Periode 2026-03 signert: ACME AS');
      const text = (await copy.locator('body').textContent()) ?? '';
      expect(text).toContain('01.03.2026–31.03.2026');
      expect(text).toContain('Status: signert.');
      expect(text).toContain('«Kari Nordmann AS»');
      expect(text).not.toMatch(/Signed by|Balances per account|State: signed/);
      await check(copy, 'signoff-nb');
    },
    TEST_MS,
  );
});
