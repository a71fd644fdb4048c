// `settle demo`: the whole nightly flow on embedded defaults, in one command and under a minute.
// It starts the bank sandbox in-process, writes a real configuration into a work folder (SQLite,
// local folders for one company), drops the sample ERP files into the inbox, and runs two
// nights: the first picks up, submits and gets approval (the sandbox completes the SCA an
// approver would do); then the sandbox clock moves past the execution date so the payments
// settle and are booked (with two customers' payments of open invoices from the ERP's
// receivables file), and the second night follows status, fetches and exports statements and
// camt.054 notifications, and reconciles, matching those credits to the invoices by reference. It prints what happened and
// every file it produced.
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { loadConfig } from '../config/index.js';
import { SettleError } from '../domain/errors.js';
import { dateInZone } from '../domain/local-date.js';
import { parseSignoffPeriod } from '../domain/reconcile/index.js';
import { createLogger, silentLogger } from '../log/index.js';
import { SEED, startSandbox, type RunningSandbox } from '../sandbox/index.js';
import { CATALOGUES, type Locale } from '../i18n/index.js';
import { createApp } from './app.js';
import { runNightly, type NightlyResult, type StepResult } from '../../jobs/nightly/index.js';
import { nightlyDeps } from './nightly-deps.js';
import { packageInfo } from './package-info.js';

const MARKER = '.settle-demo';
/** The demo's console sign-in: a demo only, so its password is printed. */
export const DEMO_CONSOLE = {
  username: 'demo',
  password: 'settle-demo',
  // argon2id of the password above; written to a file the demo's configuration names.
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$uF83AMHkJhSNUZyeIouBwg$VBbAJDfPYkKEPMdzRAGrvqFMTNttjd0yUGOj3yxH8Ts',
  port: 8081,
};
/** A creditor the sandbox is told to reject, so the demo shows a rejection flowing back. */
const REJECTED_CREDITOR = 'NO8812000158389';
/** Customers paying two of the open invoices of samples/erp/receivables, by their KID and RF. */
// Each pays an invoice of samples/erp/receivables with its structured reference (KID, RF).
const CUSTOMER_PAYMENTS = [
  {
    debtorName: 'Kunde Nord AS',
    debtorIban: 'NO6315061111112',
    amount: '12500.00',
    reference: '1002003018',
    referenceType: 'KID',
  },
  {
    debtorName: 'Kunde Sør AS',
    debtorIban: 'NO4997101010108',
    amount: '50000.00',
    reference: 'RF18539007547034',
    referenceType: 'RF',
  },
];

export interface DemoResult {
  dir: string;
  nights: NightlyResult[];
  files: string[];
  /** How to open the console on the demo's data (settle serve with the demo's configuration). */
  console: { url: string; command: string; username: string; password: string };
  /** The period finance can sign off at the end, and the findings a person decides first. */
  signoff: { company: string; period: string; needingPerson: string[] };
}

/** The period the demo's nights fall in: finance closes it at the end (docs/reconciliation.md). */
export const DEMO_PERIOD = '2026-01';

export async function runDemo(options: {
  dir: string;
  out: (line: string) => void;
  /** The demo company's `locale`: its reports and notices are in that language (default English). */
  locale?: Locale;
}): Promise<DemoResult> {
  const { dir, out, locale } = options;
  await prepareDir(dir);
  const sandbox = await startSandbox({ port: 0, logger: silentLogger() });
  const logFile = createWriteStream(join(dir, 'settle.log'));
  try {
    out(`sandbox bank running at ${sandbox.urls.baseUrl} (clock ${sandbox.sandbox.clock.now().toISOString()})`);
    const configFile = await writeDemoConfig(dir, sandbox, { console: true, ...(locale ? { locale } : {}) });
    if (locale) out(`the demo company reads its reports and notices in ${CATALOGUES[locale].name} (locale ${locale})`);
    const config = loadConfig({ file: configFile, cwd: dir, env: {} });
    const logger = createLogger({ stream: logFile, format: 'json', level: 'info' });
    const app = await createApp(config, logger, sandbox.sandbox.clock);
    const nights: NightlyResult[] = [];
    let needingPerson: string[] = [];
    try {
      await control(sandbox, '/rejections', {
        iban: REJECTED_CREDITOR,
        code: 'AC04',
        message: 'Closed account number',
      });
      const inbox = join(dir, 'acme', 'inbox');
      await mkdir(inbox, { recursive: true });
      const samples = join(packageInfo().root, 'samples', 'erp');
      for (const name of (await readdir(samples)).filter((n) => /\.(csv|xml)$/.test(n)))
        await copyFile(join(samples, name), join(inbox, name));
      out(`dropped the sample ERP files into ${relative(process.cwd(), inbox) || inbox}`);
      const receivables = join(dir, 'acme', 'receivables');
      await mkdir(receivables, { recursive: true });
      await copyFile(join(samples, 'receivables', 'acme-open-items.csv'), join(receivables, 'acme-open-items.csv'));
      out(`dropped the ERP's open receivables into ${relative(process.cwd(), receivables) || receivables}`);

      const show = (s: StepResult) =>
        out(`  ${s.ok ? (s.needsPerson ? '!' : '✓') : '✗'} ${s.step.padEnd(13)} ${s.summary}`);
      out(`\nnight 1 — ${sandbox.sandbox.clock.now().toISOString().slice(0, 16)} UTC`);
      nights.push(
        await runNightly(nightlyDeps(app), config.companies, {
          runId: 'demo-night-1',
          onStep: show,
          between: async (finished) => {
            if (finished !== 'approve') return;
            for (const basket of await app.store.baskets.listByState('link_issued')) {
              if (!basket.approvalLink) continue;
              await control(sandbox, '/sca', { link: basket.approvalLink });
              out(`    (an approver opened the approval link of basket ${basket.id} and signed)`);
            }
          },
        }),
      );
      // Two days later, in the early morning: the execution day is over and booked, and two
      // customers paid their invoices that day.
      sandbox.advance(Date.parse('2026-01-08T03:00:00Z') - sandbox.sandbox.clock.now().getTime());
      for (const credit of CUSTOMER_PAYMENTS)
        await control(sandbox, '/credits', { ...credit, account: SEED.operatingIban, bookingDate: '2026-01-07' });
      out(
        `\nnight 2 — ${sandbox.sandbox.clock.now().toISOString().slice(0, 16)} UTC (the payments' execution day is over)`,
      );
      nights.push(await runNightly(nightlyDeps(app), config.companies, { runId: 'demo-night-2', onStep: show }));
      const incoming = nights[1]!.reconciliations[0]?.summary.byType.find((t) => t.type === 'credit_matched');
      if (incoming && incoming.count > 0)
        out(`    (${incoming.count} incoming payments matched to open invoices by their KID or RF reference)`);
      const { from, to } = parseSignoffPeriod(DEMO_PERIOD);
      needingPerson = (await app.store.signoffs.needingPerson('acme', from, to)).map((f) => `${f.id} ${f.type}`);
    } finally {
      await app.close();
    }
    const files = await listFiles(dir);
    out(`\nfiles settle produced (in ${dir}):`);
    for (const f of files) out(`  ${f}`);
    out(`\nconfiguration used: ${join(dir, 'settle.yaml')} · log: ${join(dir, 'settle.log')}`);
    // The last night's reconciliation: its name carries the day, so it sorts last among them
    // (other reports are HTML too: a refused file's lines).
    const reconciliation = files.filter((f) => /\/reports\/reconciliation-[^/]*\.html$/.test(f)).pop();
    out(`open the reconciliation report: ${reconciliation === undefined ? '(none)' : join(dir, reconciliation)}`);
    printSignoffSteps(out, join(dir, 'settle.yaml'), needingPerson);
    // The console's address comes last: it is what a new user opens next.
    const consoleInfo = {
      url: `http://127.0.0.1:${DEMO_CONSOLE.port}/console/`,
      command: `settle serve --no-scheduler --config ${join(dir, 'settle.yaml')}`,
      username: DEMO_CONSOLE.username,
      password: DEMO_CONSOLE.password,
    };
    out(`\nthe console on this data: run \`${consoleInfo.command}\` (npx tsx src/cli/main.ts … in a checkout), then`);
    out(`  open ${consoleInfo.url} and sign in as ${consoleInfo.username} / ${consoleInfo.password} (a demo sign-in)`);
    return {
      dir,
      nights,
      files,
      console: consoleInfo,
      signoff: { company: 'acme', period: DEMO_PERIOD, needingPerson },
    };
  } finally {
    await sandbox.close();
    await new Promise<void>((resolve) => logFile.end(resolve));
  }
}

/**
 * How finance closes the demo's period: a person decides what needs one (the demo never decides
 * for them), then signs off and exports, on the console's Reconciliation page or here.
 */
function printSignoffSteps(out: (line: string) => void, config: string, needingPerson: readonly string[]): void {
  const settle = `settle --config ${config}`;
  out(`\nfinance signs off ${DEMO_PERIOD} on the console's Reconciliation page ("Sign a period off"), or:`);
  if (needingPerson.length > 0) {
    out(`  first decide the ${needingPerson.length} finding(s) that need a person (tick them on Reconciliation, or):`);
    for (const f of needingPerson)
      out(
        `    ${settle} findings ack ${f.split(' ')[0]!} --reason "seen: handled with the creditor"   (${f.split(' ')[1]!})`,
      );
  }
  out(`  ${settle} reconcile signoff --company acme --period ${DEMO_PERIOD}`);
  out(`  ${settle} reconcile export --company acme --period ${DEMO_PERIOD} --format html --out signoff.html`);
}

async function prepareDir(dir: string): Promise<void> {
  if (existsSync(dir)) {
    const entries = await readdir(dir);
    if (entries.length > 0 && !entries.includes(MARKER)) {
      throw new SettleError(
        'ERR_DEMO_DIR_NOT_EMPTY',
        `${dir} exists and is not a settle demo folder; name another with --dir`,
      );
    }
    await rm(dir, { recursive: true, force: true });
  }
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, MARKER), 'created by `settle demo`; the next demo run empties this folder\n');
}

/** With `console`, the configuration serves the console with the demo sign-in (the demo itself; other users of this file get none, so no listener of theirs takes its port). */
export async function writeDemoConfig(
  dir: string,
  sandbox: RunningSandbox,
  options: { console?: boolean; locale?: Locale } = {},
): Promise<string> {
  const file = join(dir, 'settle.yaml');
  // Secrets in files the configuration names, so `settle serve --config` works on it as it is.
  const secrets = join(dir, 'secrets');
  await mkdir(secrets, { recursive: true, mode: 0o700 });
  // The company's root, as `settle company init` would make it: settle never creates a root itself.
  await mkdir(join(dir, 'acme'), { recursive: true });
  const clientSecretFile = join(secrets, 'sandbox-client');
  const sessionKeyFile = join(secrets, 'console-session.key');
  const hashFile = join(secrets, 'console-demo.argon2');
  await writeFile(clientSecretFile, SEED.clientSecret, { mode: 0o600 });
  await writeFile(sessionKeyFile, randomBytes(32).toString('hex'), { mode: 0o600 });
  await writeFile(hashFile, DEMO_CONSOLE.passwordHash, { mode: 0o600 });
  await writeFile(
    file,
    `# Written by \`settle demo\`: a complete configuration for one company on local folders,
# against the in-process sandbox bank (its port changes on every run).
dataDir: ${JSON.stringify(join(dir, 'data'))}
bank:
  baseUrl: ${sandbox.urls.baseUrl}
  authUrl: ${sandbox.urls.authUrl}
  tenantId: ${SEED.tenant}
  clientId: ${SEED.clientId}
  clientSecret: { file: ${JSON.stringify(clientSecretFile)} }
  subscriptionId: ${SEED.subscriptionId}
  redirectUri: https://settle.example/approved
console:   # \`settle serve\` with this file serves the console; the demo user is Kari below
  enabled: ${options.console === true}
  port: ${DEMO_CONSOLE.port}
  sessionKey: { file: ${JSON.stringify(sessionKeyFile)} }
  localUsers:
    - { username: ${DEMO_CONSOLE.username}, email: kari.nordmann@acme.example, passwordHash: { file: ${JSON.stringify(hashFile)} } }
companies:
  - id: acme
    name: ACME AS
    organisationNumber: "${SEED.resourceGroupName}"
${options.locale ? `    locale: ${options.locale}   # the language of its reports and notices (docs/i18n.md)\n` : ''}    # Accounts at two banks (docs/banks.md): the pre-approved one is at testbank.
    banks:
      - { bankId: ${SEED.bankId}, consentId: ${SEED.consentId} }
      - { bankId: nordbank }
    root: ${JSON.stringify(join(dir, 'acme'))}
    people:
      - { name: Kari Nordmann, email: kari.nordmann@acme.example, roles: [approver, finance, operator] }
    folders:
      approvals: approvals   # the approvers' copy of each approval notice, with the link
      receivables: receivables   # the ERP's open receivables, matched to incoming payments
    intake:
      stableFor: 1s
    statements:
      formats: [camt.053.001.02, camt.054.001.02, csv]   # camt.054: debit and credit notifications
    status:
      formats: [pain.002.001.03, csv]
    reconcile:
      # The demo goes live today: the sandbox's history before it is not settle's to explain.
      since: "${dateInZone(sandbox.sandbox.clock.now(), 'Europe/Oslo')}"
`,
  );
  return file;
}

async function control(sandbox: RunningSandbox, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${sandbox.urls.controlUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    // a completed SCA redirects to the TPP-Redirect-URI, which is the approver's browser's business
    redirect: 'manual',
  }).catch((error: unknown) => {
    throw new SettleError(
      'ERR_DEMO_SANDBOX',
      `the sandbox did not answer ${path}: ${String((error as { cause?: unknown }).cause ?? error)}`,
      { cause: error },
    );
  });
  if (response.status >= 400)
    throw new SettleError(
      'ERR_DEMO_SANDBOX',
      `the sandbox refused ${path}: HTTP ${response.status} ${await response.text()}`,
    );
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) {
      if (name !== 'data' && name !== 'secrets') out.push(...(await listFiles(path, base)));
    } else if (name !== MARKER) out.push(relative(base, path));
  }
  return out;
}
