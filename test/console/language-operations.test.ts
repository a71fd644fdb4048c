// The operator's and payments pages in the reader's language, over real HTTP against `settle
// serve` with seeded data (a file, an unknown bulk, a held duplicate, an open cancellation): in
// bokmål for a browser that asks for nb-NO, and in the pseudo-language en-XA, where any English
// left once the catalogue's sentences (⟦…⟧) are taken out is text that bypasses the catalogue.
// The same pages in a real browser in bokmål have no serious or critical axe violation.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalDate } from '../../src/domain/local-date.js';
import { launchBrowser, seriousViolations } from '../support/browser.js';
import { payment, paymentFile, holdDuplicatesSince } from '../store/fixtures.js';
import { auditReason } from '../../src/domain/audit-reason.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const TEST_MS = 240_000;

/**
 * What a person reads of a page: its title, <main>'s text and the labels of its regions and
 * cells, one line per piece of text between tags (a cell, an option, a link).
 */
function readable(html: string): string {
  const title = /<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '';
  const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(html)?.[1] ?? '';
  const labels = [...main.matchAll(/(?:aria-label|data-label)="([^"]*)"/g)].map((m) => m[1]);
  return [title.replace(/ · settle$/, ''), main.replace(/<[^>]+>/g, '\n'), ...labels]
    .join('\n')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

/** The same text on one line, as a sentence reads across its tags. */
function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/**
 * Two English words in a row outside the catalogue's sentences, within one piece of text: a
 * sentence the catalogue misses. Single words are codes (states, causes, rule names).
 */
function outsideCatalogue(text: string, values: readonly string[]): string[] {
  let rest = text.replace(/⟦[^⟧]*⟧/g, ' ');
  for (const v of values) rest = rest.split(v).join(' ');
  return [...rest.matchAll(/\b[A-Za-z]{2,}(?:[ ,:;]+[A-Za-z]{2,})+\b/g)].map((m) => m[0]);
}

describe('the operator’s and payments pages in bokmål and in the pseudo-language', () => {
  let f: ConsoleFixture;
  let browser: Browser | undefined;
  const ids = { payment: '', unknownBulk: '', cancellation: '' };
  /** Values from the data, which stay as they are in every language. */
  const VALUES = ['Kari Nordmann', 'ACME AS', 'Olga Operator'];

  beforeAll(async () => {
    f = await startConsoleFixture({ cancelFourEyes: true });
    const store = f.app.store;
    const file = await store.files.recordAcceptedFile(paymentFile('language-file'), [
      payment(1, { endToEndId: 'LANG-WAITING', creditorName: 'Kari Nordmann' }),
      payment(2, { endToEndId: 'LANG-UNKNOWN-1' }),
      payment(3, { endToEndId: 'LANG-UNKNOWN-2', amount: { minor: 9_388_540n, currency: 'NOK' } }),
    ]);
    const lines = await store.payments.listByFile(file.id);
    ids.payment = lines.find((p) => p.endToEndId === 'LANG-WAITING')!.id;
    const [bulk] = await store.bulks.createBulks(file.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-08' as LocalDate,
        batchBooking: false,
        paymentIds: lines.filter((p) => p.endToEndId.startsWith('LANG-UNKNOWN')).map((p) => p.id),
      },
    ]);
    await store.bulks.markSending(bulk!.id);
    await store.bulks.markUnknown(bulk!.id, { title: 'timeout' });
    ids.unknownBulk = bulk!.id;
    const since = new Date('2026-01-01T00:00:00Z');
    const dup = (e2e: string) => payment(9, { endToEndId: e2e, amount: { minor: 9_99n, currency: 'NOK' } });
    await store.files.recordAcceptedFile(paymentFile('held-first'), [dup('H-FIRST')], 0, holdDuplicatesSince(since));
    await store.files.recordAcceptedFile(paymentFile('held-again'), [dup('H-AGAIN')], 0, holdDuplicatesSince(since));
    const request = await store.cancellations.create({
      company: 'acme',
      ref: 'LANG-WAITING',
      paymentIds: [ids.payment],
      reason: 'wrong creditor',
      requestedBy: 'local:oskar',
      channel: 'console',
    });
    ids.cancellation = request.id;
    // An entry whose reason settle gave (recorded text), and a person's decision with their own words.
    await store.audit.append({
      actor: 'settle',
      action: 'controls.load',
      subject: { type: 'controls', id: 'acme' },
      ...auditReason.controlsChanged(),
      origin: 'pickup',
    });
    await store.audit.append({
      actor: 'local:olga',
      action: 'payment.release',
      subject: { type: 'payment', id: ids.payment },
      reason: 'checked with Kari',
      origin: 'console@127.0.0.1',
      details: { company: 'acme' },
    });
    // What was recorded when a line was held, or asked: kept as it was written.
    VALUES.push('wrong creditor', 'checked with Kari');
    for (const h of (await store.operatorViews.heldPayments('acme')).rows) VALUES.push(h.reason, h.evidence ?? '');
  }, TEST_MS);
  afterAll(async () => {
    await browser?.close();
    await f?.close();
  });

  const PAGES = () => [
    '/console/payments?company=acme',
    '/console/payments?company=acme&amount=12x&from=31.01.2026&currency=kroner&state=paid',
    `/console/payments/${ids.payment}?company=acme`,
    `/console/payments/${ids.payment}/cancel?company=acme`,
    '/console/held?company=acme',
    '/console/bulks?company=acme',
    '/console/cancellations?company=acme',
    '/console/banks?company=acme',
    '/console/audit?company=acme',
    '/console/board?company=acme',
  ];

  const signedIn = async (language: string): Promise<Client> => {
    const c = new Client(f.base, { 'accept-language': language });
    expect((await c.signIn('olga', PASSWORDS.olga)).status).toBe(303);
    return c;
  };

  it(
    'has no sentence outside the catalogue on any of the pages, the sign-in page included (en-XA)',
    async () => {
      const c = await signedIn('en-XA');
      const leaks: Record<string, string[]> = {};
      for (const path of PAGES()) {
        const response = await c.request(path);
        const html = await response.text();
        expect(html, path).toContain('<html lang="en-XA">');
        // The page did draw on the catalogue: its title and body carry pseudo-sentences.
        expect(readable(html), path).toMatch(/⟦[^⟧]+⟧/);
        const found = outsideCatalogue(readable(html), VALUES);
        if (found.length) leaks[path] = found;
      }
      const signIn = await new Client(f.base, { 'accept-language': 'en-XA' }).request('/console/sign-in');
      const found = outsideCatalogue(readable(await signIn.text()), VALUES);
      if (found.length) leaks['/console/sign-in'] = found;
      expect(leaks).toEqual({});
    },
    TEST_MS,
  );

  it(
    'shows every page in bokmål to a browser that asks for nb-NO, with amounts and dates as Norwegians write them',
    async () => {
      const c = await signedIn('nb-NO,nb;q=0.9,en;q=0.5');
      const page = async (path: string) => {
        const html = await (await c.request(path)).text();
        expect(html, path).toContain('<html lang="nb">');
        return flat(readable(html));
      };
      const payments = await page('/console/payments?company=acme');
      expect(payments).toContain('Betalinger funnet, seneste forfallsdato først');
      expect(payments).toContain('93 885,40 kr');
      expect(payments).toContain('06.01.2026');
      expect(payments).not.toContain('Execution date');
      // Each line's state in words with its code beside it, as the payment's own page says it.
      expect(payments).toContain('Lest inn fra filen, ikke sendt ennå (accepted)');

      const refused = await page('/console/payments?company=acme&amount=12x&state=paid');
      expect(refused).toContain('Søket ble ikke kjørt:');
      expect(refused).toContain('Statusen «paid» er ikke en betalingsstatus');

      const story = await page(`/console/payments/${ids.payment}?company=acme`);
      expect(story).toContain('Betaling LANG-WAITING');
      expect(story).toContain('Lest inn fra filen, ikke sendt ennå');
      expect(story).toContain('Kreditor Kari Nordmann');
      expect(story).toContain('Forfallsdato 06.01.2026');
      // The history's causes in bokmål, not the English recorded beside them.
      expect(story).toContain('lest inn fra language-file');
      expect(story).not.toMatch(/pickup language-file/);

      const asked = await page(`/console/payments/${ids.payment}/cancel?company=acme`);
      expect(asked).toContain('Kansellering av LANG-WAITING er allerede bedt om');
      expect(asked).toContain('Se den på siden Kanselleringer');
      const held = await page('/console/held?company=acme');
      expect(held).toContain('Betalinger holdt tilbake til en person bestemmer, eldste først');
      expect(held).toContain('held-again.csv , linje 9');
      expect(held).toContain('Frigi (send den)');

      const bulks = await page('/console/bulks?company=acme');
      expect(bulks).toContain('Bunter med ukjent utfall, eldste først');
      expect(bulks).toContain(ids.unknownBulk);
      expect(bulks).toContain('08.01.2026');
      expect(bulks).toContain('Hva banken svarte');

      const cancellations = await page('/console/cancellations?company=acme');
      expect(cancellations).toContain('i dette selskapet bekrefter en annen operatør hver forespørsel');
      expect(cancellations).toContain('venter på en annen operatør');

      expect(await page('/console/banks?company=acme')).toContain('Samtykker');
      const auditTrail = await page('/console/audit?company=acme');
      expect(auditTrail).toMatch(/Kjeden er hel: \d+ oppføringer/);
      // Actions in words with their codes; settle's reason in bokmål, a person's as they wrote it.
      expect(auditTrail).toContain('betaling frigitt (payment.release)');
      expect(auditTrail).toContain('betalingskontroller lastet (controls.load)');
      expect(auditTrail).toContain('betalingskontrollene er endret siden forrige innlasting');
      expect(auditTrail).toContain('checked with Kari');
      // What an entry is about: its type in words, its id as it is.
      expect(auditTrail).toContain(`Betaling ${ids.payment}`);
      expect(auditTrail).toContain('Betalingskontroller acme');
      expect(auditTrail).not.toContain('the payment controls changed');
      const board = await page('/console/board?company=acme');
      expect(board).toMatch(/2 selskaper: \d+ trenger oppfølging/);
      expect(board).toContain('Sist natt');

      const signIn = flat(
        readable(await (await new Client(f.base, { 'accept-language': 'nb-NO' }).request('/console/sign-in')).text()),
      );
      expect(signIn).toContain('Brukernavn');
      expect(signIn).toContain('Logg inn med selskapets konto');
    },
    TEST_MS,
  );

  it(
    'answers an operator’s refused decision in bokmål',
    async () => {
      const c = await signedIn('nb-NO');
      const html = await (await c.request('/console/held?company=acme')).text();
      const [, action] = /<form method="post" action="(\/console\/held\/[^"]+\/release[^"]*)"/.exec(html)!;
      const response = await c.request(action!.replace(/&amp;/g, '&'), {
        form: { _csrf: Client.token(html), company: 'acme', reason: ' ' },
      });
      expect(response.status).toBe(400);
      const text = flat(readable(await response.text()));
      expect(text).toContain('Begrunnelse mangler');
      expect(text).toContain('Si hvorfor, med dine egne ord; det lagres i revisjonsloggen.');
    },
    TEST_MS,
  );

  it(
    'keeps every page accessible in bokmål in a real browser (axe: no serious or critical violation)',
    async () => {
      browser = await launchBrowser();
      const context = await browser.newContext({ locale: 'nb-NO', extraHTTPHeaders: { 'accept-language': 'nb-NO' } });
      const page = await context.newPage();
      page.setDefaultTimeout(60_000);
      await page.goto(`${f.base}/console/sign-in`);
      expect(await seriousViolations(page), 'sign-in').toEqual([]);
      await page.getByLabel('Brukernavn').fill('olga');
      await page.getByLabel('Passord').fill(PASSWORDS.olga);
      await page.getByRole('button', { name: 'Logg inn' }).click();
      await page.waitForURL(/\/console\/$/);
      for (const path of PAGES()) {
        await page.goto(`${f.base}${path}`);
        expect(await page.locator('html').getAttribute('lang'), path).toBe('nb');
        expect(await seriousViolations(page), path).toEqual([]);
      }
      await context.close();
    },
    TEST_MS,
  );
});
