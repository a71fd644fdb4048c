// Issue #53, "Done when": a Norwegian-speaking person sees the console in bokmål from their
// browser's language, every page checked. In a real browser against a running `settle serve` with
// the seeded world of the page tests (pages-world.ts), Olga (operator, who may open every page)
// with a browser asking for nb-NO visits every console page: each is `lang="nb"`, axe-clean, and
// shows no English sentence of the catalogue that has a bokmål translation; the same walk in the
// pseudo-language en-XA shows no two English words in a row outside the catalogue's sentences.
// The walk takes in the pages nobody links to on purpose: the sign-in page (before anyone is
// known), the console's own not-found page, a page's "no such …" answer, and the refusal a viewer
// (Vera) gets for a page her role may not open. The downloads (a report, a signed period) are
// checked in finance-language-browser.test.ts and test/cli/demo-locale.test.ts.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUES } from '../../src/i18n/index.js';
import { axeViolations, BrowserSession } from '../support/browser.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';
import { paymentFile } from '../store/fixtures.js';
import { HOSTILE, SCA_LINK, seedCancellation, seedOperatorWorld, seedPagesWorld } from './pages-world.js';

const TEST_MS = 300_000;
const VALIDATOR_SUMMARY = 'IBAN_INVALID: IBAN "NO0612000000008" fails the national check digit test (a typing error?)';

/**
 * The English catalogue's sentences that read differently in bokmål, cut at their values
 * (placeholders and plural branches): each piece longer than three words.
 */
function englishSentences(): string[] {
  const en: Readonly<Record<string, string>> = CATALOGUES.en.messages;
  const nb: Readonly<Record<string, string>> = CATALOGUES.nb.messages;
  const pieces = new Set<string>();
  for (const [key, value] of Object.entries(en)) {
    if (nb[key] === value) continue;
    let rest = value;
    for (let before = ''; before !== rest;) {
      before = rest;
      rest = rest.replace(/\{[^{}]*\}/g, '\u0000');
    }
    for (const piece of rest.split('\u0000')) {
      const words = piece.trim().split(/\s+/).filter(Boolean);
      if (words.length > 3) pieces.add(words.join(' '));
    }
  }
  return [...pieces];
}

/**
 * Values the seeded pages show, which stay as they are in every language: names and reasons from
 * the data, the file source, the commands Today suggests, and the causes the transition log keeps.
 */
const VALUES = [
  HOSTILE,
  SCA_LINK,
  'Kari Nordmann',
  'ACME AS',
  'the ERP sent it by mistake',
  'timeout',
  'csv:test',
  'settle banks list',
  'settle consents create --bank <bankId> --org 999999999',
  'settle run nightly --company acme',
  'bank accepted',
  'bank created basket',
  'approval link issued',
];

/** Two English words in a row outside the catalogue's sentences (⟦…⟧, nested ones too) and the values. */
function outsideCatalogue(text: string): string[] {
  let rest = text;
  for (let before = ''; before !== rest;) {
    before = rest;
    rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  for (const v of [...VALUES].sort((x, y) => y.length - x.length)) rest = rest.split(v).join(' ');
  return [...rest.matchAll(/\b[A-Za-z]{2,}(?:[ ,:;]+[A-Za-z]{2,})+\b/g)].map((m) => m[0]);
}

describe('every console page in bokmål and in the pseudo-language, in a browser', () => {
  let f: ConsoleFixture;
  let session: BrowserSession;
  let pages: { name: string; path: string; status?: number }[] = [];

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture({ cancelFourEyes: true }), BrowserSession.open()]);
    const store = f.app.store;
    const world = await seedPagesWorld(store);
    const operator = await seedOperatorWorld(store);
    await seedCancellation(store, operator.waiting);
    // A rejected file whose stored summary is the validator's English, as pickup records it.
    await store.files.recordRejectedFile(paymentFile('rejected-today.csv'), VALIDATOR_SUMMARY, {
      lineCount: 3,
      rejectedCount: 1,
    });
    pages = [
      { name: 'today', path: '/console/' },
      { name: 'board', path: '/console/board' },
      { name: 'files', path: '/console/files' },
      { name: 'file', path: `/console/files/${world.file}` },
      { name: 'payments', path: '/console/payments' },
      { name: 'payment', path: `/console/payments/${world.payment}` },
      { name: 'approvals', path: '/console/approvals' },
      { name: 'basket', path: `/console/approvals/${world.basket}` },
      { name: 'reconciliation', path: '/console/reconciliation' },
      { name: 'statements', path: '/console/statements' },
      { name: 'banks', path: '/console/banks' },
      { name: 'bulks', path: '/console/bulks' },
      { name: 'held', path: '/console/held' },
      { name: 'cancellations', path: '/console/cancellations' },
      { name: 'cancel-preview', path: `/console/payments/${operator.waiting}/cancel` },
      // A line with no cancellation asked yet: the preview lists the lines the bank would cancel.
      { name: 'cancel-lines', path: `/console/payments/${world.payment}/cancel` },
      { name: 'audit', path: '/console/audit' },
      // The answers a person gets instead of a page.
      { name: 'not-found', path: '/console/no-such-page', status: 404 },
      { name: 'no-payment', path: '/console/payments/no-such-payment', status: 404 },
      { name: 'no-file', path: '/console/files/no-such-file', status: 404 },
      { name: 'no-basket', path: '/console/approvals/no-such-basket', status: 404 },
      { name: 'no-report', path: '/console/reports/no-such-report', status: 404 },
    ];
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  /** Olga (operator, unless another is named) signed in, with a browser asking for `language`. */
  const signIn = async (language: string, user: 'olga' | 'vera' = 'olga'): Promise<Page> => {
    const page = await session.newPage({ extraHTTPHeaders: { 'accept-language': language } });
    await page.goto(`${f.base}/console/sign-in`);
    await page.locator('input[name=username]').fill(user);
    await page.locator('input[name=password]').fill(PASSWORDS[user]);
    await page.locator('form[method=post] button[type=submit]').click();
    await page.waitForURL(new RegExp(`^${f.base}/console/`));
    return page;
  };
  /** What a person reads: the visible text, and labels for screen readers and placeholders. */
  const readable = async (page: Page): Promise<string> => {
    const text = await page.locator('body').innerText();
    const labels = await page
      .locator('[aria-label], [placeholder], [title]')
      .evaluateAll((els) =>
        els.map((e) => ['aria-label', 'placeholder', 'title'].map((a) => e.getAttribute(a) ?? '').join('\n')),
      );
    return [text, ...labels].join('\n').replace(/[\u00a0\u202f]/g, ' ');
  };

  /** What is wrong with the page for a reader of bokmål: its language, axe, English sentences, English times. */
  const inBokmal = async (page: Page, name: string, english: readonly string[]): Promise<string[]> => {
    const problems: string[] = [];
    const lang = await page.locator('html').getAttribute('lang');
    if (lang !== 'nb') problems.push(`${name}: lang ${lang}`);
    for (const v of await axeViolations(page)) problems.push(`${name}: axe ${v.id} (${v.impact})`);
    const text = await readable(page);
    for (const sentence of english) if (text.includes(sentence)) problems.push(`${name}: "${sentence}"`);
    // Times read as Norwegians write them, not in the sortable English form.
    for (const m of text.matchAll(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} (?:Europe\/Oslo|GMT)/g))
      problems.push(`${name}: ${m[0]}`);
    return problems;
  };

  it(
    'shows every page in bokmål to a browser asking for nb-NO: lang="nb", axe-clean, no English sentence',
    async () => {
      const english = englishSentences();
      // The check could fail: the shell's sentences are among those looked for.
      expect(english.length).toBeGreaterThan(100);
      const page = await signIn('nb-NO,nb;q=0.9,en;q=0.5');
      const problems: string[] = [];
      for (const p of pages) {
        const response = await page.goto(`${f.base}${p.path}?company=acme`);
        expect([p.name, response?.status()]).toEqual([p.name, p.status ?? 200]);
        problems.push(...(await inBokmal(page, p.name, english)));
        const text = await readable(page);
        // Today points a rejected file to its error report, in bokmål, not to the validator's English.
        if (p.name === 'today') {
          if (text.includes('fails the national check digit')) problems.push('today: the validator’s English');
          if (!text.includes('Hva som må rettes, står i feilrapporten'))
            problems.push('today: no way to the error report');
        }
        // A file's state in words (the filter's choices too), not its code.
        if (p.name === 'files' || p.name === 'file')
          for (const m of text.matchAll(/\b(?:received|accepted|duplicate|submitted|completed|attention)\b/g))
            problems.push(`${p.name}: ${m[0]}`);
        // A file's lines give their dates as bokmål writes them.
        if (p.name === 'file') for (const m of text.matchAll(/\b20\d\d-\d\d-\d\d\b/g)) problems.push(`file: ${m[0]}`);
      }
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'shows no two English words in a row outside the catalogue on any page in the pseudo-language',
    async () => {
      const page = await signIn('en-XA');
      const problems: string[] = [];
      for (const p of pages) {
        const response = await page.goto(`${f.base}${p.path}?company=acme`);
        expect([p.name, response?.status()]).toEqual([p.name, p.status ?? 200]);
        expect([p.name, await page.locator('html').getAttribute('lang')]).toEqual([p.name, 'en-XA']);
        for (const run of outsideCatalogue(await readable(page))) problems.push(`${p.name}: ${run}`);
      }
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );

  it(
    'shows the sign-in page and a refusal in bokmål, and in the pseudo-language with nothing outside the catalogue',
    async () => {
      const english = englishSentences();
      const problems: string[] = [];
      for (const language of ['nb-NO', 'en-XA']) {
        // Before anyone is known: the browser's language alone.
        const before = await session.newPage({ extraHTTPHeaders: { 'accept-language': language } });
        const signInPage = await before.goto(`${f.base}/console/sign-in`);
        expect(signInPage?.status()).toBe(200);
        // Vera is a viewer: the Banks page is not hers, and the console says why in her browser's language.
        const vera = await signIn(language, 'vera');
        const refused = await vera.goto(`${f.base}/console/banks?company=acme`);
        expect(refused?.status()).toBe(403);
        for (const [name, page] of [
          ['sign-in', before],
          ['refusal', vera],
        ] as const) {
          if (language === 'nb-NO') problems.push(...(await inBokmal(page, name, english)));
          else {
            expect([name, await page.locator('html').getAttribute('lang')]).toEqual([name, 'en-XA']);
            for (const run of outsideCatalogue(await readable(page))) problems.push(`${name} (en-XA): ${run}`);
          }
        }
        if (language === 'nb-NO') {
          expect(await readable(before)).toContain('Brukernavn');
          expect(await readable(vera)).toContain('Ikke tillatt');
          expect(await readable(vera)).toMatch(/Dette krever rollen .+ i acme; du har viewer\./);
        }
      }
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});
