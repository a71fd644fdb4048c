// Promise: an inbox takes regular files only. A link (to a secret, to /proc/self/environ, to a
// valid payment file elsewhere on disk), a FIFO or a folder dropped into an inbox is never
// opened, never paid, never quoted in a report or the database; it stays where it is and is
// reported once ("not a regular file: left in place") until it changes. A folder of the
// company that is a link leading out of its root is refused. Proved on local folders and over
// SFTP against a real OpenSSH sshd (whose files are on this machine, so the test can plant links).
import { execFileSync } from 'node:child_process';
import { link, lstat, lutimes, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runPickup } from '../../jobs/pickup/pickup.js';
import { configSchema, type CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { isSettleError } from '../../src/domain/errors.js';
import { createLogger } from '../../src/log/index.js';
import { profileLoader } from '../../src/main/profiles.js';
import { CompanyFileStores } from '../../src/main/file-stores.js';
import { openDatabase } from '../../src/store/database.js';
import { DedupeRepository } from '../../src/store/dedupe.js';
import { FileLedger } from '../../src/store/file-ledger.js';
import type { FileStore } from '../../src/transport/index.js';
import { sftpCompany } from '../support/sftp-company.js';
import { startSshdForTests } from '../support/sshd.js';
import { makeTempDir } from '../support/tmp.js';
import { partPath } from '../../src/transport/part-name.js';
import { allFiles } from './helpers.js';

const { server, reason } = await startSshdForTests();
afterAll(async () => server?.stop());

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const payment = (e2e: string) =>
  `${HEADER}\nNO9386011117947,ACME AS,2026-01-07,${e2e},10.00,NOK,NO0612000000009,Leverandor AS\n`;

const CLIENT_SECRET = 'client-secret-Zq81-not-for-reports';

interface Setup {
  company: CompanyConfig;
  store: FileStore;
  /** The company root on this machine's disk (the SFTP server's folder for SFTP). */
  localRoot: string;
  /** A folder outside the company's folders that the reader could read, relative to the store root. */
  elsewhere: string;
  close(): Promise<void>;
}

function quietStores(transports: ConstructorParameters<typeof CompanyFileStores>[0]['transports']) {
  return new CompanyFileStores(
    { transports },
    createLogger({ format: 'json', level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) }),
  );
}

async function pickup(setup: Setup, dir: string) {
  const db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
  await db.migrate();
  const clock = new ManualClock('2026-01-05T09:00:00Z');
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString('utf8')), done()) });
  const dedupe = new DedupeRepository(db, clock);
  try {
    const picked = await runPickup(
      {
        ledger: new FileLedger(db, clock),
        clock,
        logger: createLogger({ format: 'json', level: 'debug', stream }),
        timeZone: 'Europe/Oslo',
        workDir: join(dir, 'work'),
        fileStore: () => Promise.resolve(setup.store),
        profile: profileLoader(),
        sleep: () => Promise.resolve(),
        firstSighting: (key) => dedupe.recordAlertSent(key, 'log'),
      },
      [setup.company],
    );
    const files = await new FileLedger(db, clock).listFiles({ company: 'acme' });
    const logs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const notRegular = logs.filter((l) => l.code === 'ERR_FILE_NOT_REGULAR').map((l) => [l.file, l.kind]);
    return { picked, files, notRegular: notRegular.sort() };
  } finally {
    await db.close();
  }
}

/** Plants the hostile entries in the inbox, as someone with write access to it could. */
async function plant(setup: Setup, withEnv: boolean): Promise<void> {
  const { folders } = setup.company;
  for (const folder of [folders.inbox, folders.archive, folders.error]) await setup.store.ensureDir(folder);
  const inbox = join(setup.localRoot, folders.inbox);
  // Readable by whoever reads the inbox (the SFTP account, for SFTP): so only settle's refusal protects it.
  const elsewhere = join(setup.localRoot, setup.elsewhere);
  await setup.store.ensureDir(setup.elsewhere);
  await setup.store.writeAtomic(`${setup.elsewhere}/client-secret`, CLIENT_SECRET);
  await setup.store.writeAtomic(`${setup.elsewhere}/payments.csv`, payment('E2E-ELSEWHERE'));
  await symlink(join(elsewhere, 'client-secret'), join(inbox, 'secret.csv'));
  await symlink(join(elsewhere, 'payments.csv'), join(inbox, 'linked.csv'));
  if (withEnv) await symlink('/proc/self/environ', join(inbox, 'env.csv'));
  execFileSync('mkfifo', [join(inbox, 'pipe.csv')]);
  await mkdir(join(inbox, 'folder.csv'));
  await writeFile(join(inbox, 'good.csv'), payment('E2E-GOOD'));
}

const EXPECTED_OTHERS = (withEnv: boolean) =>
  [
    ...(withEnv ? [['env.csv', 'link']] : []),
    ['folder.csv', 'directory'],
    ['linked.csv', 'link'],
    ['pipe.csv', 'fifo'],
    ['secret.csv', 'link'],
  ].sort();

async function provesLinksAreLeft(setup: Setup, dir: string, withEnv: boolean): Promise<void> {
  // What the process environment holds (a webhook authorization value, say) starts like this.
  const environ = (await readFile('/proc/self/environ', 'utf8')).split('\0').find((v) => v.length >= 12) ?? '';
  await plant(setup, withEnv);
  const first = await pickup(setup, dir);
  // Only the regular file is taken; the linked payment file is not paid.
  expect(first.picked.map((p) => [p.name, p.outcome])).toEqual([['good.csv', 'accepted']]);
  expect(first.files.map((f) => f.fileName)).toEqual(['good.csv']);
  expect(first.notRegular).toEqual(EXPECTED_OTHERS(withEnv));
  // Everything is still in the inbox, untouched.
  const inbox = join(setup.localRoot, setup.company.folders.inbox);
  expect((await lstat(join(inbox, 'secret.csv'))).isSymbolicLink()).toBe(true);
  expect((await lstat(join(inbox, 'linked.csv'))).isSymbolicLink()).toBe(true);
  expect((await lstat(join(inbox, 'pipe.csv'))).isFIFO()).toBe(true);
  // No secret reached a report, the archive or the database (its WAL included).
  const written = [...(await allFiles(dir)), ...(await allFiles(join(setup.localRoot, setup.company.folders.error)))];
  for (const file of written.filter((f) => !f.startsWith(join(setup.localRoot, setup.elsewhere)))) {
    const bytes = await readFile(file);
    expect({ file, client: bytes.includes(CLIENT_SECRET) }).toEqual({ file, client: false });
    expect({ file, env: environ !== '' && bytes.includes(environ) }).toEqual({ file, env: false });
    expect({ file, e2e: bytes.includes('E2E-ELSEWHERE') }).toEqual({ file, e2e: false });
  }
  // Said once: the next run is quiet about the same entries…
  expect((await pickup(setup, dir)).notRegular).toEqual([]);
  // …until one changes (a link made again, at another time).
  const later = new Date(Date.now() + 60_000);
  await lutimes(join(inbox, 'secret.csv'), later, later);
  expect((await pickup(setup, dir)).notRegular).toEqual([['secret.csv', 'link']]);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'ok',
    (error: unknown) => (isSettleError(error) ? error.code : `other: ${String(error)}`),
  );
}

describe('security: links and other non-files in a local inbox', () => {
  async function localSetup(dir: string): Promise<Setup> {
    // The store's root holds the company's folders under acme/ and, beside them, the files of others.
    const root = join(dir, 'company');
    const folders = { inbox: 'acme/inbox', archive: 'acme/archive', error: 'acme/error' };
    await mkdir(root, { recursive: true });
    const parsed = configSchema.parse({
      companies: [{ id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root, folders }],
    });
    const stores = quietStores({});
    const company = parsed.companies[0]!;
    const store = await stores.fileStore(company);
    return { company, store, localRoot: root, elsewhere: 'elsewhere', close: () => stores.close() };
  }

  it('a link to a secret, to /proc/self/environ or to a payment file elsewhere, a FIFO and a folder are left in place, reported once, never read or paid', async () => {
    const { dir, cleanup } = await makeTempDir();
    const setup = await localSetup(dir);
    try {
      await provesLinksAreLeft(setup, dir, true);
    } finally {
      await setup.close();
      await cleanup();
    }
  });

  it('the store refuses to read a link or a FIFO (without hanging) and any path through a folder link that leads out of the root', async () => {
    const { dir, cleanup } = await makeTempDir();
    const setup = await localSetup(dir);
    try {
      await plant(setup, false);
      const { store } = setup;
      expect(await codeOf(store.read('acme/inbox/secret.csv'))).toBe('ERR_FILE_NOT_REGULAR');
      expect(await codeOf(store.readBuffer('acme/inbox/linked.csv'))).toBe('ERR_FILE_NOT_REGULAR');
      expect(await codeOf(store.read('acme/inbox/pipe.csv'))).toBe('ERR_FILE_NOT_REGULAR');
      expect(await store.exists('acme/inbox/linked.csv')).toBe(false);
      expect(await store.stat('acme/inbox/linked.csv')).toBeUndefined();
      // A folder that is a link out of the root: refused, not written through or read through.
      await mkdir(join(dir, 'outside'));
      await symlink(join(dir, 'outside'), join(setup.localRoot, 'reports'));
      await symlink(join(setup.localRoot, 'elsewhere'), join(dir, 'outside', 'back'));
      await symlink('/etc', join(setup.localRoot, 'etc'));
      expect(await codeOf(store.ensureDir('reports'))).toBe('ERR_FILE_NAME_UNSAFE');
      expect(await codeOf(store.writeAtomic('reports/x.errors.txt', 'escaped'))).toBe('ERR_FILE_NAME_UNSAFE');
      expect(await codeOf(store.readBuffer('etc/hostname'))).toBe('ERR_FILE_NAME_UNSAFE');
      expect(await codeOf(store.list('etc'))).toBe('ERR_FILE_NAME_UNSAFE');
      expect(await codeOf(store.move('acme/inbox/good.csv', 'reports/good.csv'))).toBe('ERR_FILE_NAME_UNSAFE');
      expect(await allFiles(join(dir, 'outside'))).toEqual([]);
      // A link planted under the name settle writes to first is refused, never written through.
      await symlink(
        join(setup.localRoot, 'elsewhere', 'client-secret'),
        partPath(join(setup.localRoot, 'acme', 'r.txt')),
      );
      expect(await codeOf(store.writeAtomic('acme/r.txt', 'report'))).toBe('ERR_FILE_IO');
      expect(await readFile(join(setup.localRoot, 'elsewhere', 'client-secret'), 'utf8')).toBe(CLIENT_SECRET);
    } finally {
      await setup.close();
      await cleanup();
    }
  });
});

describe('security: a hard link in a local inbox', () => {
  it('a file with more than one name (a hard link to a payment file kept elsewhere) is refused, left in place, reported and never paid', async () => {
    const { dir, cleanup } = await makeTempDir();
    const root = join(dir, 'company');
    const folders = { inbox: 'acme/inbox', archive: 'acme/archive', error: 'acme/error' };
    await mkdir(join(root, 'acme', 'inbox'), { recursive: true });
    await mkdir(join(root, 'elsewhere'), { recursive: true });
    const company = configSchema.parse({
      companies: [{ id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root, folders }],
    }).companies[0]!;
    const stores = quietStores({});
    const setup: Setup = {
      company,
      store: await stores.fileStore(company),
      localRoot: root,
      elsewhere: 'elsewhere',
      close: () => stores.close(),
    };
    try {
      await writeFile(join(root, 'elsewhere', 'payments.csv'), payment('E2E-ELSEWHERE'));
      await link(join(root, 'elsewhere', 'payments.csv'), join(root, 'acme', 'inbox', 'linked.csv'));
      await writeFile(join(root, 'acme', 'inbox', 'good.csv'), payment('E2E-GOOD'));
      const { picked, files } = await pickup(setup, dir);
      expect(picked.map((p) => [p.name, p.outcome, p.refused?.code ?? null])).toEqual([
        ['good.csv', 'accepted', null],
        ['linked.csv', 'refused', 'ERR_FILE_NOT_REGULAR'],
      ]);
      expect(picked[1]?.refused?.message).toContain(
        'acme/inbox/linked.csv is a file with more than one name (a hard link to a file elsewhere): settle reads regular files only and left it in place.',
      );
      expect(files.map((f) => f.fileName)).toEqual(['good.csv']);
      expect((await lstat(join(root, 'acme', 'inbox', 'linked.csv'))).nlink).toBe(2);
      expect(await codeOf(setup.store.readBuffer('acme/inbox/linked.csv'))).toBe('ERR_FILE_NOT_REGULAR');
    } finally {
      await setup.close();
      await cleanup();
    }
  });
});

describe.runIf(server || process.env.CI)('security: links and other non-files in an SFTP inbox (real sshd)', () => {
  async function sftpSetup(): Promise<Setup> {
    if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
    const { company, stores, sub } = sftpCompany(server, 'links');
    return {
      company,
      store: await stores.fileStore(company),
      localRoot: server.filesRoot,
      elsewhere: `${sub}/elsewhere`,
      close: () => stores.close(),
    };
  }

  it('a link on the server to a secret or to a payment file elsewhere, a FIFO and a folder are left in place, reported once, never read or paid', async () => {
    const { dir, cleanup } = await makeTempDir();
    const setup = await sftpSetup();
    try {
      await provesLinksAreLeft(setup, dir, false);
      expect(await codeOf(setup.store.read(`${setup.company.folders.inbox}/secret.csv`))).toBe('ERR_FILE_NOT_REGULAR');
      expect(await codeOf(setup.store.readBuffer(`${setup.company.folders.inbox}/linked.csv`))).toBe(
        'ERR_FILE_NOT_REGULAR',
      );
    } finally {
      await setup.close();
      await cleanup();
    }
  });
});
