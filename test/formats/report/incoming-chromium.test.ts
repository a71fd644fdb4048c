// The report's incoming-payment and proposal sections, rendered in real headless Chromium
// (Debian `chromium` + playwright-core): headings, a row with its reference and evidence, the
// summary's totals equal to the CSV's sums, and a screenshot kept in test-output/ to look at.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'csv-parse/sync';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessCalendar } from '../../../src/domain/business-calendar.js';
import { DEFAULT_TOLERANCES, reconcile, resolveReconcileConfig } from '../../../src/domain/reconcile/index.js';
import { renderFindingsCsv, renderFindingsHtml } from '../../../src/formats/report/index.js';
import { d, DEBTOR, debit, nok, payment } from '../../domain/reconcile/builders.js';
import { META } from './sample.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const OUT = join(process.cwd(), 'test-output', 'report');

function incomingResult() {
  const credit = (id: string, minor: bigint, payer: string, remittance: string, date = '2026-03-10') => ({
    id,
    company: 'acme',
    accountIban: DEBTOR,
    amount: nok(minor),
    bookingDate: d(date),
    counterpartyName: payer,
    counterpartyIban: 'NO6315061111112',
    remittance,
  });
  const receivable = (invoice: string, minor: bigint, customer: string, reference?: string) => ({
    company: 'acme',
    invoice,
    customer,
    amount: nok(minor),
    dueDate: d('2026-03-12'),
    ...(reference ? { reference } : {}),
  });
  return reconcile(
    {
      payments: [payment('p-near'), payment('p-ok', { amount: nok(20_000n) })],
      transactions: [
        debit('t-near', 10_400n, { counterpartyIban: 'NO8330001234567' }),
        debit('t-ok', 20_000n, { endToEndId: 'E2E-p-ok' }),
        credit('c-ref', 1_250_000n, 'Kunde Nord AS', 'KID 1002003018'),
        credit('c-part', 2_000_000n, 'Kunde Sør AS', 'Faktura RF18 5390 0754 7034'),
        credit('c-over', 110_000n, 'Kunde Øst AS', 'KID 1002003026'),
        credit('c-near', 780_050n, 'Kunde Vestland AS', 'Faktura 1003'),
        credit('c-none', 12_345n, 'Ukjent Betaler', 'Gave'),
      ],
      receivables: [
        receivable('INV-1001', 1_250_000n, 'Kunde Nord AS', '1002003018'),
        receivable('INV-1002', 5_000_000n, 'Kunde Sør AS', 'RF18539007547034'),
        receivable('INV-1004', 100_000n, 'Kunde Øst AS', '1002003026'),
        receivable('INV-1003', 780_050n, 'Kunde Vest AS'),
      ],
      receivablesInUse: true,
    },
    { today: d('2026-03-20'), now: new Date('2026-03-20T06:00:00Z'), calendar: businessCalendar('NO') },
    resolveReconcileConfig({
      amountToleranceMinor: 500n,
      tolerances: { ...DEFAULT_TOLERANCES, amountAbsolute: '5.00' },
    }),
  );
}

describe('incoming payments and proposals in the report', () => {
  it('has totals in the HTML summary that add up with the CSV, per type and currency', () => {
    const result = incomingResult();
    const rows = parse<Record<string, string>>(renderFindingsCsv(result.findings), { columns: true });
    const csvTotal = (type: string) =>
      rows
        .filter((r) => r.finding_type === type && r.currency === 'NOK')
        .reduce((sum, r) => sum + BigInt(r.amount!.replace('.', '')), 0n);
    const html = renderFindingsHtml(META, result.findings, result.summary);
    for (const type of ['credit_matched', 'credit_partial', 'credit_over', 'unmatched_credit', 'match_proposed']) {
      const entry = result.summary.byType.find((t) => t.type === type)!;
      expect(entry.count, type).toBeGreaterThan(0);
      const minor = csvTotal(type);
      const shown = `${(minor / 100n).toLocaleString('en')}.${(minor % 100n).toString().padStart(2, '0')} NOK`;
      // The summary row of the type shows the CSV's sum.
      const row = new RegExp(
        `<a href="#${type}">[^<]+</a>.*?<td class="num">${shown.replace(/[.,]/g, '\\$&')}</td></tr>`,
      );
      expect(html, type).toMatch(row);
    }
  });
});

describe.skipIf(!available)('incoming payments and proposals in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(OUT, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the sections with references, evidence and scores, asks nothing from outside, and screenshots', async () => {
    const result = incomingResult();
    const file = join(OUT, 'incoming.html');
    await writeFile(file, renderFindingsHtml(META, result.findings, result.summary));
    const url = pathToFileURL(file).href;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(url);

    const headings = await page.locator('h2').allInnerTexts();
    expect(headings).toEqual(
      expect.arrayContaining([
        'Proposed matches to confirm or reject (2)',
        'Incoming payments larger than the receivable (1)',
        'Incoming payments matching no open receivable (1)',
        'Receivables partly paid (1)',
        'Incoming payments matched to receivables (1)',
      ]),
    );
    const matched = page.getByRole('table', { name: 'Incoming payments matched to receivables: 1 finding' });
    const row = matched.getByRole('row', { name: /Kunde Nord AS/ });
    const cells = await row.locator('th, td').allInnerTexts();
    expect(cells.slice(0, 4)).toEqual([
      'Kunde Nord AS (NO63\u00a01506\u00a01111\u00a0112)',
      'KID 1002003018',
      'KID 1002003018',
      'INV-1001',
    ]);
    expect(cells.join(' | ')).toContain(
      'creditor-reference: agreed: creditor reference, amount; differed: date, 2 days before (score 100)',
    );
    const proposals = page.getByRole('table', { name: 'Proposed matches to confirm or reject: 2 findings' });
    expect(await proposals.getByRole('row', { name: /INV-1003/ }).innerText()).toMatch(/name \(\d+ % alike\)/);
    expect(await proposals.getByRole('row', { name: /E2E-p-near/ }).innerText()).toMatch(
      /amount-account-date: agreed: counterparty account, debtor account, date; differed: amount by 4\.00/,
    );
    // Nothing of a row runs wider than the page.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1280);

    const png = join(OUT, 'incoming.png');
    await page.screenshot({ path: png, fullPage: true });
    const bytes = await readFile(png);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.readUInt32BE(16)).toBe(1280);
    expect(requests).toEqual([url]);
    await page.close();
  });
});
