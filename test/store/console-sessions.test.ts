// Console sessions server-side, on both engines: an open session counts until it expires or is
// ended; ending by person or login ends only theirs; only the id's SHA-256 is stored.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { ConsoleSessions } from '../../src/store/index.js';
import { onBothEngines, withMigrated } from '../support/engines.js';

await onBothEngines((engine, open) => {
  describe(`console sessions on ${engine}`, () => {
    it('count while open and unexpired, and end by id, person or login', async () => {
      await withMigrated(open, async (db) => {
        const clock = new ManualClock(new Date('2026-12-06T08:00:00Z'));
        const sessions = new ConsoleSessions(db, clock);
        const hour = new Date('2026-12-06T09:00:00Z');
        await sessions.open({ id: 'sid-a', login: 'local:kari', person: 'kari', credential: 'c1', expiresAt: hour });
        await sessions.open({ id: 'sid-b', login: 'oidc:https://idp#1', person: 'kari', expiresAt: hour });
        await sessions.open({ id: 'sid-c', login: 'local:ola', person: 'ola@acme.example', expiresAt: hour });
        expect(await sessions.active('sid-a')).toEqual({ login: 'local:kari', person: 'kari', credential: 'c1' });
        expect(JSON.stringify(await db.knex('console_sessions').select('*'))).not.toContain('sid-a');

        expect(await sessions.revokeOf({ person: 'kari' })).toBe(2);
        expect(await sessions.active('sid-a')).toBeUndefined();
        expect(await sessions.active('sid-b')).toBeUndefined();
        expect(await sessions.active('sid-c')).toBeDefined();
        expect(await sessions.revoke('sid-a')).toBe(false);

        clock.set(new Date('2026-12-06T09:00:01Z'));
        expect(await sessions.active('sid-c')).toBeUndefined();
        await sessions.open({
          id: 'sid-d',
          login: 'local:ola',
          person: 'ola@acme.example',
          expiresAt: new Date('2026-12-06T10:00:00Z'),
        });
        expect(await sessions.revokeOf({ login: 'local:ola' })).toBe(1);
        // Opening deleted the expired rows.
        expect((await db.knex('console_sessions').select('login')).map((r: { login: string }) => r.login)).toEqual([
          'local:ola',
        ]);
      });
    }, 60_000);
  });
});
