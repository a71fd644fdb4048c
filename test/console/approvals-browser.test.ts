// Approvals that read like a payment order (issue #48, Must 3) and speak the person's language
// (issue #53), in a real browser (Debian's chromium through playwright-core) against a running
// `settle serve`: every payment with creditor, account, amount, remittance, ERP reference, file
// and who dropped it; a payee never paid before and a line held and released marked; totals per
// debtor account; the deadline in the company's time with the zone named once; the basket by
// settle's id with the bank's one line away; who saw the link and when the bank approved. An
// approver without e-mail sees the waiting basket on Today and on Approvals, told that the link
// reached no one and how to get it; a link issued minutes ago is not "expiring soon". Each page
// at 390 px without sideways scrolling, in bokmål, and in the pseudo-language with no English
// left outside the catalogue; axe-core on each, screenshots kept.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalDate } from '../../src/domain/local-date.js';
import { BrowserSession, mainText, screenshot, seriousViolations, signInWithPassword } from '../support/browser.js';
import { payment, paymentFile, holdDuplicatesSince } from '../store/fixtures.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';
import { decideHeldPayment } from '../../jobs/controls/index.js';
import { recordSent } from '../../jobs/submit/index.js';

const TEST_MS = 240_000;
const SCA_LINK = 'https://bank.example/sca/one-time-approvals';
const A = 'NO9386011117947';
const B = 'NO7215031234562';
const KNOWN_PAYEE = 'NO0612000000009';
const NEW_PAYEE = 'NO8330001234567';
const HOUR = 3_600_000;

describe('approvals read like a payment order, in a browser', () => {
  let f: ConsoleFixture;
  let session: BrowserSession;
  const ids = { basket: '', expires: new Date(0), zone: '' };

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture(), BrowserSession.open()]);
    const store = f.app.store;
    ids.zone = f.app.config.companies.find((c) => c.id === 'acme')?.timeZone ?? f.app.config.timeZone;
    /** Sent bulks of a file, one per debtor account with its payment ids, created in one call. */
    const sentBulks = async (fileId: string, byAccount: [string, string[]][]) => {
      const bulks = await store.bulks.createBulks(
        fileId,
        byAccount.map(([debtorIban, paymentIds], position) => ({
          position,
          debtorIban,
          executionDate: '2026-01-06' as LocalDate,
          batchBooking: false,
          paymentIds,
        })),
      );
      for (const bulk of bulks) {
        await store.bulks.markSending(bulk.id);
        await recordSent(store, bulk.id, { bankPaymentId: `BANK-PAY-${bulk.id}` });
      }
      return bulks.map((b) => b.id);
    };

    // Paid before: a line to KNOWN_PAYEE settled at the bank.
    const history = await store.files.recordAcceptedFile(paymentFile('history'), [
      payment(1, { endToEndId: 'OLD-1', creditorIban: KNOWN_PAYEE, creditorName: 'Kjent Leverandør AS' }),
    ]);
    const [old] = await store.payments.listByFile(history.id);
    await sentBulks(history.id, [[A, [old!.id]]]);
    await store.payments.applyBankStatus([old!.id], { status: 'ACSC', cause: 'status poll', source: 'poll' });

    // Held as a likely duplicate of an earlier line, then released by an operator.
    const since = new Date('2026-01-01T00:00:00Z');
    const dup = (e2e: string) =>
      payment(9, {
        endToEndId: e2e,
        creditorIban: KNOWN_PAYEE,
        creditorName: 'Kjent Leverandør AS',
        amount: { minor: 50_000n, currency: 'NOK' },
      });
    await store.files.recordAcceptedFile(paymentFile('held-first'), [dup('H-FIRST')], 0, holdDuplicatesSince(since));
    const again = await store.files.recordAcceptedFile(
      paymentFile('held-again', { droppedBy: 'erp-upload' }),
      [dup('H-AGAIN')],
      0,
      holdDuplicatesSince(since),
    );
    const [held] = await store.held.list({ company: 'acme' });
    await decideHeldPayment(store, held!.id, {
      decision: 'released',
      by: 'local:olga',
      reason: 'two invoices with the same amount',
    });

    const file = await store.files.recordAcceptedFile(paymentFile('invoices-2026-01', { droppedBy: 'erp-upload' }), [
      payment(1, {
        endToEndId: 'INV-1001',
        creditorIban: NEW_PAYEE,
        creditorName: 'Ny Leverandør AS',
        remittanceInformation: 'Faktura 1001',
        amount: { minor: 123_450n, currency: 'NOK' },
      }),
      payment(2, {
        endToEndId: 'INV-1002',
        creditorIban: KNOWN_PAYEE,
        creditorName: 'Kjent Leverandør AS',
        remittanceInformation: 'Faktura 1002',
        amount: { minor: 1_000_000n, currency: 'NOK' },
        debtorIban: B,
      }),
    ]);
    const lines = await store.payments.listByFile(file.id);
    const [againLine] = await store.payments.listByFile(again.id);
    const ofFile = await sentBulks(file.id, [
      [A, [lines.find((p) => p.endToEndId === 'INV-1001')!.id]],
      [B, [lines.find((p) => p.endToEndId === 'INV-1002')!.id]],
    ]);
    const released = await sentBulks(again.id, [[A, [againLine!.id]]]);
    const basket = await store.baskets.create('acme', [...ofFile, ...released]);
    await store.baskets.markCreated(basket.id, 'BANK-BASKET-77');
    // Issued now, valid for a day: minutes later it must not read "expires soon".
    ids.expires = new Date(Date.now() + 24 * HOUR);
    await store.baskets.issueLink(basket.id, SCA_LINK, ids.expires);
    ids.basket = basket.id;
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  const signIn = async (user: keyof typeof PASSWORDS): Promise<Page> => {
    const page = await session.newPage();
    // Each person lands where their work starts (an approver on Approvals: src/server/console/access.ts).
    await signInWithPassword(page, {
      base: f.base,
      user,
      password: PASSWORDS[user],
      landing: (url) => url.pathname.startsWith('/console/') && url.pathname !== '/console/sign-in',
    });
    return page;
  };
  /** Accessible, one heading, and at 390 px wide nothing scrolls sideways; screenshots at both widths. */
  const check = async (page: Page, name: string) => {
    expect(await seriousViolations(page), name).toEqual([]);
    expect(await page.locator('h1').count(), name).toBe(1);
    await screenshot(page, 'console', name);
    await page.setViewportSize({ width: 390, height: 844 });
    const widths = await page.evaluate(() => {
      const root = (
        globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
      ).document.documentElement;
      return { scroll: root.scrollWidth, client: root.clientWidth };
    });
    expect(widths.scroll, `${name} at 390 px`).toBeLessThanOrEqual(widths.client);
    expect(await seriousViolations(page), `${name} at 390 px`).toEqual([]);
    await screenshot(page, 'console', `${name}-390`);
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  /** The expiry's hour and minute in the company's zone, as a person there reads the clock. */
  const localClock = (at: Date) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: ids.zone,
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(at);

  it(
    'shows an approver without e-mail the waiting basket on Today and on Approvals, saying the link reached no one and how to get it',
    async () => {
      const page = await signIn('alma');
      // Alma lands on Approvals; Today lists the waiting basket as a row of its own.
      await page.goto(`${f.base}/console/?company=acme`);
      const row = ((await page.locator('main tr', { hasText: ids.basket }).first().textContent()) ?? '').replace(
        /\s+/g,
        ' ',
      );
      expect(row).toContain('Waiting for an approver');
      expect(row).toContain('11,734.50 NOK');
      for (const where of ['/console/', '/console/approvals']) {
        await page.goto(`${f.base}${where}?company=acme`);
        const text = await mainText(page);
        expect(text, where).toContain(ids.basket);
        expect(text, where).toContain('The approval link was not sent to anyone');
        expect(text, where).toContain('settle approvals list --link');
        expect(await page.locator('main [role=note] a').getAttribute('href'), where).toBe(
          '/console/approvals?company=acme',
        );
      }
      await page.goto(`${f.base}/console/?company=acme`);
      await check(page, 'today-approver');
    },
    TEST_MS,
  );

  it(
    'labels a link issued minutes ago by the time really left, not "expires soon", on Today and Approvals',
    async () => {
      const page = await signIn('alma');
      // Today's row of the basket, and the Approvals page's "Approve by".
      for (const [where, rowOf] of [
        ['/console/', ids.basket],
        ['/console/approvals', 'Approve by'],
      ] as const) {
        await page.goto(`${f.base}${where}?company=acme`);
        const row = ((await page.locator('main tr', { hasText: rowOf }).first().textContent()) ?? '').replace(
          /\s+/g,
          ' ',
        );
        expect(row, where).toContain(localClock(ids.expires));
        expect(row, where).toMatch(/\(23 hours \d+ minutes left\)/);
        expect(await page.locator('main .warn', { hasText: 'expires soon' }).count(), where).toBe(0);
      }
    },
    TEST_MS,
  );

  it(
    'reads Today and Approvals in bokmål, and in the pseudo-language with no English outside the catalogue',
    async () => {
      const page = await signIn('alma');
      await page.setExtraHTTPHeaders({ 'accept-language': 'nb-NO,nb;q=0.9' });
      await page.goto(`${f.base}/console/approvals?company=acme`);
      expect(await page.locator('html').getAttribute('lang')).toBe('nb');
      expect(await page.locator('h1').textContent()).toBe('Venter på godkjenning');
      const text = await mainText(page);
      expect(text).toContain('3 betalinger, 11 734,50 kr, venter på godkjenning');
      expect(text).toContain(`Tidspunkter er i ${ids.zone}.`);
      expect(text).toContain('Godkjenningslenken er ikke sendt til noen');
      const cell = (reference: string, column: string) =>
        page.locator('main tbody tr', { hasText: reference }).locator(`td[data-label="${column}"]`).textContent();
      expect(await cell('INV-1001', 'Kreditor')).toContain('aldri betalt før');
      expect(await cell('INV-1001', 'Remittering')).toBe('Faktura 1001');
      expect(((await cell('INV-1001', 'Beløp')) ?? '').replace(/\s+/g, ' ')).toBe('1 234,50 kr');
      expect(await cell('INV-1001', 'Levert av')).toBe('erp-upload');
      expect(await cell('INV-1001', 'Forfallsdato')).toBe('06.01.2026');
      expect(text).toMatch(/23 timer og \d+ minutter igjen/);
      await check(page, 'approvals-nb');

      await page.goto(`${f.base}/console/?company=acme`);
      expect(await page.locator('h1').textContent()).toBe('I dag — ACME AS');
      const today = await mainText(page);
      expect(today).toContain('Venter på en godkjenner');
      expect(today).toContain('Ingen avviste filer.');
      await check(page, 'today-nb');

      // In the pseudo-language every sentence of the catalogue reads ⟦…⟧: what is left once they
      // are taken out is values (ids, accounts, names, amounts, dates, codes), never English.
      await page.setExtraHTTPHeaders({ 'accept-language': 'en-XA' });
      const values = [
        ids.basket,
        ids.zone,
        'BANK-BASKET-77',
        'invoices-2026-01.csv',
        'held-again.csv',
        'erp-upload',
        'Ny Leverandør AS',
        'Kjent Leverandør AS',
        'Faktura 1001',
        'Faktura 1002',
        'Invoice 9',
        'link_issued',
        'ACME AS',
      ];
      for (const path of ['/console/approvals', '/console/', `/console/approvals/${ids.basket}`]) {
        await page.goto(`${f.base}${path}?company=acme`);
        // Innermost first: a sentence may hold another (a rule's words inside "held by …, released by …").
        let rest = await mainText(page);
        while (/⟦[^⟦⟧]*⟧/.test(rest)) rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ');
        // Commands are values too: the onboarding's, for a company with no consent here.
        for (const v of [...values, ...(await page.locator('main li code').allTextContents())])
          rest = rest.split(v).join(' ');
        // Amounts, dates and times, codes and ids that are values, not sentences.
        const words = (rest.match(/[A-Za-z]{2,}/g) ?? []).filter(
          (w) => !/^(NOK|NO|INV|OLD|H|AGAIN|[A-F]+|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/.test(w),
        );
        expect(words, path).toEqual([]);
        expect(await page.locator('h1').textContent(), path).toMatch(/^⟦.*⟧$/);
      }
    },
    TEST_MS,
  );

  /** The signed-in approver on the Approvals page, and readers of its cells and facts. */
  const approvalsPage = async () => {
    const page = await signIn('alma');
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals', exact: true }).click();
    await page.waitForURL(/\/console\/approvals\?company=acme/);
    const cell = (reference: string, column: string) =>
      page.locator('main tbody tr', { hasText: reference }).locator(`td[data-label="${column}"]`).textContent();
    const fact = async (name: string) =>
      (
        (await page.locator('main th[scope=row]', { hasText: name }).locator('+ td').first().textContent()) ?? ''
      ).replace(/\s+/g, ' ');
    return { page, cell, fact };
  };

  it(
    'lists every payment like a payment order: creditor, account, amount, remittance, ERP reference, file, who dropped it, and the marks',
    async () => {
      const { page, cell } = await approvalsPage();
      expect(await page.locator('h1').textContent()).toBe('Approvals waiting');
      expect(await mainText(page)).toContain('3 payments, 11,734.50 NOK, waiting for approval');
      const line = async (reference: string) =>
        ((await page.locator('main tbody tr', { hasText: reference }).textContent()) ?? '').replace(/\s+/g, ' ');
      expect(await cell('INV-1001', 'ERP reference')).toBe('INV-1001');
      expect(await cell('INV-1001', 'Creditor')).toContain('Ny Leverandør AS');
      expect(await cell('INV-1001', 'Creditor account')).toBe(NEW_PAYEE);
      expect(await cell('INV-1001', 'Amount')).toBe('1,234.50 NOK');
      expect(await cell('INV-1001', 'Remittance')).toBe('Faktura 1001');
      expect(await cell('INV-1001', 'Debtor account')).toBe(A);
      expect(await cell('INV-1001', 'File')).toBe('invoices-2026-01.csv');
      expect(await cell('INV-1001', 'Dropped by')).toBe('erp-upload');
      expect(await line('INV-1001')).toContain('never paid before');
      // Paid before: no mark; held as a duplicate and released: the rule and who released it.
      expect(await line('INV-1002')).not.toContain('never paid before');
      expect(await cell('INV-1002', 'Debtor account')).toBe(B);
      expect(await cell('H-AGAIN', 'Creditor')).toMatch(/held by .+, released by local:olga/);
      expect(await cell('H-AGAIN', 'Dropped by')).toBe('erp-upload');
      await check(page, 'approvals-order');
    },
    TEST_MS,
  );

  it(
    'shows totals per debtor account and the deadline in local time, the zone named once',
    async () => {
      const { page, fact } = await approvalsPage();
      expect(await fact(`Total from ${A}`)).toBe('1,734.50 NOK');
      expect(await fact(`Total from ${B}`)).toBe('10,000.00 NOK');
      const deadline = await fact('Approve by');
      expect(deadline).toContain(localClock(ids.expires));
      expect(deadline).not.toContain(ids.zone);
      const text = await mainText(page);
      expect(text.split(ids.zone).length - 1).toBe(1);
      expect(text).toContain(`Times are in ${ids.zone}.`);
    },
    TEST_MS,
  );

  it(
    'goes by settle’s basket id, with the bank’s one line away and the basket titled by its money',
    async () => {
      const { page, fact } = await approvalsPage();
      expect(await fact('Basket (settle’s id)')).toBe(ids.basket);
      expect(await fact('The bank’s id for it')).toBe('BANK-BASKET-77');
      expect((await mainText(page)).split('BANK-BASKET-77').length - 1).toBe(1);
      await page.goto(`${f.base}/console/approvals/${ids.basket}?company=acme`);
      expect(await page.locator('h1').textContent()).toBe('Payments for approval: 11,734.50 NOK');
      expect(await fact('Basket (settle’s id)')).toBe(ids.basket);
      expect(await fact('The bank’s id for it')).toBe('BANK-BASKET-77');
    },
    TEST_MS,
  );

  it(
    'says who saw the approval link and when the bank approved',
    async () => {
      const { page, fact } = await approvalsPage();
      expect(await fact('Link shown to')).toBe('nobody yet');
      expect(await fact('Approved')).toBe('not yet');
      await page.getByRole('button', { name: /Show the approval link/ }).click();
      await page.getByRole('link', { name: 'Approve at the bank' }).waitFor();
      await page.goto(`${f.base}/console/approvals?company=acme`);
      expect(await fact('Link shown to')).toMatch(/^local:alma at \d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/);

      await f.app.store.baskets.markAuthorised(ids.basket, 'bank reports the basket authorised');
      await page.goto(`${f.base}/console/approvals/${ids.basket}?company=acme`);
      expect(await fact('State')).toBe('Approved at the bank (authorised)');
      expect(await fact('Approved')).toMatch(/^at the bank, \d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/);
      expect(await fact('Link shown to')).toMatch(/^local:alma at /);
      await check(page, 'basket-approved');
    },
    TEST_MS,
  );
});
