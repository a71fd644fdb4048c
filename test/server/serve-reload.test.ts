// Onboarding without a restart, on a running `settle serve` (a spawned process, as systemd runs
// it): a bureau of three companies, one file each in settle.d/, people written once at the top.
// A fourth company's file and `settle reload` add it: /healthz lists it, and the scheduler runs
// its night (its payment reaches the bank) without a restart. An invalid file on SIGHUP is
// refused with its file and line, and the running configuration stays. A person whose role is
// removed loses their console session at the reload; the others keep theirs.
import { hash } from '@node-rs/argon2';
import { readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { readServePid } from '../../src/main/serve-pid.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { Client } from '../console/client.js';
import { writeBureau } from '../support/bureau.js';
import { runSettle, startSettle } from '../support/cli.js';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { withTempDir } from '../support/tmp.js';

interface Health {
  lastSuccess: Record<string, Record<string, string>>;
  configuration: {
    companies: string[];
    lastReload?: { at: string; outcome: string; problems?: { path: string; file?: string; line?: number }[] };
  };
}

const PEOPLE = {
  olga: { password: 'olga-correct-horse', roles: '[operator]' },
  vera: { password: 'vera-battery-staple', roles: '[viewer]' },
};

/** Each company's file in settle.d/: its line from the bureau's configuration, with people named by id. */
function companyFile(line: string, people: (keyof typeof PEOPLE)[]): string {
  const named = people.map((p) => `{ person: ${p}, roles: ${PEOPLE[p].roles} }`).join(', ');
  return `companies:\n${line.replace(/ }$/, `, people: [${named}] }`)}\n`;
}

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const useMariaDb = await mariaDbForTests();

describe('settle serve reloads its configuration', { timeout: 240_000 }, () => {
  it('on SQLite: adds a fourth company that runs its night, refuses an invalid file, and ends the session of a removed role', async () => {
    await reloadOnRunningServe({});
  });

  it.runIf(useMariaDb)('on MariaDB: the same', async () => {
    const db = await createThrowawayDatabase();
    try {
      await reloadOnRunningServe({ SETTLE_DATABASE_URL: db.url });
    } finally {
      await db.drop();
    }
  });
});

async function reloadOnRunningServe(databaseEnv: NodeJS.ProcessEnv): Promise<void> {
  const sandbox = await startSandbox({
    port: 0,
    logger: silentLogger(),
    start: new Date(),
    bureau: { count: 4, accountsPerOrganisation: 1 },
  });
  try {
    await withTempDir(async (dir) => {
      const generated = await writeBureau(dir, { companies: 4, lines: 1, urls: sandbox.urls, concurrency: 2 });
      const [header, companies] = (await readFile(generated, 'utf8')).split('companies:\n') as [string, string];
      const lines = companies.trim().split('\n');
      await mkdir(join(dir, 'settle.d'));
      for (let i = 0; i < 3; i++)
        await writeFile(join(dir, 'settle.d', `c000${i}.yaml`), companyFile(lines[i]!, ['olga', 'vera']));
      const file = join(dir, 'settle.yaml');
      await writeFile(
        file,
        `${header.replace('level: warn', 'level: info')}schedule: { nightly: "*/2 * * * * *" }
console:
  enabled: true
  port: 0
  sessionKey: { env: CONSOLE_KEY }
  localUsers:
    - { username: olga, email: olga@bureau.example, passwordHash: { env: OLGA_HASH } }
    - { username: vera, email: vera@bureau.example, passwordHash: { env: VERA_HASH } }
include: [settle.d/*.yaml]
people:
  - { person: olga, name: Olga Operator, email: olga@bureau.example }
  - { person: vera, name: Vera Viewer, email: vera@bureau.example }
`,
      );
      const env = {
        ...databaseEnv,
        SETTLE_CLIENT_SECRET: SEED.clientSecret,
        CONSOLE_KEY: 'reload-test-console-key-0123456789abcdef',
        OLGA_HASH: await hash(PEOPLE.olga.password),
        VERA_HASH: await hash(PEOPLE.vera.password),
      };
      const serve = startSettle(['--config', file, 'serve', '--port', '0', '--grace', '5'], { cwd: dir, env });
      try {
        const logged = async (message: string) =>
          JSON.parse((await serve.waitFor(new RegExp(`^.*"message":"${message}".*$`, 'm'), 60_000))[0]) as {
            url: string;
          };
        const { url } = await logged('settle serve started');
        const consoleUrl = (await logged('console listening')).url.replace(/\/console\/$/, '');
        const health = async () => (await (await fetch(`${url}/healthz`)).json()) as Health;
        const nightDone = (company: string) => async () => (await health()).lastSuccess.nightly?.[company];

        // The three companies of settle.d run their nights.
        for (const id of ['c0000', 'c0001', 'c0002']) await until(`${id}'s night`, nightDone(id));
        expect((await health()).configuration.companies).toEqual(['c0000', 'c0001', 'c0002']);
        const olga = new Client(consoleUrl);
        const vera = new Client(consoleUrl);
        expect((await olga.signIn('olga', PEOPLE.olga.password)).status).toBe(303);
        expect((await vera.signIn('vera', PEOPLE.vera.password)).status).toBe(303);
        expect((await vera.request('/console/?company=c0001')).status).toBe(200);

        // The 201st company, here the fourth: one file and `settle reload`.
        await writeFile(join(dir, 'settle.d', 'c0003.yaml'), companyFile(lines[3]!, ['olga']));
        const reload = await runSettle(['--config', file, 'reload'], { cwd: dir, env });
        expect(reload.code, reload.stderr).toBe(0);
        expect(reload.stdout).toContain('4 company(ies)');
        await until('the reload', async () =>
          (await health()).configuration.lastReload?.outcome === 'applied' ? true : undefined,
        );
        expect((await health()).configuration.companies).toEqual(['c0000', 'c0001', 'c0002', 'c0003']);
        expect(await (await olga.request('/console/?company=c0003')).text()).toContain('c0003');
        await until("c0003's night", nightDone('c0003'));
        // The bureau's board lists it among the others, from the same reload.
        const board = await (await olga.request('/console/board')).text();
        for (const id of ['c0000', 'c0001', 'c0002', 'c0003'])
          expect(board).toContain(`href="/console/?company=${id}"`);
        const paid = (await (await fetch(`${sandbox.urls.controlUrl}/payments`)).json()) as {
          payments: { paymentLines: { endToEndIdentification: string }[] }[];
        };
        expect(paid.payments.flatMap((p) => p.paymentLines.map((l) => l.endToEndIdentification))).toContain('C0003-1');
        expect(serve.stdout().match(/"message":"settle serve started"/g)).toHaveLength(1);

        // An invalid file: refused, located, and the four companies keep running.
        const pid = readServePid(join(dir, 'data'));
        expect(pid).toBeDefined();
        const appliedAt = (await health()).configuration.lastReload!.at;
        await writeFile(
          join(dir, 'settle.d', 'c0004.yaml'),
          'companies:\n  - id: c0004\n    name: Five\n    root: ./c0004\n',
        );
        process.kill(pid!, 'SIGHUP');
        const refused = await until('the refused reload', async () => {
          const last = (await health()).configuration.lastReload;
          return last?.outcome === 'refused' ? last : undefined;
        });
        expect(refused.problems).toEqual(
          expect.arrayContaining([
            expect.objectContaining({ path: 'companies.4.organisationNumber', file: 'settle.d/c0004.yaml', line: 2 }),
          ]),
        );
        expect(refused.at >= appliedAt).toBe(true);
        expect((await health()).configuration.companies).toEqual(['c0000', 'c0001', 'c0002', 'c0003']);
        const metrics = await (await fetch(`${url}/metrics`)).text();
        expect(metrics).toMatch(/^settle_config_reload_refused 1$/m);
        expect(metrics).toMatch(/^settle_config_reloads_total\{outcome="applied"\} 1$/m);
        expect(serve.stdout()).toContain('"event":"config-reload-refused"');
        const check = await runSettle(['--config', file, 'reload'], { cwd: dir, env });
        expect(check.code).toBe(2);
        expect(check.stderr).toContain('companies.4.organisationNumber (settle.d/c0004.yaml line 2)');
        await rm(join(dir, 'settle.d', 'c0004.yaml'));

        // Vera's viewer role is removed: her session ends at the reload, Olga's stays.
        for (let i = 0; i < 3; i++)
          await writeFile(join(dir, 'settle.d', `c000${i}.yaml`), companyFile(lines[i]!, ['olga']));
        process.kill(pid!, 'SIGHUP');
        await until('the second applied reload', async () =>
          (await health()).configuration.lastReload?.outcome === 'applied' ? true : undefined,
        );
        const after = await vera.request('/console/?company=c0001');
        expect(after.status).toBe(303);
        expect(after.headers.get('location')).toMatch(/^\/console\/sign-in\?next=/);
        expect((await olga.request('/console/?company=c0001')).status).toBe(200);
        expect(serve.stdout()).toMatch(
          /"message":"configuration reloaded"[^\n]*"sessionsEnded":1|"sessionsEnded":1[^\n]*"message":"configuration reloaded"/,
        );
      } finally {
        expect(await serve.stop()).toBe(0);
      }
      // The pid file goes with the serve that wrote it, and then there is nothing to reload.
      expect(readServePid(join(dir, 'data'))).toBeUndefined();
      const none = await runSettle(['--config', file, 'reload'], { cwd: dir, env });
      expect(none.code).toBe(3);
      expect(none.stderr).toContain('ERR_SERVE_NOT_RUNNING');
    });
  } finally {
    await sandbox.close();
  }
}
