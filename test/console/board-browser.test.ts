// The bureau's board in a real browser (chromium through playwright-core) against a running
// `settle serve` with three companies: ACME (onboarded, with a rejected file, a payment held as a
// likely duplicate, a basket waiting, an open finding), Beta (onboarded, all clear) and Gamma
// (never onboarded: no consent, no account). Every company is on the board with its figures,
// Gamma first and in red, never green; the filter and the links to each company's own pages
// work; axe finds no serious violation; at 390 px wide nothing scrolls sideways. Someone with
// one company has no Board in the navigation and is sent to Today.
import { hash } from '@node-rs/argon2';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_NAMES } from '../../jobs/nightly/step-result.js';
import { loadConfig } from '../../src/config/index.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { silentLogger } from '../../src/log/index.js';
import { createApp, type App } from '../../src/main/app.js';
import { startServe, type RunningServe } from '../../src/main/serve.js';
import { BrowserSession, screenshot, seriousViolations, signInWithPassword } from '../support/browser.js';
import { payment, paymentFile, holdDuplicatesSince } from '../store/fixtures.js';
import { recordSent } from '../../jobs/submit/index.js';

const PASSWORD = { olga: 'olga-correct-horse', vera: 'vera-battery-staple', fiona: 'fiona-tin-lantern' };
const RED = 'rgb(164, 22, 26)';

/** The computed colour of an element, read in the page (the test compiles without the DOM's types). */
const colourOf = (e: unknown): string =>
  (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(e).color;

describe('the bureau’s board in a browser', { timeout: 240_000 }, () => {
  let dir: string;
  let app: App;
  let serve: RunningServe;
  let base: string;
  let session: BrowserSession;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'settle-board-'));
    for (const c of ['acme', 'beta', 'gamma']) await mkdir(join(dir, c), { recursive: true });
    // Fiona looks at ACME's files (viewer) and does Beta's books (finance).
    const fiona = (role: string) => `      - { name: Fiona Finance, email: fiona@bureau.example, roles: [${role}] }\n`;
    const people = (all: boolean, extra = '') =>
      `    people:\n      - { name: Olga Operator, email: olga@bureau.example, roles: [operator] }\n${all ? '      - { name: Vera Viewer, email: vera@bureau.example, roles: [viewer] }\n' : ''}${extra}`;
    await writeFile(
      join(dir, 'settle.yaml'),
      `dataDir: ${dir}/data
console:
  enabled: true
  port: 0
  sessionKey: { env: CONSOLE_KEY }
  localUsers:
    - { username: olga, email: olga@bureau.example, passwordHash: { env: OLGA_HASH } }
    - { username: vera, email: vera@bureau.example, passwordHash: { env: VERA_HASH } }
    - { username: fiona, email: fiona@bureau.example, passwordHash: { env: FIONA_HASH } }
companies:
  - id: acme
    name: ACME AS
    organisationNumber: "999999999"
    root: ${dir}/acme
${people(true, fiona('viewer'))}  - id: beta
    name: Beta AS
    organisationNumber: "999999998"
    root: ${dir}/beta
${people(false, fiona('finance'))}  - id: gamma
    name: Gamma AS
    organisationNumber: "999999997"
    root: ${dir}/gamma
${people(false)}`,
    );
    const env = {
      CONSOLE_KEY: 'test-console-session-key-0123456789abcdef',
      OLGA_HASH: await hash(PASSWORD.olga, { algorithm: 2 }),
      VERA_HASH: await hash(PASSWORD.vera, { algorithm: 2 }),
      FIONA_HASH: await hash(PASSWORD.fiona, { algorithm: 2 }),
    };
    app = await createApp(loadConfig({ file: join(dir, 'settle.yaml'), cwd: dir, env }), silentLogger());
    serve = await startServe(app, { scheduler: false, port: 0 });
    base = serve.consoleUrl!.replace(/\/console\/$/, '');
    session = await BrowserSession.open();
    await seed(app);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await serve?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const signIn = async (user: keyof typeof PASSWORD): Promise<Page> => {
    return signInWithPassword(await session.newPage(), { base, user, password: PASSWORD[user] });
  };

  it('shows every company with its figures, the one not onboarded first and in red, and fits 390 px', async () => {
    const page = await signIn('olga');
    await page.getByRole('link', { name: 'Board', exact: true }).click();
    await page.waitForURL(/\/console\/board\?company=acme/);
    const rows = page.locator('main .board tbody tr');
    expect(await rows.count()).toBe(3);
    const [gamma, acme, beta] = [rows.nth(0), rows.nth(1), rows.nth(2)];

    expect(await gamma.locator('th').textContent()).toContain('Gamma AS');
    const red = gamma.locator('td[data-label="Onboarded"] .bad');
    expect(await red.textContent()).toContain('not onboarded');
    expect(await red.evaluate(colourOf)).toBe(RED);
    expect(await gamma.getAttribute('class')).toBe('red');
    // Never green: nothing of Gamma's row is marked ok.
    expect(await gamma.locator('.ok').count()).toBe(0);

    expect(await acme.locator('th').textContent()).toContain('ACME AS');
    const cell = (row: typeof acme, label: string) => row.locator(`td[data-label="${label}"]`).textContent();
    expect(await cell(acme, 'Onboarded')).toBe('onboarded');
    expect(await cell(acme, 'Last night')).toBe(`all ${STEP_NAMES.length} steps done`);
    expect(await cell(acme, 'Rejected files')).toBe('1');
    expect(await cell(acme, 'Held · unknown')).toBe('1 · 0');
    expect(await cell(acme, 'Approvals waiting')).toBe('1');
    expect(await cell(acme, 'Findings')).toBe('1');
    expect(await cell(acme, 'At stake')).toBe('1,234.50 NOK');
    expect(await cell(acme, 'Expiring')).toBe('1 approval link');

    expect(await beta.locator('th').textContent()).toContain('Beta AS');
    expect(await cell(beta, 'Onboarded')).toBe('onboarded');
    expect(await cell(beta, 'Rejected files')).toBe('0');
    expect(await cell(beta, 'At stake')).toBe('–');
    expect(await beta.locator('td[data-label="Last night"] .ok').evaluate(colourOf)).not.toBe(RED);
    expect(await page.locator('main').textContent()).toContain('3 companies: 2 need attention, 1 not onboarded.');

    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console', 'board');

    await page.setViewportSize({ width: 390, height: 844 });
    const widths = await page.evaluate(() => {
      const root = (
        globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
      ).document.documentElement;
      return { scroll: root.scrollWidth, client: root.clientWidth };
    });
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'console', 'board-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole('link', { name: /^Needs attention/ }).click();
    await page.waitForURL(/filter=needs-attention/);
    const names = await page.locator('main .board tbody th > a').allTextContents();
    expect(names).toEqual(['Gamma AS', 'ACME AS']);
    // By name keeps the filter, and the other filter keeps the sort.
    await page.getByRole('link', { name: 'By name', exact: true }).click();
    await page.waitForURL(/filter=needs-attention&sort=name/);
    expect(await page.locator('main .board tbody th > a').allTextContents()).toEqual(['ACME AS', 'Gamma AS']);
    await page.getByRole('link', { name: /^All companies/ }).click();
    await page.waitForURL(/board\?company=acme&sort=name$/);
    expect(await page.locator('main .board tbody th > a').allTextContents()).toEqual([
      'ACME AS',
      'Beta AS',
      'Gamma AS',
    ]);
    await page.getByRole('link', { name: /^Needs attention/ }).click();
    await page.waitForURL(/filter=needs-attention&sort=name/);
    await page.getByRole('link', { name: 'Needing attention first', exact: true }).click();
    await page.waitForURL(/board\?company=acme&filter=needs-attention$/);
    expect(await page.locator('main .board tbody th > a').allTextContents()).toEqual(['Gamma AS', 'ACME AS']);

    // Each company links to its own pages: its Today, its held payments.
    await page.getByRole('link', { name: 'ACME AS' }).click();
    await page.waitForURL(/\/console\/\?company=acme$/);
    expect(await page.locator('h1').textContent()).toBe('Today — ACME AS');
    await page.goBack();
    await page.locator('main .board tbody tr').nth(1).locator('td[data-label="Held · unknown"] a').first().click();
    await page.waitForURL(/\/console\/held\?company=acme$/);

    // A filter or a page that does not read is refused with what to do, not a server error.
    expect((await page.goto(`${base}/console/board?filter=everything`))?.status()).toBe(400);
    expect((await page.goto(`${base}/console/board?page=0`))?.status()).toBe(400);
    expect((await page.goto(`${base}/console/board?sort=size`))?.status()).toBe(400);
    // A page past the last says so and links to the first.
    await page.goto(`${base}/console/board?page=7`);
    expect(await page.locator('main').textContent()).toContain('No company on this page.');
  });

  it('links only the pages the person may open in each company, and counts the rest without a link', async () => {
    const page = await signIn('fiona');
    await page.goto(`${base}/console/board?company=acme&sort=name`);
    const rows = page.locator('main .board tbody tr');
    expect(await rows.count()).toBe(2);
    const [acme, beta] = [rows.nth(0), rows.nth(1)];
    // A viewer in ACME: its files and approvals, not Reconciliation or Banks (they would refuse her).
    expect(await acme.locator('th .links a').allTextContents()).toEqual(['Files', 'Approvals']);
    expect(await beta.locator('th .links a').allTextContents()).toEqual([
      'Files',
      'Approvals',
      'Reconciliation',
      'Banks',
    ]);
    // ACME's held payment and finding are counted, but not linked; its rejected file is.
    const cell = (label: string) => acme.locator(`td[data-label="${label}"]`);
    expect(await cell('Held · unknown').textContent()).toBe('1 · 0');
    expect(await cell('Held · unknown').locator('a').count()).toBe(0);
    expect(await cell('Findings').textContent()).toBe('1');
    expect(await cell('Findings').locator('a').count()).toBe(0);
    expect(await cell('Rejected files').locator('a').count()).toBe(1);
    // Every link on her board opens.
    const hrefs = await page
      .locator('main .board tbody a')
      .evaluateAll((as) => as.map((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(6);
    for (const href of hrefs) {
      const response = await page.request.get(`${base}${href}`);
      expect([href, response.status()]).toEqual([href, 200]);
    }
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('gives someone with one company no board: no link, and Today instead', async () => {
    const page = await signIn('vera');
    expect(await page.getByRole('link', { name: 'Board', exact: true }).count()).toBe(0);
    await page.goto(`${base}/console/board`);
    await page.waitForURL(/\/console\/\?company=acme$/);
    expect(await page.locator('h1').textContent()).toBe('Today — ACME AS');
  });
});

/** ACME and Beta onboarded and run last night; ACME with something of each kind waiting. */
async function seed(app: App): Promise<void> {
  const { store } = app;
  const now = new Date();
  for (const company of ['acme', 'beta']) {
    await store.consents.record({
      company,
      bankId: 'testbank',
      consentId: `consent-${company}`,
      status: 'Valid',
      expiresAt: new Date(now.getTime() + 90 * 86_400_000),
      statusAt: now,
      source: 'refresh',
    });
    await store.statements.upsertAccount({ id: `acc-${company}`, company, iban: 'NO9386011117947', currency: 'NOK' });
    await store.accountStatus.record(`acc-${company}`, 'enabled', now);
    await store.jobSuccesses.recordAll(
      STEP_NAMES.map((job) => ({ job, company })),
      'run-1',
    );
  }
  await store.files.recordRejectedFile(paymentFile('bad-file'), 'line 2: no creditor account', {
    lineCount: 3,
    rejectedCount: 3,
  });
  const first = await store.files.recordAcceptedFile(paymentFile('first'), [
    payment(1, { amount: { minor: 123_450n, currency: 'NOK' }, remittanceInformation: 'INV-1' }),
  ]);
  // The same creditor, amount and remittance again in another file: held as a likely duplicate.
  const again = await store.files.recordAcceptedFile(
    paymentFile('again'),
    [
      payment(1, {
        endToEndId: 'E2E-AGAIN',
        amount: { minor: 123_450n, currency: 'NOK' },
        remittanceInformation: 'INV-1',
      }),
    ],
    0,
    holdDuplicatesSince(new Date(now.getTime() - 86_400_000)),
  );
  expect(again.holds).toHaveLength(1);
  const lines = await store.payments.listByFile(first.id);
  const [bulk] = await store.bulks.createBulks(first.id, [
    {
      position: 0,
      debtorIban: 'NO9386011117947',
      executionDate: '2026-01-06' as LocalDate,
      batchBooking: false,
      paymentIds: lines.map((p) => p.id),
    },
  ]);
  await store.bulks.markSending(bulk!.id);
  await recordSent(store, bulk!.id, { bankPaymentId: 'BANK-PAY-1' });
  const basket = await store.baskets.create('acme', [bulk!.id]);
  await store.baskets.markCreated(basket.id, 'BANK-BASKET-1');
  await store.baskets.issueLink(basket.id, 'https://bank.example/sca/1', new Date(now.getTime() + 3_600_000));
  await store.findings.recordRun('acme', 'run-1', [
    { id: 'F-UNMATCHED', type: 'unmatched_payment', factHash: 'h1', subject: 'payment E2E-1', summary: 'not booked' },
  ]);
}
