// What approvers and operators read, through the real command line on the demo's data: the
// approval notice (the approvers' copy with the link, the reports copy without it),
// `settle approvals list`, `settle payments show` and `settle payments list`.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSettle } from '../support/cli.js';
import { makeTempDir } from '../support/tmp.js';
import { SEED } from '../../src/sandbox/index.js';

// Every check runs settle as a process; on a busy machine each start takes seconds.
vi.setConfig({ testTimeout: 120_000 });

let dir: string;
let cleanup: () => Promise<void>;
let demo: string;
const settle = (args: string[]) =>
  runSettle(['--config', join(demo, 'settle.yaml'), ...args], { cwd: dir, env: { SETTLE_CLIENT_SECRET: 'unused' } });

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  demo = join(dir, 'demo');
  const run = await runSettle(['demo', '--dir', demo], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await cleanup();
});

const only = async (folder: string, prefix: string): Promise<string> => {
  const names = (await readdir(join(demo, 'acme', folder))).filter((n) => n.startsWith(prefix));
  expect(names).toHaveLength(1);
  return readFile(join(demo, 'acme', folder, names[0]!), 'utf8');
};

describe('the approval notice of the demo basket', () => {
  it('lists every payment, the totals per debtor account, the expiry in the company time zone and the approvers needed', async () => {
    const notice = await only('approvals', 'approval-');
    expect(notice).toMatch(/^Approve them here .*\n {2}http:\/\/127\.0\.0\.1:\d+\/__sandbox\/sca\/\S+$/m);
    expect(notice).toContain('The link works ONCE and expires 2026-01-12 09:00 Europe/Oslo.');
    expect(notice).toContain('Approvers the bank still needs: 1');
    expect(notice).toContain('Payments: 3');
    expect(notice).toMatch(/^ {2}Debtor account {2}Currency {2}Payments {4}Amount$/m);
    expect(notice).toMatch(/^ {2}NO72…4562 {7}NOK {14}3 {2}57475\.50$/m);
    expect(notice).toMatch(/^ {2}Creditor +Account +Amount {2}Currency {2}Execution date {2}ERP reference$/m);
    for (const [creditor, account, amount, reference] of [
      ['Tromso Bygg AS', 'NO27…7572', '48250.00', 'ACME-2026-0004'],
      ['Fjord Frakt AS', 'NO57…6766', '1725.50', 'ACME-2026-0005'],
      ['Trondheim Revisjon AS', 'NO06…0009', '7500.00', 'ACME-SUP-0003'],
    ])
      expect(notice).toMatch(new RegExp(`^  ${creditor} +${account} +${amount}  NOK +2026-01-07 +${reference}$`, 'm'));
    // Full creditor accounts stay out of the notice.
    expect(notice).not.toContain('NO2712000237572');
  });

  it('puts the same notice in the reports folder without the single-use link', async () => {
    const report = await only('reports', 'approval-');
    expect(report).not.toMatch(/__sandbox\/sca/);
    expect(report).toContain(
      "The approval link went to the approvers' folder approvals; it works once and expires 2026-01-12 09:00 Europe/Oslo.",
    );
    expect(report).toContain('ACME-2026-0004');
    expect(report).toMatch(/^ {2}NO72…4562 {7}NOK {14}3 {2}57475\.50$/m);
  });

  it('settle approvals list shows the same figures with headers, and as JSON', async () => {
    const text = await settle(['approvals', 'list', '--state', 'authorised']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^Basket +Company +State +Payments +Totals +Link expires$/m);
    expect(text.stdout).toMatch(
      / acme +authorised +3 +57475\.50 NOK from NO7215031234562 +2026-01-12 09:00 Europe\/Oslo$/m,
    );
    expect(text.stdout).not.toMatch(/__sandbox\/sca/);
    const json = await settle(['approvals', 'list', '--state', 'authorised', '--json']);
    const [basket] = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(basket).toMatchObject({
      company: 'acme',
      state: 'authorised',
      bulks: 2,
      payments: 3,
      totals: [{ debtorIban: 'NO7215031234562', currency: 'NOK', payments: 3, amount: '57475.50' }],
      linkExpiresLocal: '2026-01-12 09:00 Europe/Oslo',
    });
    expect(basket).not.toHaveProperty('approvalLink');
  });
});

describe('settle payments show', () => {
  it("tells one payment's whole story: file and line, states with time and source, bank ids, basket, booking, reconciliation", async () => {
    const run = await settle(['payments', 'show', 'ACME-2026-0004']);
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    expect(out).toMatch(/^Payment ACME-2026-0004 of acme$/m);
    expect(out).toMatch(/^ {2}File: +acme-payments\.csv, line 5$/m);
    expect(out).toMatch(/^ {2}Received: +2026-01-05 09:00 Europe\/Oslo \(csv:generic\)$/m);
    expect(out).toMatch(/^ {2}Creditor: +Tromso Bygg AS, NO2712000237572$/m);
    expect(out).toMatch(/^ {2}Debtor: +ACME AS, NO7215031234562$/m);
    expect(out).toMatch(/^ {2}Amount: +48250\.00 NOK$/m);
    expect(out).toMatch(/^ {2}Execution date: +2026-01-07$/m);
    expect(out).toMatch(/^ {2}Remittance: +Avdrag kontrakt 17$/m);
    expect(out).toMatch(/^ {2}State: +ACSC \(bank status ACSC\)$/m);
    expect(out).toMatch(/^ {2}Bulk: +\S+ \(done, 1 attempt\(s\)\)$/m);
    expect(out).toMatch(/^ {2}Bank payment id: +p\w+$/m);
    // The bank and consent the bulk was initiated under, as recorded when it was sent.
    expect(out).toMatch(new RegExp(`^ {2}Sent under: +testbank consent ${SEED.consentId}$`, 'm'));
    expect(out).toMatch(
      /^ {2}Signing basket: +\S+ \(authorised, bank [\w-]+, link expires 2026-01-12 09:00 Europe\/Oslo\)$/m,
    );
    expect(out).toMatch(/^ {2}Reconciliation: +matched: Booked 2026-01-07 for 48250\.00 NOK, as sent\.$/m);
    expect(out).toMatch(/^ {2}When +What +From +To +Source +Cause$/m);
    expect(out).toMatch(/^ {2}2026-01-05 09:00 Europe\/Oslo +file +- +accepted +settle +pickup acme-payments\.csv$/m);
    // The POST's answer gave the line its status: RCVD, recorded by submit, not by the first poll.
    expect(out).toMatch(/^ {2}2026-01-05 09:00 Europe\/Oslo +payment +queued +RCVD +settle +bank accepted$/m);
    expect(out).toMatch(/^ {2}2026-01-08 04:00 Europe\/Oslo +payment +RCVD +ACSC +poll +/m);
    expect(out).toMatch(/^ {2}2026-01-07 +NO7215031234562 +-48250\.00 +NOK +booked +\S+$/m);
    expect(out).not.toMatch(/__sandbox\/sca/);

    const json = JSON.parse((await settle(['payments', 'show', 'ACME-2026-0004', '--json'])).stdout) as Record<
      string,
      unknown
    >[];
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({
      company: 'acme',
      file: { name: 'acme-payments.csv', format: 'csv:generic', line: 5 },
      endToEndId: 'ACME-2026-0004',
      debtor: { name: 'ACME AS', iban: 'NO7215031234562' },
      creditor: { name: 'Tromso Bygg AS', iban: 'NO2712000237572' },
      amount: '48250.00',
      currency: 'NOK',
      executionDate: '2026-01-07',
      state: 'ACSC',
      bulk: {
        state: 'done',
        bankPaymentId: expect.stringMatching(/^p/),
        bankId: 'testbank',
        consentId: SEED.consentId,
      },
      basket: { state: 'authorised' },
      bookings: [{ amount: '-48250.00', currency: 'NOK', bookingDate: '2026-01-07', status: 'booked' }],
      reconciliation: { result: 'matched' },
    });
  });

  it('finds the payments by the bank payment id too, and says plainly when nothing matches (exit 1)', async () => {
    const [first] = JSON.parse((await settle(['payments', 'show', 'ACME-2026-0004', '--json'])).stdout) as {
      bulk: { bankPaymentId: string };
    }[];
    const byBank = JSON.parse((await settle(['payments', 'show', first!.bulk.bankPaymentId, '--json'])).stdout) as {
      endToEndId: string;
    }[];
    expect(byBank.map((p) => p.endToEndId)).toEqual(['ACME-2026-0004', 'ACME-2026-0005']);
    const missing = await settle(['payments', 'show', 'NO-SUCH-REF']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^settle: ERR_PAYMENT_NOT_FOUND: no payment has the reference "NO-SUCH-REF"/);
  });
});

describe('settle payments list', () => {
  it('prints decimal amounts with currency under headers, filters by state, file, date and account, and prints JSON', async () => {
    const all = await settle(['payments', 'list', '--state', 'all']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(
      /^Bulk +Company +State +Debtor account +Execution date +Payments +Amount +Bank payment id$/m,
    );
    expect(all.stdout).toMatch(/ done +NO7215031234562 +2026-01-07 +2 +49975\.50 NOK +p\w+$/m);
    const json = JSON.parse(
      (
        await settle([
          'payments',
          'list',
          '--state',
          'all',
          '--file',
          'acme-payments.csv',
          '--account',
          'NO72 1503 1234 562',
          '--date',
          '2026-01-07',
          '--json',
        ])
      ).stdout,
    ) as Record<string, unknown>[];
    expect(json).toHaveLength(1);
    expect(json[0]).toMatchObject({
      state: 'done',
      debtorAccount: 'NO7215031234562',
      executionDate: '2026-01-07',
      payments: 2,
      totals: [{ currency: 'NOK', amount: '49975.50' }],
    });
    expect((await settle(['payments', 'list', '--state', 'all', '--date', '2026-02-01'])).stdout).toBe(
      'no bulks match\n',
    );
    expect((await settle(['payments', 'list'])).stdout).toBe('no bulks match\n');
  });
});
