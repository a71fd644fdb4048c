// The sign-in limit per address behind a reverse proxy, over real HTTP against `settle serve`:
// with console.trustedProxies naming the proxy (here the test's own loopback), each client
// address X-Forwarded-For names has its own count, so one person's failures do not lock out
// everyone behind the proxy; without it the header is ignored, so a client cannot dodge the
// limit by naming a new address on every attempt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const from = (address: string) => ({ 'x-forwarded-for': address });

describe('console sign-in limit behind a trusted proxy', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsoleFixture({ signInLimit: { perUser: 5, perAddress: 3 }, trustedProxies: ['127.0.0.1'] });
  }, 60_000);
  afterAll(async () => f?.close());

  it('counts failures per forwarded client address, and records that address', async () => {
    for (const name of ['alma', 'vera', 'olga'])
      expect((await new Client(f.base, from('203.0.113.5')).signIn(name, 'wrong')).status).toBe(401);
    const refused = await new Client(f.base, from('203.0.113.5')).signIn('oskar', PASSWORDS.oskar);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain('from this address');
    // Another person behind the same proxy is not locked out.
    expect((await new Client(f.base, from('203.0.113.6')).signIn('oskar', PASSWORDS.oskar)).status).toBe(303);
    const refusals = (await f.app.store.audit.list()).filter((a) => a.action === 'console.sign-in.refused');
    expect(refusals.map((a) => a.origin)).toEqual(['console@203.0.113.5']);
  });
});

describe('console sign-in limit without trusted proxies', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsoleFixture({ signInLimit: { perUser: 5, perAddress: 3 } });
  }, 60_000);
  afterAll(async () => f?.close());

  it('ignores X-Forwarded-For: a new address named on every attempt is still the same client', async () => {
    const names = ['alma', 'vera', 'olga'];
    for (const [i, name] of names.entries())
      expect((await new Client(f.base, from(`198.51.100.${i + 1}`)).signIn(name, 'wrong')).status).toBe(401);
    const refused = await new Client(f.base, from('198.51.100.9')).signIn('oskar', PASSWORDS.oskar);
    expect(refused.status).toBe(429);
    const refusals = (await f.app.store.audit.list()).filter((a) => a.action === 'console.sign-in.refused');
    expect(refusals.map((a) => a.origin)).toEqual(['console@127.0.0.1']);
  });
});
