// The Audit page over real HTTP against `settle serve`, on SQLite and on MariaDB (issue #50,
// Must 5): scoped like every page (a company's operators read its entries only; an install-wide
// auditor reads all, those about no company too), verified on each view with the head shown in
// full, broken when an entry it shows was edited in the database (before the last checkpoint
// too) or moved to another company, and refused actions audited, coalesced per person, route,
// company and minute: 100 refused POSTs in one minute are one entry with the count 100, whether
// the router refused them or the action itself (a viewer's release of a held line). A closed
// minute is written by the console's timer when nothing else comes, and the open one when the
// console closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { silentLogger } from '../../src/log/index.js';
import { createApp } from '../../src/main/app.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';
import { Client } from './client.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const engines: { name: string; mariadb: boolean }[] = [{ name: 'SQLite', mariadb: false }];
if (await mariaDbForTests()) engines.push({ name: 'MariaDB', mariadb: true });

async function signedIn(f: ConsoleFixture, user: keyof typeof PASSWORDS): Promise<Client> {
  const c = new Client(f.base);
  const res = await c.signIn(user, PASSWORDS[user]);
  expect(res.status).toBe(303);
  return c;
}

describe.each(engines)('the Audit page on $name', ({ mariadb }) => {
  let f: ConsoleFixture;
  let throwaway: ThrowawayDatabase | undefined;
  const clock = new ManualClock(new Date());
  beforeAll(async () => {
    if (mariadb) throwaway = await createThrowawayDatabase();
    f = await startConsoleFixture({
      clock,
      refusalFlushMs: 200,
      auditors: ['Audrey@audit.example'],
      ...(throwaway ? { databaseUrl: throwaway.url } : {}),
    });
    for (const [company, id] of [
      ['acme', 'A-1'],
      ['beta', 'B-1'],
      [undefined, 'N-1'],
      ['acme', 'A-2'],
      ['beta', 'B-2'],
    ] as const)
      await f.app.store.audit.append({
        actor: 'kari',
        action: 'test.scope',
        subject: { type: 'scope', id },
        origin: 'test',
        ...(company ? { details: { company } } : {}),
      });
  }, 90_000);
  afterAll(async () => {
    await f?.close();
    await throwaway?.drop();
  });

  it("shows a company's operators only its entries, and an auditor every entry", async () => {
    const bert = await signedIn(f, 'bert');
    const beta = await (await bert.request('/console/audit?company=beta')).text();
    expect(beta).toContain('scope B-1');
    expect(beta).toContain('scope B-2');
    expect(beta).not.toContain('scope A-');
    expect(beta).not.toContain('scope N-1');
    expect((await bert.request('/console/audit?company=acme')).status).toBe(403);

    const olga = await signedIn(f, 'olga');
    const acme = await (await olga.request('/console/audit?company=acme')).text();
    expect(acme).toContain('scope A-2');
    expect(acme).not.toContain('scope B-');
    expect(acme).not.toContain('scope N-1');

    const vera = await signedIn(f, 'vera');
    expect((await vera.request('/console/audit?company=acme')).status).toBe(403);

    // Audrey has no role in any company: she signs in as an auditor and reads every entry.
    const audrey = await signedIn(f, 'audrey');
    expect((await audrey.request('/console/?company=acme')).status).toBe(403);
    const all = await audrey.request('/console/audit?company=acme');
    expect(all.status).toBe(200);
    const text = await all.text();
    for (const id of ['A-1', 'A-2', 'B-1', 'B-2', 'N-1']) expect(text).toContain(`scope ${id}`);
    expect(text).toContain('you are an auditor');
    expect(text).toContain('href="/console/audit?company=acme"');
  });

  it('verifies on each view and shows the head it verified in full', async () => {
    const olga = await signedIn(f, 'olga');
    const page = await (await olga.request('/console/audit?company=acme')).text();
    const check = await f.app.store.audit.verify();
    expect(check.ok).toBe(true);
    expect(page).toContain('The chain holds');
    expect(page).toContain(`<code class="head">${(check as { headHash: string }).headHash}</code>`);
  });

  it('says the chain is broken when an entry it shows was edited with SQL, before the last checkpoint too', async () => {
    const olga = await signedIn(f, 'olga');
    expect(await (await olga.request('/console/audit?company=acme')).text()).toContain('The chain holds');
    const a1 = (await f.app.store.audit.list()).find((e) => e.subject.id === 'A-1')!;
    expect(a1.seq).toBeLessThan((await f.app.store.audit.lastCheckpoint())!.seq);
    const trail = () => f.app.db.knex('audit_trail').where({ seq: a1.seq });
    await trail().update({ reason: 'nothing happened here' });
    try {
      const view = await olga.request('/console/audit?company=acme');
      const text = await view.text();
      expect(text).toContain(`The chain is broken at entry ${a1.seq}`);
      expect(text).not.toContain('The chain holds');
    } finally {
      await trail().update({ reason: null });
    }
    // Moving an entry to another company by its column is an edit too, found where it shows.
    const b1 = (await f.app.store.audit.list()).find((e) => e.subject.id === 'B-1')!;
    await f.app.db.knex('audit_trail').where({ seq: b1.seq }).update({ company: 'acme' });
    try {
      const text = await (await olga.request('/console/audit?company=acme')).text();
      expect(text).toContain(`The chain is broken at entry ${b1.seq}`);
      expect(text).toContain('moved to another company');
      expect((await f.app.store.audit.verify()).ok).toBe(false);
    } finally {
      await f.app.db.knex('audit_trail').where({ seq: b1.seq }).update({ company: 'beta' });
    }
    expect((await f.app.store.audit.verify()).ok).toBe(true);
  });

  it('audits 100 POSTs refused for a missing role in one minute as one entry with the count 100', async () => {
    const vera = await signedIn(f, 'vera');
    const token = Client.token(await (await vera.request('/console/?company=acme')).text());
    const before = (await f.app.store.audit.list()).length;
    const statuses = await Promise.all(
      Array.from({ length: 100 }, () =>
        vera.request('/console/audit/checkpoint', { form: { company: 'acme', _csrf: token } }),
      ),
    ).then((rs) => rs.map((r) => r.status));
    expect(statuses).toEqual(Array.from({ length: 100 }, () => 403));
    // The minute is still open: counted, not yet written.
    expect((await f.app.store.audit.list()).length).toBe(before);
    clock.advance(60_000);
    const olga = await signedIn(f, 'olga');
    const page = await (await olga.request('/console/audit?company=acme')).text();
    const refused = (await f.app.store.audit.list()).filter((e) => e.action === 'console.refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      actor: 'local:vera',
      subject: { type: 'console', id: '/console/audit/checkpoint' },
      origin: 'console@127.0.0.1',
      company: 'acme',
      details: { company: 'acme', count: 100, needed: 'operator', person: 'vera@acme.example' },
    });
    expect(page).toContain('console.refused');
    expect(page).toContain('refused 100 times');
    expect((await f.app.store.audit.list()).length).toBe(before + 1);
    expect((await f.app.store.audit.verify()).ok).toBe(true);
  }, 60_000);

  it('audits 50 POSTs of an operator action by a viewer (releasing a held line) in one minute as one entry', async () => {
    clock.advance(60_000);
    const vera = await signedIn(f, 'vera');
    const token = Client.token(await (await vera.request('/console/?company=acme')).text());
    const before = (await f.app.store.audit.list()).length;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        vera.request('/console/held/H-1/release', { form: { company: 'acme', _csrf: token, reason: 'let it go' } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 50 }, () => 403));
    // The access table refuses it at the router (the action would refuse it too, audited the same way).
    expect(await responses[0]!.text()).toContain('This needs the role <strong>operator</strong> in acme');
    // Counted, not written one by one: the minute is still open.
    expect((await f.app.store.audit.list()).length).toBe(before);
    clock.advance(60_000);
    await waitFor(async () => (await f.app.store.audit.list()).length > before);
    const added = (await f.app.store.audit.list()).slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      action: 'console.refused',
      actor: 'local:vera',
      subject: { type: 'console', id: '/console/held/:id/release' },
      company: 'acme',
      details: { count: 50, needed: 'operator', person: 'vera@acme.example' },
    });
    expect((await f.app.store.audit.verify()).ok).toBe(true);
  }, 60_000);

  it("writes a closed minute by the console's timer, with no later refusal or view of the trail", async () => {
    clock.advance(60_000);
    const vera = await signedIn(f, 'vera');
    const token = Client.token(await (await vera.request('/console/?company=acme')).text());
    for (let i = 0; i < 3; i++)
      expect(
        (await vera.request('/console/audit/checkpoint', { form: { company: 'acme', _csrf: token } })).status,
      ).toBe(403);
    const before = (await f.app.store.audit.list()).length;
    clock.advance(60_000);
    // Nobody asks for anything now: only the timer (every 200 ms here) can write the minute.
    await waitFor(async () => (await f.app.store.audit.list()).length > before);
    const [entry] = (await f.app.store.audit.list()).slice(before);
    expect(entry).toMatchObject({ action: 'console.refused', details: { count: 3, needed: 'operator' } });
  }, 60_000);
});

describe('a console that closes', () => {
  it('writes the minute still open to the audit trail', async () => {
    const f = await startConsoleFixture({ clock: new ManualClock(new Date()) });
    try {
      const vera = await signedIn(f, 'vera');
      const token = Client.token(await (await vera.request('/console/?company=acme')).text());
      for (let i = 0; i < 4; i++)
        expect(
          (await vera.request('/console/held/H-9/drop', { form: { company: 'acme', _csrf: token, reason: 'dup' } }))
            .status,
        ).toBe(403);
      expect((await f.app.store.audit.list()).filter((e) => e.action === 'console.refused')).toHaveLength(0);
      await f.serve.stop();
      const reopened = await createApp(f.config, silentLogger());
      try {
        const refused = (await reopened.store.audit.list()).filter((e) => e.action === 'console.refused');
        expect(refused).toHaveLength(1);
        expect(refused[0]).toMatchObject({
          subject: { id: '/console/held/:id/drop' },
          details: { count: 4, needed: 'operator' },
        });
        expect(await reopened.db.knex('audit_refusals').select('minute')).toEqual([]);
      } finally {
        await reopened.close();
      }
    } finally {
      await f.close();
    }
  }, 90_000);
});

/** Waits (up to 5 s) until `done` holds; the console's timer writes within its interval. */
async function waitFor(done: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 5_000;
  while (!(await done())) {
    if (Date.now() > until) throw new Error('not written within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
