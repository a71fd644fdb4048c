// Renders the report in real headless Chromium (Debian `chromium` + playwright-core): what
// finance sees, that the page asks for nothing from the network, and a screenshot.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderFindingsHtml } from '../../../src/formats/report/index.js';
import { META, sampleResult } from './sample.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) {
  if (process.env.CI)
    throw new Error(`Chromium not found at ${CHROMIUM}: CI must install the Debian package "chromium"`);
  console.warn(`\n*** SKIPPING the Chromium report test: ${CHROMIUM} not found (apt-get install chromium) ***\n`);
}

describe.skipIf(!available)('HTML report in headless Chromium', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'settle-report-'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows the summary, the tables and a row, loads nothing from outside, and screenshots to a real PNG', async () => {
    const result = sampleResult();
    const file = join(dir, 'reconciliation.html');
    await writeFile(file, renderFindingsHtml(META, result.findings, result.summary));
    const url = pathToFileURL(file).href;

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(url);

    expect(await page.title()).toBe('Reconciliation report: Acme <Nordic> & "Sons", 2026-03-01 to 2026-03-20');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    const headings = await page.locator('h2').allInnerTexts();
    expect(headings[0]).toBe('Summary');
    expect(headings).toContain('Booked with a different amount (1)');
    expect(headings).toContain('Matched (1)');
    await expect.poll(() => page.locator('.verdict').innerText()).toMatch(/^\d+ of \d+ findings need a person\.$/);

    const summaryRow = page.getByRole('row', { name: /Booked with a different amount/ }).first();
    expect(await summaryRow.locator('td').allInnerTexts()).toEqual(['error', '1', '1', '500.00 NOK']);
    const matchedTable = page.getByRole('table', { name: 'Matched: 1 finding' });
    const row = matchedTable.getByRole('row', { name: /p-ok/ });
    // The hostile creditor name is shown as text and did not run.
    expect(await row.innerText()).toContain('<script>alert("x")</script> & "Quote" AS');
    expect(dialogs).toEqual([]);
    expect(await page.locator('script').count()).toBe(0);

    // Print layout works too (print stylesheet applied without errors).
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('h1').innerText()).toContain('Reconciliation report');
    await page.emulateMedia({ media: 'screen' });

    const png = join(dir, 'report.png');
    await page.screenshot({ path: png, fullPage: true });
    const bytes = await readFile(png);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.readUInt32BE(16)).toBe(1280);
    expect(bytes.readUInt32BE(20)).toBeGreaterThan(900);
    expect(bytes.length).toBeGreaterThan(20_000);

    // The only request was the page itself.
    expect(requests).toEqual([url]);
    await page.close();
  });
});
