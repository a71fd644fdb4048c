// The accountant's error report on the console (issue #48 Must 4), in a real browser at a phone's
// width (390 px) against a running `settle serve`: a file refused by the real pickup job; its
// page shows every problem with its row, in the file's own words, wrapped (no line wider than
// the screen); it links the HTML report, which opens inline, sandboxed and nosniff, in the
// company's words; the report's id works only within the company. axe-core on both pages.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPickup } from '../../jobs/pickup/pickup.js';
import { BrowserSession, screenshot, seriousViolations, signInWithPassword } from '../support/browser.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const TEST_MS = 120_000;
const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
/** A long unbroken value, as ERPs write references and messages: it must wrap, not widen the page. */
const LONG = 'X'.repeat(30);
const FILE =
  [
    HEADER,
    `NO9386011117947,ACME AS,2099-01-07,ACME-1,1200.00,NOK,NO0612000000008,${LONG} Kontor AS`,
    `NO9386011117947,ACME AS,2099-01-07,ACME-2,99.995,NOK,NO5812000079195,Nordic Cleaning AS`,
    `NO9386011117947,ACME AS,2099-01-07,ACME-3,350.00,NOKK,NO8812000158389,Bergen Kaffe AS`,
  ].join('\n') + '\n';

describe("a refused file's error report in the console, at 390 px", () => {
  let f: ConsoleFixture;
  let session: BrowserSession;
  let fileId: string;

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture(), BrowserSession.open()]);
    const acme = f.app.config.companies.find((c) => c.id === 'acme')!;
    const inbox = join(acme.root, acme.folders.inbox);
    await mkdir(inbox, { recursive: true });
    await writeFile(join(inbox, 'acme-corrections.csv'), FILE);
    const [picked] = await runPickup({ ...f.app.pickupDeps('browser'), sleep: () => Promise.resolve() }, [acme]);
    expect(picked?.outcome).toBe('rejected');
    const [file] = await f.app.store.files.listFiles({ company: 'acme' });
    fileId = file!.id;
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  const signIn = async (user: keyof typeof PASSWORDS): Promise<Page> => {
    const page = await session.newPage({ viewport: { width: 390, height: 844 } });
    await signInWithPassword(page, { base: f.base, user, password: PASSWORDS[user] });
    return page;
  };
  /** How far the page reaches to the right, and what sticks out past the phone's width (for the failure message). */
  const reach = (page: Page) =>
    page.evaluate(() => {
      type El = { tagName: string; getBoundingClientRect(): { right: number } };
      const d = (
        globalThis as unknown as {
          document: { documentElement: { scrollWidth: number }; querySelectorAll(s: string): ArrayLike<El> };
        }
      ).document;
      const wide = Array.from(d.querySelectorAll('body *')).filter((e) => e.getBoundingClientRect().right > 390);
      return { width: d.documentElement.scrollWidth, wide: wide.slice(0, 5).map((e) => e.tagName) };
    });

  it(
    'shows every problem with its row on the file page, wrapped, and links the HTML report',
    { timeout: TEST_MS },
    async () => {
      const page = await signIn('vera');
      await page.goto(`${f.base}/console/files/${fileId}?company=acme`);
      const section = page.locator('#error-report');
      const text = await section.innerText();
      expect(text).toContain('NOTHING FROM THIS FILE WAS SENT');
      expect(text).toContain('Row 2, column "creditor_iban", value "NO0612000000008"');
      expect(text).toContain('Row 3, column "amount", value "99.995"');
      expect(text).toContain('Row 4, column "currency", value "NOKK"');
      expect(await reach(page)).toEqual({ width: 390, wide: [] });
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'console-file-report', 'file-page-390');

      const link = section.getByRole('link', { name: /Open the error report/ });
      const href = await link.getAttribute('href');
      expect(href).toMatch(/^\/console\/reports\/[^/?]+\?company=acme$/);
      const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith(href!)), link.click()]);
      expect(response.status()).toBe(200);
      const headers = response.headers();
      expect(headers['content-type']).toBe('text/html; charset=utf-8');
      expect(headers['content-disposition']).toBe('inline; filename="acme-corrections.csv.errors.html"');
      expect(headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(await page.locator('h1').textContent()).toBe(
        'acme-corrections.csv: what happened to the file and what to change',
      );
      await screenshot(page, 'console-file-report', 'html-report-390-sandboxed');
      // The sandbox lets no script run, axe's neither: the same document is checked in a page of its own.
      const copy = await page.context().newPage();
      await copy.setContent(await response.text());
      const cells = await copy.locator('tbody tr').first().locator('td').allInnerTexts();
      expect(cells.slice(0, 3)).toEqual(['2', 'creditor_iban', 'NO0612000000008']);
      expect(await reach(copy)).toEqual({ width: 390, wide: [] });
      expect(await seriousViolations(copy)).toEqual([]);
      await screenshot(copy, 'console-file-report', 'html-report-390');
    },
  );

  it("keeps the report within the company: another company's operator gets a 404", { timeout: TEST_MS }, async () => {
    const vera = new Client(f.base);
    await vera.signIn('vera', PASSWORDS.vera);
    const page = await (await vera.request(`/console/files/${fileId}?company=acme`)).text();
    const href = /href="(\/console\/reports\/[^"?]+)\?company=acme"[^>]*>Open the error report/.exec(page)?.[1];
    expect(href).toBeDefined();
    const bert = new Client(f.base);
    await bert.signIn('bert', PASSWORDS.bert);
    expect((await bert.request(`${href}?company=beta`)).status).toBe(404);
  });

  it('reads in bokmål for a person whose browser asks for Norwegian', { timeout: TEST_MS }, async () => {
    const vera = new Client(f.base, { 'accept-language': 'nb-NO,nb;q=0.9' });
    await vera.signIn('vera', PASSWORDS.vera);
    const page = await (await vera.request(`/console/files/${fileId}?company=acme`)).text();
    expect(page).toContain('<h2>Feilrapport</h2>');
    expect(page).toContain('Åpne feilrapporten (hver feil, med rad og hva som må endres)');
    expect(page).toContain('Ingen linje i denne filen ble godtatt: ingenting fra den går til banken.');
    expect(page).not.toContain('Accepted lines');
  });
});
