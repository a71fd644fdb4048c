// Payroll stays private over real HTTP against `settle serve`, on SQLite and on MariaDB (issue
// #50, Must 7): every place that shows or sums money applies the one rule of
// src/domain/payroll.ts. Vera (viewer) and Olga (operator) lack the payroll role; Paula (viewer,
// payroll) has it. A total over lines with payroll among them shows the others the visible lines'
// total with a note, never the whole (the whole less the visible lines would be the salaries).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { payment, paymentFile } from '../store/fixtures.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';
import { recordSent } from '../../jobs/submit/index.js';

const PAYROLL_ACCOUNT = 'NO6512345678903';
const engines: { name: string; mariadb: boolean }[] = [{ name: 'SQLite', mariadb: false }];
if (await mariaDbForTests()) engines.push({ name: 'MariaDB', mariadb: true });

// Lines of file A: 123.45 and 1,234.50 plain, 246.90 SALA, 370.35 from the payroll account.
const A_WHOLE = '1,975.20 NOK';
const A_VISIBLE = '1,357.95 NOK<span class="muted"> (visible lines only: 2 payroll lines left out)</span>';
// Lines of file B (one unknown bulk): 617.25 SALA, 740.70 plain.
const B_WHOLE = '1,357.95 NOK';
const B_VISIBLE = '740.70 NOK<span class="muted"> (visible lines only: 1 payroll line left out)</span>';

describe.each(engines)('payroll money on every page, $name', ({ mariadb }) => {
  let f: ConsoleFixture;
  let throwaway: ThrowawayDatabase | undefined;
  const ids = { fileA: '', salary: '' };
  const clients = new Map<string, Client>();
  const get = async (user: 'vera' | 'olga' | 'paula', path: string) => {
    let c = clients.get(user);
    if (!c) {
      c = new Client(f.base);
      expect((await c.signIn(user, PASSWORDS[user])).status).toBe(303);
      clients.set(user, c);
    }
    const res = await c.request(`${path}${path.includes('?') ? '&' : '?'}company=acme`);
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    if (mariadb) throwaway = await createThrowawayDatabase();
    f = await startConsoleFixture({
      clock: new ManualClock(new Date()),
      payrollAccounts: [PAYROLL_ACCOUNT],
      ...(throwaway ? { databaseUrl: throwaway.url } : {}),
    });
    const store = f.app.store;
    const fileA = await store.files.recordAcceptedFile(paymentFile('payroll-file-a'), [
      payment(1),
      payment(2, { endToEndId: 'E2E-SALARY', categoryPurpose: 'SALA', creditorName: 'Kari Nordmann' }),
      payment(3, { endToEndId: 'E2E-PAYROLL-ACCOUNT', debtorIban: PAYROLL_ACCOUNT, creditorName: 'Ola Nordmann' }),
      payment(10),
    ]);
    ids.fileA = fileA.id;
    const linesA = await store.payments.listByFile(fileA.id);
    ids.salary = linesA.find((p) => p.endToEndId === 'E2E-SALARY')!.id;
    const [bulkA] = await store.bulks.createBulks(fileA.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as LocalDate,
        batchBooking: false,
        paymentIds: linesA.map((p) => p.id),
      },
    ]);
    await store.bulks.markSending(bulkA!.id);
    await recordSent(store, bulkA!.id, { bankPaymentId: 'BANK-PAY-A', bankId: 'testbank', consentId: 'CONSENT-1' });
    const basket = await store.baskets.create('acme', [bulkA!.id]);
    await store.baskets.markCreated(basket.id, 'BANK-BASKET-A');

    const fileB = await store.files.recordAcceptedFile(paymentFile('payroll-file-b'), [
      payment(5, { endToEndId: 'E2E-SALARY-B', categoryPurpose: 'SALA', creditorName: 'Per Hansen' }),
      payment(6),
    ]);
    const linesB = await store.payments.listByFile(fileB.id);
    const [bulkB] = await store.bulks.createBulks(fileB.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as LocalDate,
        batchBooking: false,
        paymentIds: linesB.map((p) => p.id),
      },
    ]);
    await store.bulks.markSending(bulkB!.id);
    await store.bulks.markUnknown(bulkB!.id, { reason: 'no answer' });

    await store.statements.upsertAccount({ id: 'acc-pay', company: 'acme', iban: PAYROLL_ACCOUNT, currency: 'NOK' });
    await store.statementDays.record({
      accountId: 'acc-pay',
      day: '2026-01-04' as LocalDate,
      currency: 'NOK',
      openingMinor: 500_000n,
      closingMinor: 462_965n,
      bookedSumMinor: -37_035n,
      entryCount: 1,
      continuity: 'ok',
    });
    await store.findings.recordRun('acme', 'run-1', [
      {
        id: 'F-SALARY',
        type: 'unmatched_payment',
        factHash: 'h1',
        subject: `payment ${ids.salary}`,
        summary: 'not booked: 246.90 NOK to Kari Nordmann',
      },
    ]);
  }, 90_000);
  afterAll(async () => {
    await f?.close();
    await throwaway?.drop();
  });

  it('file totals: the visible lines only, with a note, on the list and the file page', async () => {
    for (const path of ['/console/files', `/console/files/${ids.fileA}`]) {
      for (const user of ['vera', 'olga'] as const) {
        const html = await get(user, path);
        expect(html).toContain(A_VISIBLE);
        expect(html).not.toContain('1,975.20');
      }
      expect(await get('paula', path)).toContain(`${A_WHOLE}</td>`);
    }
  });

  it('basket totals and totals per account: without payroll lines and the payroll account', async () => {
    const vera = await get('vera', '/console/approvals');
    expect(vera).toContain(A_VISIBLE);
    expect(vera).not.toContain('1,975.20');
    expect(vera).toMatch(/Total from NO9386011117947<\/th><td>1,357\.95 NOK<\/td>/);
    expect(vera).not.toContain(`Total from ${PAYROLL_ACCOUNT}`);
    const paula = await get('paula', '/console/approvals');
    expect(paula).toContain(`${A_WHOLE}</td>`);
    expect(paula).toContain(`Total from ${PAYROLL_ACCOUNT}</th><td>370.35 NOK</td>`);
  });

  it("unknown bulks' totals: the visible lines only, even for an operator", async () => {
    const olga = await get('olga', '/console/bulks');
    expect(olga).toContain(B_VISIBLE);
    expect(olga).not.toContain('1,357.95');
    expect(await get('paula', '/console/bulks')).toContain(`${B_WHOLE}</td>`);
  });

  it("a payroll account's statement days: balances and daily sums hidden", async () => {
    // Statements are finance's, payroll's and operators' (src/server/console/access.ts): an operator has no payroll role.
    const olga = await get('olga', '/console/statements?account=acc-pay');
    for (const amount of ['5,000.00', '4,629.65', '370.35']) expect(olga).not.toContain(amount);
    expect(olga).toContain('payroll (hidden)');
    expect(olga).toContain('shown to the payroll role only');
    const paula = await get('paula', '/console/statements?account=acc-pay');
    for (const amount of ['5,000.00', '4,629.65', '370.35']) expect(paula).toContain(amount);
  });

  it('findings on Reconciliation and Today, and the payments list: the salary hidden', async () => {
    for (const path of ['/console/reconciliation', '/console/', '/console/payments']) {
      // A viewer does not open Reconciliation (src/server/console/access.ts); an operator has no payroll role.
      const other = await get(path === '/console/reconciliation' ? 'olga' : 'vera', path);
      expect(other).not.toContain('246.90');
      expect(other).not.toContain('Kari Nordmann');
      expect(await get('paula', path)).toContain('Kari Nordmann');
    }
  });
});
