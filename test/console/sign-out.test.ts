// Sign-out ends the session, over real HTTP against `settle serve`: sessions are kept
// server-side, so a copy of the cookie taken before sign-out is refused after it (a page
// redirects to sign-in, a form gets 403 and changes nothing); signing in again rotates the
// session id and ends the earlier one; a changed password ends the sessions opened with the old
// one; revokeSessionsOf ends every session of a person.
import { describe, expect, it } from 'vitest';
import { revokeSessionsOf } from '../../src/server/console/sessions.js';
import { Client } from './client.js';
import { PASSWORDS, useConsoleFixture } from './fixture.js';

const HOME = '/console/?company=acme';

/** A second browser holding a copy of `c`'s session cookie. */
function copyOf(base: string, c: Client): Client {
  const copy = new Client(base);
  copy.cookies.set('settle_console', c.cookies.get('settle_console')!);
  return copy;
}

describe('console sessions end', () => {
  const fixture = useConsoleFixture();

  it('at sign-out, for every copy of the cookie', async () => {
    const f = fixture();
    const olga = new Client(f.base);
    expect((await olga.signIn('olga', PASSWORDS.olga)).status).toBe(303);
    const copy = copyOf(f.base, olga);
    const page = await (await copy.request(HOME)).text();
    expect(page).toContain('Olga Operator');
    const out = await olga.request('/console/sign-out', { form: { _csrf: Client.token(page) } });
    expect(out.status).toBe(303);
    const after = await copy.request(HOME);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toMatch(/^\/console\/sign-in\?next=/);
    const post = await copy.request('/console/audit/verify', { form: { company: 'acme', _csrf: Client.token(page) } });
    expect(post.status).toBe(403);
    expect(await post.text()).toContain('Your session ended.');
  });

  it('when the same browser signs in again: the session id is new and the earlier one ends', async () => {
    const f = fixture();
    const vera = new Client(f.base);
    await vera.signIn('vera', PASSWORDS.vera);
    const before = copyOf(f.base, vera);
    await vera.signIn('vera', PASSWORDS.vera);
    expect(vera.cookies.get('settle_console')).not.toBe(before.cookies.get('settle_console'));
    expect((await vera.request(HOME)).status).toBe(200);
    expect((await before.request(HOME)).status).toBe(303);
  });

  it('when the password it was opened with changed', async () => {
    const f = fixture();
    const alma = new Client(f.base);
    await alma.signIn('alma', PASSWORDS.alma);
    expect((await alma.request(HOME)).status).toBe(200);
    // As if the session had been opened before the configuration got alma's new hash.
    await f.app.db
      .knex('console_sessions')
      .where({ login: 'local:alma' })
      .update({ credential: 'f'.repeat(64) });
    expect((await alma.request(HOME)).status).toBe(303);
    expect((await alma.signIn('alma', PASSWORDS.alma)).status).toBe(303);
    expect((await alma.request(HOME)).status).toBe(200);
  });

  it('for every session of a person when revokeSessionsOf names them', async () => {
    const f = fixture();
    const [a, b] = [new Client(f.base), new Client(f.base)];
    await a.signIn('oskar', PASSWORDS.oskar);
    await b.signIn('oskar', PASSWORDS.oskar);
    const olga = new Client(f.base);
    await olga.signIn('olga', PASSWORDS.olga);
    expect(await revokeSessionsOf(f.app.store, { person: 'oskar@acme.example' })).toBe(2);
    expect((await a.request(HOME)).status).toBe(303);
    expect((await b.request(HOME)).status).toBe(303);
    expect((await olga.request(HOME)).status).toBe(200);
    // No session id reaches the database as it is: only its SHA-256.
    const rows = JSON.stringify(await f.app.db.knex('console_sessions').select('*'));
    const sid = (c: Client) =>
      (
        JSON.parse(
          Buffer.from(decodeURIComponent(c.cookies.get('settle_console')!).split('.')[0]!, 'base64url').toString(),
        ) as { sid: string }
      ).sid;
    expect(rows).not.toContain(sid(olga));
  });
});
