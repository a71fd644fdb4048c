// The console's shell over real HTTP against `settle serve` (real configuration, SQLite, argon2id
// hashes, signed cookies): sign-in and sessions, the headers every page carries, CSRF and
// roles on every change, and the audit entry each change leaves.
import { sign } from '@fastify/cookie';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/index.js';
import { SettleError } from '../../src/domain/errors.js';
import { withTempDir } from '../support/tmp.js';
import { loadConfig } from '../../src/config/index.js';
import { CONSOLE_CSP } from '../../src/server/console/index.js';
import { Client } from './client.js';
import { PASSWORDS, SESSION_KEY, OIDC_SECRET, startConsoleFixture, type ConsoleFixture } from './fixture.js';

describe('console shell', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsoleFixture();
  }, 60_000);
  afterAll(async () => f?.close());

  it('sends people who are not signed in to sign-in, and serves every page with the strict headers', async () => {
    const c = new Client(f.base);
    const today = await c.request('/console/?company=acme');
    expect(today.status).toBe(303);
    expect(today.headers.get('location')).toBe('/console/sign-in?next=%2Fconsole%2F%3Fcompany%3Dacme');
    const page = await c.request('/console/sign-in');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).not.toMatch(/<script|<img|https?:\/\/(?!127\.0\.0\.1)/);
    expect(html).toContain('href="/console/style.css"');
    const css = await c.request('/console/style.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('signs a local user in with the argon2id hash, in a signed HttpOnly SameSite cookie with an expiry', async () => {
    const c = new Client(f.base);
    const wrong = await c.signIn('olga', 'not-her-password');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong user name or password.');
    expect(c.cookies.has('settle_console')).toBe(false);
    expect((await c.signIn('ghost', PASSWORDS.olga)).status).toBe(401);

    const ok = await c.signIn('olga', PASSWORDS.olga, '/console/audit?company=acme');
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/console/audit?company=acme');
    const cookie = ok.headers.getSetCookie().find((l) => l.startsWith('settle_console='))!;
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\/console/);
    expect(cookie).toMatch(/; Expires=/);
    const today = await c.request('/console/?company=acme');
    expect(today.status).toBe(200);
    const html = await today.text();
    expect(html).toContain('Olga Operator (operator)');
    expect(html).toContain('<h1>Today — ACME AS</h1>');
    // The company switcher lists her two companies, their names escaped.
    expect(html).toContain('<option value="beta">Beta &lt;b&gt;AS&lt;/b&gt;</option>');
    for (const secret of [SESSION_KEY, OIDC_SECRET, '$argon2id$', PASSWORDS.olga]) expect(html).not.toContain(secret);
  });

  it('refuses a sign-in that sends no token of its own form, and never redirects away from the console', async () => {
    const c = new Client(f.base);
    expect((await c.request('/console/sign-in', { form: { username: 'olga', password: PASSWORDS.olga } })).status).toBe(
      403,
    );
    const away = await c.signIn('olga', PASSWORDS.olga, '//evil.example/console/');
    expect(away.headers.get('location')).toBe('/console/');
  });

  it('refuses a person no company lists, and a company the person has no role in', async () => {
    const nobody = new Client(f.base);
    const refused = await nobody.signIn('nobody', PASSWORDS.vera);
    expect(refused.status).toBe(403);
    expect(nobody.cookies.has('settle_console')).toBe(false);

    const vera = new Client(f.base);
    await vera.signIn('vera', PASSWORDS.vera);
    expect((await vera.request('/console/?company=acme')).status).toBe(200);
    const beta = await vera.request('/console/?company=beta');
    expect(beta.status).toBe(403);
    expect(await beta.text()).toContain('You have no role in the company beta.');
    const audit = await vera.request('/console/audit?company=acme');
    expect(audit.status).toBe(403);
    expect(await audit.text()).toContain('This needs the role <strong>operator</strong> in acme; you have viewer.');
  });

  it('accepts a change only with the session CSRF token and the role, and writes who, what, when and from where to the audit trail', async () => {
    const before = (await f.app.store.audit.list()).length;
    const olga = new Client(f.base);
    await olga.signIn('olga', PASSWORDS.olga);
    const token = Client.token(await (await olga.request('/console/audit?company=acme')).text());

    const forged = await olga.request('/console/audit/checkpoint', { form: { company: 'acme' } });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('no valid CSRF token');
    const wrongToken = await olga.request('/console/audit/checkpoint', {
      form: { company: 'acme', _csrf: token.slice(1) + 'x' },
    });
    expect(wrongToken.status).toBe(403);

    const vera = new Client(f.base);
    await vera.signIn('vera', PASSWORDS.vera);
    const veraToken = Client.token(await (await vera.request('/console/?company=acme')).text());
    const refused = await vera.request('/console/audit/checkpoint', { form: { company: 'acme', _csrf: veraToken } });
    expect(refused.status).toBe(403);
    // The refusal is counted for its minute (test/console/audit-scope.test.ts), not yet an entry.
    expect((await f.app.store.audit.list()).length).toBe(before);

    const done = await olga.request('/console/audit/checkpoint', { form: { company: 'acme', _csrf: token } });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/console/audit?company=acme');
    const entries = await f.app.store.audit.list();
    expect(entries.length).toBe(before + 1);
    const entry = entries.at(-1)!;
    expect(entry).toMatchObject({
      actor: 'local:olga',
      action: 'console /console/audit/checkpoint',
      subject: { type: 'console', id: '/console/audit/checkpoint' },
      origin: 'console@127.0.0.1',
      details: { company: 'acme', form: { company: 'acme' }, outcome: 'done' },
    });
    expect(Date.now() - entry.at.getTime()).toBeLessThan(10 * 60_000);
    const page = await (await olga.request('/console/audit?company=acme')).text();
    // The view may have written Vera's refusal, had its minute ended meanwhile.
    const count = (await f.app.store.audit.list()).length;
    expect(page).toContain(`The chain holds: ${count} ${count === 1 ? 'entry' : 'entries'}`);
    expect(page).toContain('console@127.0.0.1');
    expect((await f.app.store.audit.verify()).ok).toBe(true);
  });

  it('shows on Today the rejected files, with names escaped, and the last run of each job with its outcome', async () => {
    const hostile = '<script>alert(1)</script>"onmouseover=x \u202Etxt.exe.csv';
    await f.app.store.files.recordRejectedFile(
      {
        company: 'acme',
        fileName: hostile,
        sha256: 'a'.repeat(64),
        format: 'csv:generic',
        sizeBytes: 10,
        receivedAt: new Date('2026-01-05T07:00:00Z'),
      },
      '1 error: ERR_CSV_AMOUNT at row 2',
      { lineCount: 3, rejectedCount: 1 },
    );
    await f.app.store.files.recordRejectedFile(
      {
        company: 'beta',
        fileName: 'beta-only.csv',
        sha256: 'b'.repeat(64),
        format: 'csv:generic',
        sizeBytes: 10,
        receivedAt: new Date(),
      },
      'x',
      { lineCount: 1, rejectedCount: 1 },
    );
    const run = await f.app.store.jobRuns.start('nightly', 'run-1');
    await f.app.store.jobRuns.finish(run.id, 'failed');
    await f.app.store.jobSuccesses.record('nightly', 'acme', 'run-0');

    const c = new Client(f.base);
    await c.signIn('vera', PASSWORDS.vera);
    const html = await (await c.request('/console/?company=acme')).text();
    expect(html).toContain('<h2 id="rejected">Rejected files (1)</h2>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover=x');
    expect(html).not.toContain('<script>');
    // Received 07:00 UTC, shown in Europe/Oslo as the person's language writes it; the zone named once.
    expect(html).toContain('<td data-label="Received">5 Jan 2026, 08:00</td>');
    expect(html.split('Europe/Oslo').length - 1).toBe(1);
    expect(html).toContain('1 error: ERR_CSV_AMOUNT at row 2');
    expect(html).not.toContain('beta-only.csv');
    expect(html).toMatch(
      /<td>nightly<\/td><td>[^<]+<\/td><td>[^<]+<\/td><td><span class="bad">failed<\/span><\/td><td>\d{1,2} \w{3} \d{4}, /,
    );
  });

  it('shows ten of each Today list and continues a list by its key with its "More" link', async () => {
    for (let i = 0; i < 11; i++)
      await f.app.store.files.recordRejectedFile(
        {
          company: 'acme',
          fileName: `later-${String(i).padStart(2, '0')}.csv`,
          sha256: String(i).padStart(64, 'c'),
          format: 'csv:generic',
          sizeBytes: 10,
          receivedAt: new Date(Date.UTC(2026, 0, 6, 7, i)),
        },
        'refused',
        { lineCount: 1, rejectedCount: 1 },
      );
    const c = new Client(f.base);
    await c.signIn('vera', PASSWORDS.vera);
    const first = await (await c.request('/console/?company=acme')).text();
    expect(first).toContain('<h2 id="rejected">Rejected files (10+)</h2>');
    expect(first).toContain('later-10.csv');
    expect(first).not.toContain('later-00.csv');
    const more = /href="(\/console\/\?[^"]*after-rejected=[^"#]+)#rejected">More</
      .exec(first)![1]!
      .replace(/&amp;/g, '&');
    const second = await (await c.request(more)).text();
    expect(second).toContain('<h2 id="rejected">Rejected files (2)</h2>');
    expect(second).toContain('later-00.csv');
    expect(second).toContain('txt.exe.csv');
    expect(second).not.toContain('later-01.csv');
    expect(second).toContain('First ones');
    const edited = await c.request('/console/?company=acme&after-rejected=not-a-cursor');
    expect(edited.status).toBe(400);
  });

  it('pages the audit trail newest first by sequence number', async () => {
    for (let i = 0; i < 55; i++)
      await f.app.store.audit.append({
        actor: 'test',
        action: 'test.page',
        subject: { type: 't', id: `P-${i}` },
        origin: 'test',
        details: { company: 'acme' },
      });
    const olga = new Client(f.base);
    await olga.signIn('olga', PASSWORDS.olga);
    const first = await (await olga.request('/console/audit?company=acme')).text();
    expect(first).toContain('t P-54');
    expect(first).not.toContain('t P-3<');
    const older = /href="(\/console\/audit\?company=acme&amp;before=\d+)"/.exec(first)![1]!.replace(/&amp;/g, '&');
    const second = await (await olga.request(older)).text();
    expect(second).toContain('t P-3<');
    expect(second).not.toContain('t P-54');
    expect(second).toContain('Newest entries');
  });

  it('verifies the chain from the last checkpoint on each view, and from the first entry on request', async () => {
    const olga = new Client(f.base);
    await olga.signIn('olga', PASSWORDS.olga);
    expect(await (await olga.request('/console/audit?company=acme')).text()).toContain('The chain holds');
    const checkpoint = (await f.app.store.audit.lastCheckpoint())!;
    const [early] = await f.app.store.audit.list({ limit: 1 });
    expect(early!.seq).toBeLessThan(checkpoint.seq);
    const rewrite = (reason: string | null) =>
      f.app.db.knex('audit_trail').where({ seq: early!.seq }).update({ reason });
    await rewrite('rewritten');
    try {
      const view = await (await olga.request('/console/audit?company=acme')).text();
      expect(view).toContain('The chain holds');
      expect(view).toContain(`Verified from checkpoint ${checkpoint.seq}`);
      const full = await olga.request('/console/audit/verify', {
        form: { company: 'acme', _csrf: Client.token(view) },
      });
      expect(full.status).toBe(409);
      const text = await full.text();
      expect(text).toContain(`The chain is broken at entry ${early!.seq}`);
      expect(text).toContain('Verified from the first entry.');
    } finally {
      await rewrite(early!.reason ?? null);
    }
    expect((await f.app.store.audit.verify()).ok).toBe(true);
  });

  it('accepts only cookies signed with the key and not expired; signing out ends the session', async () => {
    const forge = (exp: number, key: string) => {
      const value = Buffer.from(
        JSON.stringify({ id: 'local:olga', name: 'Olga', email: 'olga@acme.example', csrf: 'x'.repeat(32), exp }),
      ).toString('base64url');
      return encodeURIComponent(sign(value, key));
    };
    const c = new Client(f.base);
    // Even signed with the right key, a cookie opens nothing without its session on the server.
    c.cookies.set('settle_console', forge(Date.now() + 60_000, SESSION_KEY));
    expect((await c.request('/console/?company=acme')).status).toBe(303);
    c.cookies.set('settle_console', forge(Date.now() - 1000, SESSION_KEY));
    expect((await c.request('/console/?company=acme')).status).toBe(303);
    c.cookies.set('settle_console', forge(Date.now() + 60_000, 'another-key-of-at-least-32-characters!!'));
    expect((await c.request('/console/?company=acme')).status).toBe(303);

    const olga = new Client(f.base);
    await olga.signIn('olga', PASSWORDS.olga);
    const html = await (await olga.request('/console/?company=acme')).text();
    const out = await olga.request('/console/sign-out', { form: { _csrf: Client.token(html) } });
    expect(out.status).toBe(303);
    expect(olga.cookies.has('settle_console')).toBe(false);
    expect((await olga.request('/console/?company=acme')).status).toBe(303);
  });
});

describe('console configuration', () => {
  const load = async (yaml: string, env: Record<string, string> = {}) =>
    withTempDir(async (dir) => {
      await writeFile(join(dir, 'settle.yaml'), yaml);
      try {
        return loadConfig({ file: join(dir, 'settle.yaml'), cwd: dir, env });
      } catch (error) {
        return error as SettleError;
      }
    });

  it('is off unless configured', async () => {
    const config = await load('companies: []\n');
    expect(config).not.toBeInstanceOf(Error);
    expect((config as Config).console).toMatchObject({ enabled: false, host: '127.0.0.1', port: 8081 });
  });

  it('needs a signing key of 32 characters, a way to sign in and argon2id hashes when enabled', async () => {
    const none = await load('console: { enabled: true }\n');
    expect(none).toBeInstanceOf(SettleError);
    expect((none as SettleError).message).toContain(
      'console.sessionKey: the console is enabled: give a key that signs its sessions',
    );
    expect((none as SettleError).message).toContain(
      'console: the console is enabled: configure oidc or at least one of localUsers',
    );
    const weak = await load(
      [
        'console:',
        '  enabled: true',
        '  sessionKey: { env: KEY }',
        '  localUsers: [{ username: ann, email: ann@acme.example, passwordHash: { env: HASH } }]',
      ].join('\n'),
      { KEY: 'short', HASH: '$2b$10$abcdefghijklmnopqrstuv' },
    );
    const message = (weak as SettleError).message;
    expect(message).toContain('console.sessionKey: at least 32 characters');
    expect(message).toContain('console.localUsers.0.passwordHash: not an argon2id hash');
    expect(message).not.toContain('$2b$10$');
    const literal = await load('console: { enabled: true, sessionKey: "written-in-the-file-0123456789abcdef" }\n');
    expect((literal as SettleError).message).toContain('secrets are not written in the configuration file');
  });
});
