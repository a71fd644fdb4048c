// The README's first quick-start command: `settle demo` runs the whole nightly flow on embedded
// defaults. Run here in-process (the CLI test below runs it as a user would).

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CONSOLE, runDemo } from '../../src/main/demo.js';
import { loadConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/log/index.js';
import { SEED } from '../../src/sandbox/index.js';
import { createApp } from '../../src/main/app.js';
import { startServe } from '../../src/main/serve.js';
import { readFile, writeFile } from 'node:fs/promises';
import { hasTool, xmllintValidate } from '../support/oracles.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

describe('settle demo', () => {
  it('runs two nights end to end and produces every kind of output, all steps succeeding', async () => {
    await withTempDir(async (dir) => {
      const lines: string[] = [];
      const result = await runDemo({ dir: join(dir, 'demo'), out: (l) => lines.push(l) });
      for (const night of result.nights) expect(night.steps.filter((s) => !s.ok)).toEqual([]);
      const steps = result.nights.map((n) => n.steps.map((s) => s.step));
      expect(steps[0]).toEqual([
        'pickup',
        'submit',
        'approve',
        'status',
        'fetch',
        'status-report',
        'export',
        'consents',
        'reconcile',
      ]);
      const files = result.files;
      // The company's accounts at both its banks are fetched and exported, each night.
      for (const night of result.nights) {
        const fetch = night.steps.find((s) => s.step === 'fetch')!;
        expect(fetch.summary).toMatch(/ 3 fetched \(testbank 2, nordbank 1\)/);
      }
      for (const iban of [SEED.operatingIban, SEED.approvalIban, SEED.nordbankIban])
        expect(
          files.filter((f) => f.startsWith(`acme/statements/acme-${iban}-`) && f.endsWith('.camt.053.001.02.xml')),
        ).not.toEqual([]);
      expect(files).toContain('acme/archive/2026-01-05/acme-payments.csv');
      expect(files).toContain('acme/archive/2026-01-05/acme-suppliers.xml');
      expect(files).toContain('acme/error/acme-corrections.csv.errors.txt');
      expect(files.filter((f) => f.startsWith('acme/reports/approval-'))).toHaveLength(1);
      const booked = files.filter((f) =>
        /statements\/acme-NO9386011117947-2026-01-07\.(camt\.053\.001\.02\.xml|csv)$/.test(f),
      );
      expect(booked).toHaveLength(2);
      const pain002 = files.find((f) => /status\/acme-suppliers\.xml\..*pain\.002\.001\.03\.xml$/.test(f));
      expect(pain002).toBeDefined();
      expect(await readFile(join(result.dir, pain002!), 'utf8')).toContain(
        '<OrgnlMsgId>ACME-SUPPLIERS-2026-01-05</OrgnlMsgId>',
      );
      expect(files.some((f) => /reports\/reconciliation-acme-2026-01-08-.*\.html$/.test(f))).toBe(true);
      expect(lines.join('\n')).toContain('files settle produced');
      // The report it points a new user to is the last night's reconciliation, not another page
      // (the refused lines' report is HTML too, and sorts after it).
      const pointer = lines.find((l) => l.startsWith('open the reconciliation report: '));
      expect(pointer).toMatch(/\/acme\/reports\/reconciliation-acme-2026-01-08-[^/]*\.html$/);
      // It ends with the console's address and a demo sign-in that works on the demo's data.
      expect(lines.slice(-2).join('\n')).toContain(
        `open http://127.0.0.1:8081/console/ and sign in as ${DEMO_CONSOLE.username} / ${DEMO_CONSOLE.password}`,
      );
      await signInToDemoConsole(result.dir);

      // The second night's reconciliation matched all seven accepted, approved and booked payments.
      const last = result.nights[1]!.reconciliations[0]!;
      expect(last.summary.byType.find((t) => t.type === 'matched')?.count).toBe(7);
      expect(last.summary.byType.find((t) => t.type === 'rejected')?.count).toBe(1);
      // Only the one real finding needs a person: the sandbox's debits from before go-live are nowhere.
      expect(last.summary.needingPerson).toBe(1);
      // The ERP's receivables were imported on night 1; the two customers' payments booked since
      // are matched to their invoices by reference, and add nothing that needs a person.
      expect(result.nights[0]!.reconciliations[0]!.receivablesFiles).toEqual([
        expect.objectContaining({ outcome: 'imported', receivables: 3 }),
      ]);
      expect(last.summary.byType.find((t) => t.type === 'credit_matched')?.count).toBe(2);
      expect(lines.join('\n')).toContain('2 incoming payments matched to open invoices by their KID or RF reference');
      const reportCsv = await readFile(join(result.dir, last.csv.replace(/^reports/, 'acme/reports')), 'utf8');
      expect(reportCsv.split('\r\n').filter((l) => l.includes(',yes,'))).toEqual([
        expect.stringMatching(/^rejected,error,yes,.*ACME-2026-0003.*AC04/),
      ]);
      expect(reportCsv).not.toContain('SEED-E2E');
      expect(reportCsv).toMatch(/^credit_matched,info,no,.*INV-2026-102,RF18539007547034,/m);

      // camt.054: the debit notification books the accepted payments against the ERP's ids, the
      // credit notification carries the customer's KID as a structured reference.
      const notification = (kind: string) =>
        files.find((f) => f === `acme/statements/acme-NO9386011117947-2026-01-07.${kind}.camt.054.001.02.xml`);
      expect(notification('debit')).toBeDefined();
      expect(notification('credit')).toBeDefined();
      const debit = await readFile(join(result.dir, notification('debit')!), 'utf8');
      const credit = await readFile(join(result.dir, notification('credit')!), 'utf8');
      expect(debit).toContain('<EndToEndId>ACME-2026-0001</EndToEndId>');
      expect(credit).toContain('<Ref>1002003018</Ref>');
      expect(credit).toContain('<Ref>RF18539007547034</Ref>');
      if (hasTool('xmllint') || process.env.CI) {
        for (const xml of [debit, credit]) expect((await xmllintValidate(xml, 'camt.054.001.02')).valid).toBe(true);
      }

      const camt = await readFile(
        join(
          result.dir,
          booked.find((f) => f.endsWith('.xml'))!,
        ),
      );
      expect(camt.toString()).toContain('ACME-2026-0001');
      if (hasTool('xmllint') || process.env.CI) {
        const check = await xmllintValidate(camt, 'camt.053.001.02');
        expect(check.output).toContain('validates');
        expect(check.valid).toBe(true);
      }
    });
  });

  it('refuses to empty a folder it did not create', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'ledger.xlsx'), 'precious');
      const result = await runSettle(['demo', '--dir', dir], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^settle: ERR_DEMO_DIR_NOT_EMPTY: /);
    });
  });
});

/** Serves the demo's configuration (console on any free port) and signs in with the printed sign-in. */
async function signInToDemoConsole(dir: string): Promise<void> {
  const loaded = loadConfig({ file: join(dir, 'settle.yaml'), cwd: dir, env: {} });
  const config = { ...loaded, console: { ...loaded.console, port: 0 } };
  const app = await createApp(config, silentLogger());
  const serve = await startServe(app, { scheduler: false, port: 0 });
  try {
    const base = serve.consoleUrl!.replace(/\/console\/$/, '');
    const form = await fetch(`${base}/console/sign-in`);
    const cookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const signedIn = await fetch(`${base}/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: token, username: DEMO_CONSOLE.username, password: DEMO_CONSOLE.password }),
    });
    expect(signedIn.status).toBe(303);
    const session = signedIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('settle_console='))!
      .split(';')[0]!;
    const today = await fetch(`${base}/console/?company=acme`, { headers: { cookie: session } });
    expect(today.status).toBe(200);
    expect(await today.text()).toContain('Today — ACME AS');
  } finally {
    await serve.stop();
  }
}
