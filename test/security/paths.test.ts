// Promise: a file name that comes from outside (an ERP drop, an SFTP listing, a name stored in
// the ledger) can never make settle read or write outside the company's folders. Unsafe inbox
// names (backslash, control or bidi characters, names too long for the names settle derives
// from them) are left where they are with a warning naming ERR_FILE_NAME_UNSAFE; hidden dot
// files are never taken; every FileStore operation refuses traversal, absolute paths, NUL and
// backslashes. Proved on local folders and over SFTP against a real OpenSSH sshd.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
import { FileLedger } from '../../src/store/file-ledger.js';
import type { FileStore } from '../../src/transport/index.js';
import { MAX_INBOX_NAME_BYTES } from '../../src/transport/stable-files.js';
import { sftpCompany } from '../support/sftp-company.js';
import { startSshdForTests } from '../support/sshd.js';
import { makeTempDir } from '../support/tmp.js';
import { allFiles } from './helpers.js';

const { server, reason } = await startSshdForTests();
afterAll(async () => server?.stop());

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const good = (e2e: string) =>
  `${HEADER}\nNO9386011117947,ACME AS,2026-01-07,${e2e},10.00,NOK,NO0612000000009,Leverandor AS\n`;
const bad = (e2e: string) =>
  `${HEADER}\nNO9386011117947,ACME AS,2026-01-07,${e2e},10.00,NOK,NO0612000000008,Leverandor AS\n`;

/** A name of exactly `bytes` UTF-8 bytes ending in .csv, with multi-byte characters in it. */
const longName = (bytes: number, tag: string) =>
  `${tag}-${'ø'.repeat(20)}${'n'.repeat(bytes - tag.length - 1 - 40 - 4)}.csv`;

/** Inbox names that must never be taken; all can exist on a Linux file system and an SFTP server. */
const NEVER_TAKEN = [
  'back\\slash.csv',
  'new\nline.csv',
  'tab\tname.csv',
  'bidi\u202Evsc.csv',
  '.hidden.csv',
  '..dots.csv',
  longName(MAX_INBOX_NAME_BYTES + 1, 'over'),
  longName(250, 'way-over'),
];
/** The longest names that are taken: their error reports and archive copies must still fit. */
const LONGEST_BAD = longName(MAX_INBOX_NAME_BYTES, 'bad');
const LONGEST_GOOD = longName(MAX_INBOX_NAME_BYTES, 'good');

/** Paths no FileStore operation may accept: traversal, absolute, NUL, backslash, empty segments. */
const HOSTILE_PATHS = [
  '../escape.csv',
  'inbox/../../escape.csv',
  '/tmp/escape.csv',
  'inbox/nul\0.csv',
  'inbox\\..\\..\\escape.csv',
  'inbox//escape.csv',
  '..',
  'inbox/./x.csv',
  'inbox/\u202Eescape.csv',
];

function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) });
  return { logger: createLogger({ format: 'json', level: 'debug', stream }), lines };
}

interface Setup {
  company: CompanyConfig;
  store: FileStore;
  /** The local folder holding the company's files (the SFTP server's folder for SFTP). */
  localRoot: string;
  close(): Promise<void>;
}

async function pickupAll(setup: Setup, dir: string) {
  const db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
  await db.migrate();
  const clock = new ManualClock('2026-01-05T09:00:00Z');
  const { logger, lines } = capturingLogger();
  try {
    const picked = await runPickup(
      {
        ledger: new FileLedger(db, clock),
        clock,
        logger,
        timeZone: 'Europe/Oslo',
        workDir: join(dir, 'work'),
        fileStore: () => Promise.resolve(setup.store),
        profile: profileLoader(),
        sleep: () => Promise.resolve(),
      },
      [setup.company],
    );
    return { picked, logs: lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
  } finally {
    await db.close();
  }
}

async function dropInbox(setup: Setup): Promise<void> {
  // Written straight into the folder (not through the store, which would refuse them), as an ERP would.
  const inbox = join(setup.localRoot, setup.company.folders.inbox);
  await mkdir(inbox, { recursive: true });
  for (const name of NEVER_TAKEN) await writeFile(join(inbox, name), good(`E-${NEVER_TAKEN.indexOf(name)}`));
  await writeFile(join(inbox, LONGEST_BAD), bad('E-BAD'));
  await writeFile(join(inbox, LONGEST_GOOD), good('E-GOOD'));
}

async function provesInboxPromise(setup: Setup, dir: string): Promise<void> {
  const { folders } = setup.company;
  await setup.store.ensureDir(folders.inbox);
  await dropInbox(setup);
  const { picked, logs } = await pickupAll(setup, dir);
  expect(picked.map((p) => [p.name, p.outcome])).toEqual([
    [LONGEST_BAD, 'rejected'],
    [LONGEST_GOOD, 'accepted'],
  ]);
  // The unsafe and hidden ones are still in the inbox, untouched; the others were taken.
  expect((await readdir(join(setup.localRoot, folders.inbox))).sort()).toEqual([...NEVER_TAKEN].sort());
  expect((await setup.store.list(folders.error)).map((e) => e.name).sort()).toEqual([
    LONGEST_BAD,
    `${LONGEST_BAD}.errors.html`,
    `${LONGEST_BAD}.errors.json`,
    `${LONGEST_BAD}.errors.txt`,
  ]);
  // Each unsafe name is named in a warning with the code; hidden files are just not taken.
  const warned = logs.filter((l) => l.level === 'warn' && l.code === 'ERR_FILE_NAME_UNSAFE').map((l) => l.file);
  expect(warned.sort()).toEqual(NEVER_TAKEN.filter((n) => !n.startsWith('.')).sort());
}

function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'ok',
    (error: unknown) => (isSettleError(error) ? error.code : `other: ${String(error)}`),
  );
}

async function provesStorePromise(setup: Setup): Promise<void> {
  const { store } = setup;
  await store.ensureDir('inbox');
  await store.writeAtomic('inbox/ok.csv', 'x');
  for (const path of HOSTILE_PATHS) {
    const results = {
      path,
      writeAtomic: await codeOf(store.writeAtomic(path, 'escaped')),
      read: await codeOf(store.readBuffer(path)),
      list: await codeOf(store.list(path)),
      exists: await codeOf(store.exists(path)),
      ensureDir: await codeOf(store.ensureDir(path)),
      moveTo: await codeOf(store.move('inbox/ok.csv', path)),
      moveFrom: await codeOf(store.move(path, 'inbox/taken.csv')),
      remove: await codeOf(store.remove(path)),
    };
    const refused = 'ERR_FILE_NAME_UNSAFE';
    expect(results).toEqual({
      path,
      writeAtomic: refused,
      read: refused,
      list: refused,
      exists: refused,
      ensureDir: refused,
      moveTo: refused,
      moveFrom: refused,
      remove: refused,
    });
  }
  // The names jobs derive from an input name (error report, status report, archive) cannot escape either.
  for (const name of ['../../escape.csv', '/etc/passwd', 'a\\b.csv']) {
    for (const derived of [
      `error/${name}.errors.txt`,
      `status/${name}.20260105T080000000Z.status.csv`,
      `archive/2026-01-05/${name}`,
    ]) {
      expect({ derived, code: await codeOf(store.writeAtomic(derived, 'escaped')) }).toEqual({
        derived,
        code: 'ERR_FILE_NAME_UNSAFE',
      });
    }
  }
  expect(await store.readBuffer('inbox/ok.csv')).toEqual(Buffer.from('x'));
}

/** Nothing named "escape*" or holding "escaped" anywhere near the root: above it, in it, or in /tmp. */
async function nothingEscaped(localRoot: string): Promise<void> {
  const around = dirname(localRoot);
  for (const file of await allFiles(around)) expect(file).not.toMatch(/escape/);
  expect((await readdir('/tmp')).filter((n) => n.startsWith('escape'))).toEqual([]);
}

describe('security: file names cannot escape the company folders (local folders)', () => {
  async function localSetup(dir: string): Promise<Setup> {
    const root = join(dir, 'company', 'acme');
    await mkdir(root, { recursive: true });
    const parsed = configSchema.parse({
      companies: [{ id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root, intake: { stableFor: '1s' } }],
    });
    const fileStores = new CompanyFileStores(
      { transports: {} },
      createLogger({ format: 'json', level: 'error', stream: new Writable({ write: (_c, _e, done) => done() }) }),
    );
    const company = parsed.companies[0]!;
    return { company, store: await fileStores.fileStore(company), localRoot: root, close: () => fileStores.close() };
  }

  it('unsafe, hidden and over-long inbox names are left in the inbox with a warning; the longest allowed names still get their reports', async () => {
    const { dir, cleanup } = await makeTempDir();
    const setup = await localSetup(dir);
    try {
      await provesInboxPromise(setup, dir);
      // Everything settle wrote is under the company root, the database or its scratch folder.
      for (const file of await allFiles(dir))
        expect(
          file.startsWith(join(dir, 'company', 'acme') + '/') ||
            file.startsWith(join(dir, 'db.sqlite')) ||
            file.startsWith(join(dir, 'work')),
        ).toBe(true);
    } finally {
      await setup.close();
      await cleanup();
    }
  });

  it('every FileStore operation refuses traversal, absolute paths, NUL, backslashes and dot segments, and writes nothing', async () => {
    const { dir, cleanup } = await makeTempDir();
    const setup = await localSetup(dir);
    try {
      await provesStorePromise(setup);
      await nothingEscaped(setup.localRoot);
    } finally {
      await setup.close();
      await cleanup();
    }
  });
});

describe.runIf(server || process.env.CI)(
  'security: file names cannot escape the company folders (SFTP, real sshd)',
  () => {
    async function sftpSetup(): Promise<Setup> {
      if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
      const { company, stores } = sftpCompany(server, 'paths', { stableFor: '1s' });
      return {
        company,
        store: await stores.fileStore(company),
        localRoot: server.filesRoot,
        close: () => stores.close(),
      };
    }

    it('unsafe, hidden and over-long names in an SFTP inbox are left there with a warning; the longest allowed names still get their reports', async () => {
      const { dir, cleanup } = await makeTempDir();
      const setup = await sftpSetup();
      try {
        await provesInboxPromise(setup, dir);
      } finally {
        await setup.close();
        await cleanup();
      }
    });

    it('every SFTP FileStore operation refuses traversal, absolute paths, NUL, backslashes and dot segments, and writes nothing', async () => {
      const setup = await sftpSetup();
      try {
        await provesStorePromise(setup);
        await nothingEscaped(setup.localRoot);
      } finally {
        await setup.close();
      }
    });
  },
);
