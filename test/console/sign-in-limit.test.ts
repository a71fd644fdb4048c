// The limit on failed password sign-ins over real HTTP against `settle serve` (SQLite, argon2id):
// five failures under a name refuse the sixth attempt under it, the right password too; a
// success under another name clears nothing of it; the address has its own, higher limit;
// every refusal is in the audit trail; no password reaches the database.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

describe('console sign-in limit', () => {
  let f: ConsoleFixture;
  let logged = '';
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (d: Buffer) => (logged += d.toString()));
    const logger = createLogger({ stream, format: 'json', level: 'debug' });
    f = await startConsoleFixture({ signInLimit: { perUser: 5, perAddress: 8 }, logger });
  }, 60_000);
  afterAll(async () => f?.close());

  it('refuses the 6th attempt under a name after 5 failures, and a success elsewhere does not reset it', async () => {
    const c = new Client(f.base);
    for (let i = 1; i <= 5; i++) expect((await c.signIn('alma', `wrong-${i}`)).status, `attempt ${i}`).toBe(401);
    const sixth = await c.signIn('alma', PASSWORDS.alma);
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await sixth.text()).toContain('Too many failed sign-ins under this user name. Try again in 15 minutes.');
    expect(c.cookies.has('settle_console')).toBe(false);

    const olga = new Client(f.base);
    expect((await olga.signIn('olga', PASSWORDS.olga)).status).toBe(303);
    expect((await new Client(f.base).signIn('alma', PASSWORDS.alma)).status).toBe(429);

    // One entry for the lockout, however many attempts it refuses.
    const refusals = (await f.app.store.audit.list()).filter((a) => a.action === 'console.sign-in.refused');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({
      actor: 'local:alma',
      origin: 'console@127.0.0.1',
      reason: 'too many failed sign-ins for this user name',
    });
  });

  it('limits the client address across names, and the window ends the refusal', async () => {
    const c = new Client(f.base);
    // 5 failures of alma's so far from this address; 3 more under vera reach 8.
    for (let i = 1; i <= 3; i++) expect((await c.signIn('vera', `wrong-${i}`)).status).toBe(401);
    const refused = await c.signIn('vera', PASSWORDS.vera);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('from this address');
    const lockouts = (await f.app.store.audit.list()).filter((a) => a.action === 'console.sign-in.refused');
    expect(lockouts.map((a) => a.reason)).toEqual([
      'too many failed sign-ins for this user name',
      'too many failed sign-ins for this address',
    ]);

    // Sixteen minutes later (the rows moved back in time) every failure has left the window.
    const past = new Date(Date.now() - 16 * 60_000).toISOString();
    await f.app.db.knex('sign_in_failures').update({ at: past });
    expect((await new Client(f.base).signIn('alma', PASSWORDS.alma)).status).toBe(303);
    expect((await new Client(f.base).signIn('vera', PASSWORDS.vera)).status).toBe(303);
  });

  it('keeps no password anywhere: neither the failures, the audit trail nor the log', async () => {
    expect(logged).toContain('console sign-in refused: too many failed attempts');
    expect(logged).toContain('console sign-in failed');
    const rows = JSON.stringify(await f.app.db.knex('sign_in_failures').select('*'));
    const audit = JSON.stringify(await f.app.store.audit.list());
    for (const secret of ['wrong-1', 'wrong-3', PASSWORDS.alma, PASSWORDS.vera, PASSWORDS.olga]) {
      expect(rows).not.toContain(secret);
      expect(audit).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
  });
});
