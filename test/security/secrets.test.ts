// Promise: no secret settle is configured with (bank client secret, webhook authorization,
// SMTP password, database password, SFTP password and key passphrase) nor the bank access token
// it is given ever appears in a log line, a CLI output, an error, a report, an export, an
// archived or rejected file, or the database; not as it is, nor base64-, base64url- or
// URL-encoded. Proved with the whole nightly flow against the sandbox bank (two nights, like
// `settle demo`) and with failures that put secrets next to error paths: a wrong client secret,
// a bank that echoes the token request and the access token in its errors, an SMTP server that
// echoes the AUTH exchange, and SFTP logins with a wrong password or passphrase.
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createTcpServer, type Server } from 'node:net';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log/index.js';
import { alertAfterRun, createAlerts, nightlySummary } from '../../src/main/alerts.js';
import { createApp } from '../../src/main/app.js';
import { runNightly } from '../../jobs/nightly/nightly.js';
import { nightlyDeps } from '../../src/main/nightly-deps.js';
import { packageInfo } from '../../src/main/package-info.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { startSshdForTests } from '../support/sshd.js';
import { allFiles } from './helpers.js';

// Distinctive values with characters that change under URL and base64 encoding.
const SECRETS = {
  clientSecret: 'cs-Vq8/dZr+3Lk=0pW&x',
  webhook: 'Bearer wh-Tq4mXz9Rb2/+',
  smtp: 'smtp-Hn5Jc8/Ke1Y+z=',
  database: 'db-Pw7Gs2N f4Q%9',
  wrongClientSecret: 'wrong-cs-Lp3Q/r8Zt5+M',
};

const { server: sshd } = await startSshdForTests();

/** Every form a secret could leak in. */
function forms(secret: string, extra: string[] = []): string[] {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const b64url = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
  const out = [
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ s: secret }).toString().slice(2),
    b64(secret),
    b64url(secret),
    b64(secret).replace(/=+$/, ''),
    ...extra,
  ];
  return [...new Set(out)].filter((s) => s.length >= 6);
}

function formsOfAll(secrets: Record<string, string>): Map<string, string> {
  const all = new Map<string, string>();
  for (const [name, value] of Object.entries(secrets)) {
    // Basic auth and SMTP AUTH PLAIN carry the secret base64-encoded with the user name.
    const combos =
      name === 'clientSecret' || name === 'wrongClientSecret'
        ? [Buffer.from(`${SEED.clientId}:${value}`).toString('base64')]
        : name === 'smtp'
          ? [Buffer.from(`\0alerts\0${value}`).toString('base64')]
          : [];
    for (const form of forms(value, combos)) all.set(form, name);
  }
  return all;
}

async function scan(texts: Record<string, string>, dirs: string[], secrets: Record<string, string>): Promise<string[]> {
  const leaks: string[] = [];
  const all = formsOfAll(secrets);
  for (const [where, text] of Object.entries(texts))
    for (const [form, name] of all)
      if (text.includes(form)) leaks.push(`${name} (${JSON.stringify(form)}) in ${where}`);
  for (const dir of dirs) {
    for (const file of await allFiles(dir)) {
      const bytes = await readFile(file);
      for (const [form, name] of all)
        if (bytes.includes(form)) leaks.push(`${name} (${JSON.stringify(form)}) in ${file}`);
    }
  }
  return leaks;
}

function capture() {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) });
  return { logger: createLogger({ format: 'json', level: 'debug', stream }), lines };
}

/** An SMTP server that answers AUTH by echoing what it got, as some servers' error texts do. */
async function startEchoingSmtp(): Promise<{ port: number; auths: string[]; close(): Promise<void> }> {
  const auths: string[] = [];
  const server: Server = createTcpServer((socket) => {
    socket.write('220 echo.example ESMTP\r\n');
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let at;
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (/^(EHLO|HELO)/i.test(line)) socket.write('250-echo.example\r\n250 AUTH PLAIN LOGIN\r\n');
        else if (/^AUTH/i.test(line)) {
          auths.push(line);
          socket.write(`535 5.7.8 Authentication failed for ${line.slice(5)}\r\n`);
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write(`500 unknown command ${line}\r\n`);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    auths,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString('utf8');
  return body;
}

/**
 * A bank that echoes what it was sent in its errors. mode 'token': the identity provider refuses
 * the token request and echoes the form body and headers. mode 'api': tokens come from the
 * sandbox; every API call answers 500 with problem details quoting the access token (bare, not
 * after "Bearer") and the Authorization header.
 */
async function startEchoingBank(
  sandbox: RunningSandbox,
  mode: 'token' | 'api',
): Promise<{ url: string; tokens: string[]; close(): Promise<void> }> {
  const tokens: string[] = [];
  const sandboxOrigin = new URL(sandbox.urls.baseUrl).origin;
  const server = createHttpServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const isToken = (req.url ?? '').startsWith('/id/');
      if (isToken && mode === 'token') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: 'invalid_client',
            error_description: `refused ${body} with ${String(req.headers.authorization)} secret ${new URLSearchParams(body).get('client_secret') ?? ''}`,
          }),
        );
        return;
      }
      if (isToken) {
        const upstream = await fetch(`${sandboxOrigin}${req.url ?? ''}`, {
          method: req.method ?? 'POST',
          headers: { 'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
          body,
        });
        const text = await upstream.text();
        const token = (JSON.parse(text) as { access_token?: string }).access_token;
        if (token) tokens.push(token);
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(text);
        return;
      }
      const authorization = String(req.headers.authorization ?? '');
      const bare = authorization.replace(/^Bearer\s+/i, '');
      res.writeHead(500, { 'content-type': 'application/problem+json' });
      res.end(
        JSON.stringify({
          type: 'about:blank',
          title: `token ${bare} not accepted`,
          status: 500,
          detail: `request carried ${bare} (${authorization}) and ${body}`,
          traceId: bare,
        }),
      );
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    url,
    tokens,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

function configYaml(dir: string, bank: { baseUrl: string; authUrl: string }, smtpPort: number, extra = ''): string {
  return `dataDir: ${JSON.stringify(join(dir, 'data'))}
bank:
  baseUrl: ${bank.baseUrl}
  authUrl: ${bank.authUrl}
  tenantId: ${SEED.tenant}
  clientId: ${SEED.clientId}
  subscriptionId: ${SEED.subscriptionId}
  redirectUri: https://settle.example/approved
  maxRetries: 0
alerts:
  email:
    host: 127.0.0.1
    port: ${smtpPort}
    username: alerts
    from: settle@example.com
    to: [finance@example.com]
companies:
  - id: acme
    name: ACME AS
    organisationNumber: "${SEED.resourceGroupName}"
    bankId: ${SEED.bankId}
    consentId: ${SEED.consentId}
    root: ${JSON.stringify(join(dir, 'acme'))}
    intake:
      stableFor: 1s
    statements:
      formats: [camt.053.001.02, csv]
    status:
      formats: [pain.002.001.03, csv]
${extra}`;
}

const secretEnv = (clientSecret: string) => ({
  SETTLE_CLIENT_SECRET: clientSecret,
  SETTLE_WEBHOOK_AUTHORIZATION: SECRETS.webhook,
  SETTLE_SMTP_PASSWORD: SECRETS.smtp,
  SETTLE_DATABASE_PASSWORD: SECRETS.database,
});

async function dropSamples(dir: string): Promise<void> {
  const inbox = join(dir, 'acme', 'inbox');
  await mkdir(inbox, { recursive: true });
  const samples = join(packageInfo().root, 'samples', 'erp');
  for (const name of (await readdir(samples)).filter((n) => /\.(csv|xml)$/.test(n)))
    await copyFile(join(samples, name), join(inbox, name));
}

describe('security: secrets never leave settle', () => {
  let dir: string;
  let sandbox: RunningSandbox;
  let smtp: Awaited<ReturnType<typeof startEchoingSmtp>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'settle-sec-secrets-'));
    sandbox = await startSandbox({ port: 0 });
    // The sandbox's client gets our distinctive secret, so the successful run really sends it.
    const client = sandbox.sandbox.state.clients.get(SEED.clientId)!;
    sandbox.sandbox.state.clients.set(SEED.clientId, { ...client, secret: SECRETS.clientSecret });
    smtp = await startEchoingSmtp();
  });
  afterAll(async () => {
    await smtp?.close();
    await sandbox?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'two nights of the whole flow (pickup to reconciliation, alerts by e-mail failing at an echoing SMTP server) leak no secret anywhere',
    { timeout: 120_000 },
    async () => {
      const run = join(dir, 'nightly');
      await mkdir(run, { recursive: true });
      const file = join(run, 'settle.yaml');
      await writeFile(file, configYaml(run, sandbox.urls, smtp.port));
      await dropSamples(run);
      const config = loadConfig({ file, cwd: run, env: secretEnv(SECRETS.clientSecret) });
      const { logger, lines } = capture();
      const app = await createApp(config, logger, sandbox.sandbox.clock);
      const out: string[] = [];
      const alerts = createAlerts(app);
      const nights = [];
      try {
        for (const night of [1, 2]) {
          const startedAt = app.clock.now();
          const result = await runNightly(nightlyDeps(app), config.companies, {
            runId: `secrets-night-${night}`,
            onStep: (s) => out.push(`${s.step} ${s.summary}`),
            between: async (finished) => {
              if (finished !== 'approve') return;
              for (const basket of await app.store.baskets.listByState('link_issued')) {
                if (basket.approvalLink)
                  await fetch(`${sandbox.urls.controlUrl}/sca`, {
                    method: 'POST',
                    headers: { 'content-type': 'application/json' },
                    body: JSON.stringify({ link: basket.approvalLink }),
                    redirect: 'manual',
                  });
              }
            },
          });
          nights.push(result);
          await alertAfterRun(app, alerts, nightlySummary(result, startedAt, app.clock.now()));
          sandbox.advance(Date.parse('2026-01-08T03:00:00Z') - sandbox.sandbox.clock.now().getTime());
        }
      } finally {
        await alerts.close();
        await app.close();
      }
      // The flow really ran: every step of both nights worked, outputs of every kind exist,
      // and the e-mail alert really tried to log in (and failed) at the echoing server.
      for (const night of nights) expect(night.steps.filter((s) => !s.ok).map((s) => s.step)).toEqual([]);
      const written = (await allFiles(join(run, 'acme'))).map((f) => f.slice(run.length + 1));
      for (const kind of [
        /^acme\/archive\//,
        /^acme\/error\/.*\.errors\.txt$/,
        /^acme\/status\/.*\.csv$/,
        /^acme\/statements\/.*\.csv$/,
        /^acme\/statements\/.*\.xml$/,
        /^acme\/reports\/.*\.csv$/,
        /^acme\/reports\/.*\.html$/,
      ]) {
        expect(
          written.some((f) => kind.test(f)),
          String(kind),
        ).toBe(true);
      }
      expect(smtp.auths.length).toBeGreaterThan(0);
      expect(lines.join('')).toContain('ERR_ALERT_EMAIL_FAILED');

      const leaks = await scan(
        { logs: lines.join(''), 'step summaries': out.join('\n') },
        [join(run, 'acme'), join(run, 'data')],
        SECRETS,
      );
      expect(leaks).toEqual([]);
    },
  );

  it('a wrong client secret: the CLI fails with the auth error, and neither secret appears in its output or files', async () => {
    const run = join(dir, 'wrong-secret');
    await mkdir(run, { recursive: true });
    await writeFile(join(run, 'settle.yaml'), configYaml(run, sandbox.urls, smtp.port));
    await dropSamples(run);
    const result = await runSettle(['--config', join(run, 'settle.yaml'), 'run', 'nightly'], {
      cwd: run,
      env: secretEnv(SECRETS.wrongClientSecret),
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('ERR_BANK_AUTH');
    const accountsList = await runSettle(['--config', join(run, 'settle.yaml'), 'accounts', 'list'], {
      cwd: run,
      env: secretEnv(SECRETS.wrongClientSecret),
    });
    expect(accountsList.stderr).toMatch(/ERR_BANK_AUTH/);
    const leaks = await scan(
      { stdout: result.stdout, stderr: result.stderr, 'accounts list': accountsList.stdout + accountsList.stderr },
      [join(run, 'acme'), join(run, 'data')],
      SECRETS,
    );
    expect(leaks).toEqual([]);
  });

  it('an identity provider that echoes the token request (form body, secret) in its error: nothing of it reaches output or files', async () => {
    const bank = await startEchoingBank(sandbox, 'token');
    const run = join(dir, 'echo-token');
    try {
      await mkdir(run, { recursive: true });
      await writeFile(
        join(run, 'settle.yaml'),
        configYaml(run, { baseUrl: `${bank.url}/api`, authUrl: `${bank.url}/id` }, smtp.port),
      );
      await dropSamples(run);
      const result = await runSettle(['--config', join(run, 'settle.yaml'), 'run', 'nightly'], {
        cwd: run,
        env: secretEnv(SECRETS.clientSecret),
      });
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toContain('ERR_BANK_AUTH');
      const accounts = await runSettle(['--config', join(run, 'settle.yaml'), 'accounts', 'list'], {
        cwd: run,
        env: secretEnv(SECRETS.clientSecret),
      });
      expect(accounts.stderr).toContain('invalid_client');
      const leaks = await scan(
        { stdout: result.stdout, stderr: result.stderr, 'accounts list': accounts.stdout + accounts.stderr },
        [join(run, 'acme'), join(run, 'data')],
        SECRETS,
      );
      expect(leaks).toEqual([]);
    } finally {
      await bank.close();
    }
  });

  it('a bank that quotes the bare access token in its problem details: the token reaches no output, file or database row', async () => {
    const bank = await startEchoingBank(sandbox, 'api');
    const run = join(dir, 'echo-api');
    try {
      await mkdir(run, { recursive: true });
      await writeFile(
        join(run, 'settle.yaml'),
        configYaml(run, { baseUrl: `${bank.url}/api`, authUrl: `${bank.url}/id` }, smtp.port),
      );
      await dropSamples(run);
      const result = await runSettle(['--config', join(run, 'settle.yaml'), 'run', 'nightly'], {
        cwd: run,
        env: secretEnv(SECRETS.clientSecret),
      });
      const accounts = await runSettle(['--config', join(run, 'settle.yaml'), 'accounts', 'list'], {
        cwd: run,
        env: secretEnv(SECRETS.clientSecret),
      });
      expect(bank.tokens.length).toBeGreaterThan(0);
      expect(accounts.code).not.toBe(0);
      expect(accounts.stderr).toContain('ERR_BANK');
      const tokens = Object.fromEntries(bank.tokens.map((t, i) => [`access token ${i + 1}`, t]));
      const leaks = await scan(
        { stdout: result.stdout, stderr: result.stderr, 'accounts list': accounts.stdout + accounts.stderr },
        [join(run, 'acme'), join(run, 'data')],
        { ...SECRETS, ...tokens },
      );
      expect(leaks).toEqual([]);
    } finally {
      await bank.close();
    }
  });

  it.runIf(sshd?.password !== undefined || process.env.CI)(
    'SFTP logins with a wrong password or a wrong key passphrase fail clearly without showing either',
    async () => {
      if (!sshd?.password) throw new Error('sshd with password logins is needed');
      const run = join(dir, 'sftp');
      await mkdir(run, { recursive: true });
      const keyFile = join(run, 'client.key');
      await writeFile(keyFile, sshd.encryptedKey.privateKey, { mode: 0o600 });
      const wrongPassword = 'sftp-Xr6B/d3Mv9+T=';
      const wrongPassphrase = 'pass-Wk2N/j7Hq4+R=';
      const transport = (auth: string) => `transports:
  erp:
    type: sftp
    host: ${sshd.host}
    port: ${sshd.port}
    username: ${sshd.username}
    hostKeySha256: "${sshd.hostKeySha256}"
    timeout: 10s
${auth}`;
      const company = `companies:
  - id: acme
    name: ACME AS
    organisationNumber: "999999999"
    transport: erp
    root: ${sshd.filesRoot}
    intake:
      stableFor: 1s
`;
      const outputs: Record<string, string> = {};
      const cases = {
        'wrong password': ['    password: { env: SFTP_PASSWORD }\n', { SFTP_PASSWORD: wrongPassword }],
        'wrong passphrase': [
          `    privateKey: { file: ${keyFile} }\n    passphrase: { env: SFTP_PASSPHRASE }\n`,
          { SFTP_PASSPHRASE: wrongPassphrase },
        ],
        'right passphrase': [
          `    privateKey: { file: ${keyFile} }\n    passphrase: { env: SFTP_PASSPHRASE }\n`,
          { SFTP_PASSPHRASE: sshd.encryptedKey.passphrase },
        ],
      } as const;
      for (const [name, [auth, env]] of Object.entries(cases)) {
        await writeFile(join(run, 'settle.yaml'), `dataDir: ${join(run, 'data')}\n${transport(auth)}${company}`);
        const result = await runSettle(['--config', join(run, 'settle.yaml'), 'run', 'pickup'], { cwd: run, env });
        outputs[`${name} stdout`] = result.stdout;
        outputs[`${name} stderr`] = result.stderr;
        if (name === 'right passphrase') expect({ name, code: result.code }).toEqual({ name, code: 0 });
        else {
          expect({ name, failed: result.code !== 0 }).toEqual({ name, failed: true });
          expect(result.stderr).toMatch(/^settle: ERR_SFTP_\w+: /);
        }
      }
      const leaks = await scan(outputs, [join(run, 'data')], {
        wrongPassword,
        wrongPassphrase,
        passphrase: sshd.encryptedKey.passphrase,
        password: sshd.password,
      });
      expect(leaks).toEqual([]);
    },
  );
});

afterAll(async () => sshd?.stop());
