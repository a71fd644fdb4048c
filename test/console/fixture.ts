// A running `settle serve` with its console enabled, for the console tests: real configuration
// (YAML with secret references), SQLite, local users with argon2id hashes, and a real OpenID
// Connect provider on loopback. People: Olga (operator, local), Vera (viewer, local), Otto
// (finance, through the provider), Alma (approver, local) and Oskar (a second operator, local) in
// ACME; Olga is operator of Beta too; Bert (local) is Beta's operator only. `cancelFourEyes` turns
// on four eyes for ACME's cancellations; `auditors` lists console.auditors (Audrey, local, has no
// company role); `databaseUrl` puts the data in another database than SQLite (MariaDB); Paula
// (local) is ACME's viewer with the payroll role, and `payrollAccounts` ACME's payroll accounts.
import { hash } from '@node-rs/argon2';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { silentLogger, type Logger } from '../../src/log/index.js';
import { createApp, type App } from '../../src/main/app.js';
import { startServe, type RunningServe } from '../../src/main/serve.js';
import { reserveOidcProvider, type ReservedProvider } from '../support/oidc-provider.js';

export const PASSWORDS = {
  olga: 'olga-correct-horse',
  vera: 'vera-battery-staple',
  alma: 'alma-tr0ub4dor-3',
  oskar: 'oskar-second-pair-of-eyes',
  bert: 'bert-beta-only-operator',
  audrey: 'audrey-reads-every-entry',
  paula: 'paula-sees-the-salaries',
};
export const SESSION_KEY = 'test-console-session-key-0123456789abcdef';
export const OIDC_SECRET = 'test-oidc-client-secret-0123456789';

export interface ConsoleFixture {
  dir: string;
  /** The loaded configuration, to open the install again after `serve.stop()`. */
  config: ReturnType<typeof loadConfig>;
  app: App;
  serve: RunningServe;
  /** http://127.0.0.1:PORT (no path). */
  base: string;
  provider: ReservedProvider;
  close(): Promise<void>;
}

export async function startConsoleFixture(
  options: {
    sessionTtl?: string;
    cancelFourEyes?: boolean;
    signInLimit?: { perUser: number; perAddress: number };
    trustedProxies?: readonly string[];
    logger?: Logger;
    /** `locale` lines: the install's, beta's and Vera's (docs/i18n.md). */
    locales?: { install?: string; beta?: string; vera?: string };
    clock?: Clock;
    auditors?: readonly string[];
    databaseUrl?: string;
    payrollAccounts?: readonly string[];
    /** How often the console writes refused minutes to the audit trail (ms). */
    refusalFlushMs?: number;
  } = {},
): Promise<ConsoleFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'settle-console-'));
  const provider = await reserveOidcProvider();
  for (const c of ['acme', 'beta']) await mkdir(join(dir, c), { recursive: true });
  await writeFile(
    join(dir, 'settle.yaml'),
    `dataDir: ${dir}/data
${options.locales?.install ? `locale: ${options.locales.install}\n` : ''}${options.databaseUrl ? `database: { url: "${options.databaseUrl}" }\n` : ''}console:
  enabled: true
  port: 0
  sessionTtl: ${options.sessionTtl ?? '8h'}
${options.signInLimit ? `  signInLimit: { perUser: ${options.signInLimit.perUser}, perAddress: ${options.signInLimit.perAddress} }\n` : ''}  sessionKey: { env: CONSOLE_KEY }
${options.trustedProxies ? `  trustedProxies: ${JSON.stringify(options.trustedProxies)}\n` : ''}${options.auditors ? `  auditors: ${JSON.stringify(options.auditors)}\n` : ''}  oidc:
    issuer: ${provider.issuer}
    clientId: settle-console
    clientSecret: { env: OIDC_SECRET }
  localUsers:
    - { username: olga, email: Olga@acme.example, passwordHash: { env: OLGA_HASH } }
    - { username: vera, email: vera@acme.example, passwordHash: { env: VERA_HASH } }
    - { username: alma, email: alma@acme.example, passwordHash: { env: ALMA_HASH } }
    - { username: oskar, email: oskar@acme.example, passwordHash: { env: OSKAR_HASH } }
    - { username: nobody, email: nobody@elsewhere.example, passwordHash: { env: VERA_HASH } }
    - { username: bert, email: bert@beta.example, passwordHash: { env: BERT_HASH } }
    - { username: audrey, email: audrey@audit.example, passwordHash: { env: AUDREY_HASH } }
    - { username: paula, email: paula@acme.example, passwordHash: { env: PAULA_HASH } }
companies:
  - id: acme
    name: ACME AS
    organisationNumber: "999999999"
    root: ${dir}/acme
    payments: { cancelFourEyes: ${options.cancelFourEyes === true}${options.payrollAccounts ? `, payrollAccounts: ${JSON.stringify(options.payrollAccounts)}` : ''} }
    people:
      - { name: Olga Operator, email: olga@acme.example, roles: [operator] }
      - { name: Vera Viewer, email: vera@acme.example, roles: [viewer]${options.locales?.vera ? `, locale: ${options.locales.vera}` : ''} }
      - { name: Otto Finance, email: otto@acme.example, roles: [finance] }
      - { name: Alma Approver, email: alma@acme.example, roles: [approver] }
      - { name: Oskar Operator, email: oskar@acme.example, roles: [operator] }
      - { name: Paula Payroll, email: paula@acme.example, roles: [viewer, payroll] }
  - id: beta
    name: Beta <b>AS</b>
    organisationNumber: "999999998"
    root: ${dir}/beta
${options.locales?.beta ? `    locale: ${options.locales.beta}\n` : ''}    people:
      - { name: Olga Operator, email: olga@acme.example, roles: [operator] }
      - { name: Bert Beta, email: bert@beta.example, roles: [operator] }
`,
  );
  const env = {
    CONSOLE_KEY: SESSION_KEY,
    OIDC_SECRET,
    OLGA_HASH: await hash(PASSWORDS.olga, { algorithm: 2 }),
    VERA_HASH: await hash(PASSWORDS.vera, { algorithm: 2 }),
    ALMA_HASH: await hash(PASSWORDS.alma, { algorithm: 2 }),
    OSKAR_HASH: await hash(PASSWORDS.oskar, { algorithm: 2 }),
    BERT_HASH: await hash(PASSWORDS.bert, { algorithm: 2 }),
    AUDREY_HASH: await hash(PASSWORDS.audrey, { algorithm: 2 }),
    PAULA_HASH: await hash(PASSWORDS.paula, { algorithm: 2 }),
  };
  const config = loadConfig({ file: join(dir, 'settle.yaml'), cwd: dir, env });
  const app = await createApp(config, options.logger ?? silentLogger(), options.clock);
  const serve = await startServe(app, {
    scheduler: false,
    port: 0,
    ...(options.refusalFlushMs ? { refusalFlushMs: options.refusalFlushMs } : {}),
  });
  const base = serve.consoleUrl!.replace(/\/console\/$/, '');
  provider.start(
    { clientId: 'settle-console', clientSecret: OIDC_SECRET, redirectUri: `${base}/console/sign-in/oidc/callback` },
    {
      otto: { email: 'otto@acme.example', name: 'Otto Finance' },
      mallory: { email: 'mallory@evil.example', name: 'M' },
    },
  );
  return {
    dir,
    config,
    app,
    serve,
    base,
    provider,
    async close() {
      await serve.stop();
      await provider.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A fixture started before a describe block's tests and closed after them; call the result inside a test. */
export function useConsoleFixture(options: Parameters<typeof startConsoleFixture>[0] = {}): () => ConsoleFixture {
  let fixture: ConsoleFixture | undefined;
  beforeAll(async () => {
    fixture = await startConsoleFixture(options);
  }, 60_000);
  afterAll(async () => fixture?.close());
  return () => {
    if (!fixture) throw new Error('the console fixture did not start');
    return fixture;
  };
}
