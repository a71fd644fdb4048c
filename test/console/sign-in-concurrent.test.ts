// Sign-in under concurrency, over real HTTP against `settle serve`: a sign-in form is used once,
// however many copies of it arrive at once; and many wrong passwords at once (each with its own
// form) get at most the per-user limit checked — the rest are refused unchecked — and the
// lockout is audited exactly once.
import { describe, expect, it } from 'vitest';
import { Client } from './client.js';
import { useConsoleFixture, type ConsoleFixture } from './fixture.js';

/** `count` sign-in forms, each in its own client (its own pre-session cookie), sent at once. */
async function wrongPasswordsAtOnce(f: ConsoleFixture, username: string, count: number): Promise<number[]> {
  const ready = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const c = new Client(f.base);
      const token = Client.token(await (await c.request('/console/sign-in')).text());
      return () => c.request('/console/sign-in', { form: { _csrf: token, username, password: `wrong-${i}` } });
    }),
  );
  return (await Promise.all(ready.map((send) => send()))).map((r) => r.status);
}

const lockouts = async (f: ConsoleFixture, actor: string) =>
  (await f.app.store.audit.list()).filter((a) => a.action === 'console.sign-in.refused' && a.actor === actor);

describe('console sign-in under concurrency', () => {
  const fixture = useConsoleFixture({ signInLimit: { perUser: 5, perAddress: 10_000 } });

  it('checks one of 60 copies of one form sent at once and refuses the others as expired', async () => {
    const f = fixture();
    const c = new Client(f.base);
    const token = Client.token(await (await c.request('/console/sign-in')).text());
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        c.request('/console/sign-in', { form: { _csrf: token, username: 'vera', password: `wrong-${i}` } }),
      ),
    ).then((rs) => rs.map((r) => r.status));
    expect(statuses.filter((s) => s === 401)).toHaveLength(1);
    expect(statuses.filter((s) => s === 403)).toHaveLength(59);
    expect((await f.app.store.signInFailures.count('vera', '127.0.0.1', 15 * 60_000)).byUser).toBe(1);
  }, 60_000);

  for (const [username, count, timeout] of [
    ['alma', 60, 120_000],
    ['oskar', 300, 180_000],
  ] as const)
    it(
      `checks at most 5 of ${count} wrong passwords at once, refuses the rest, and audits the lockout once`,
      async () => {
        const f = fixture();
        const statuses = await wrongPasswordsAtOnce(f, username, count);
        expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
        expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(count - 5);
        expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
        expect(await lockouts(f, `local:${username}`)).toHaveLength(1);
      },
      timeout,
    );
});
