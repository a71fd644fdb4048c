// Promise: whatever happens to an SFTP inbox file while settle reads it, nothing of it is paid
// twice or in part, and the run says what happened. Against a real OpenSSH sshd (its files are on
// this machine, so the test changes them as another writer on the server would), through the
// pickup job with a real database: a file renamed, truncated or cut off by a dropped connection
// half-way through its download is not taken that run, is reported as waiting with the reason,
// and the next run takes the file as it then is, once. Links made on the server inside the inbox
// (to a file outside the SFTP folders, to a file in the inbox itself, to a folder) are left in
// place, reported, and never read. A changed host key stops `settle run nightly` before anything
// is read or sent to the bank (the sandbox); the right pin then pays the file once.
import { execFile } from 'node:child_process';
import { mkdir, readdir, rename, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runPickup, type PickedFile, type PickupDeps } from '../../jobs/pickup/pickup.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import { createLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { profileLoader } from '../../src/main/profiles.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { silentLogger } from '../../src/log/index.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { FileLedger } from '../../src/store/file-ledger.js';
import type { FileStore } from '../../src/transport/index.js';
import { runSettle } from '../support/cli.js';
import { sftpCompany } from '../support/sftp-company.js';
import { otherFingerprint, startSshdForTests, type SshdServer } from '../support/sshd.js';
import { makeTempDir, withTempDir } from '../support/tmp.js';
import { Writable } from 'node:stream';

const { server, reason } = await startSshdForTests();
afterAll(async () => server?.stop());

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const line = (id: string, n: number, date: string) =>
  `NO9386011117947,ACME AS,${date},${id}-${n},${n}.00,NOK,NO0612000000009,Leverandor AS\n`;
/** A payment file of `count` lines: large enough (about 80 bytes a line) to take several reads. */
const paymentFile = (id: string, count: number, date = '2026-01-07') =>
  HEADER + '\n' + Array.from({ length: count }, (_, i) => line(id, i + 1, date)).join('');

/** A Wednesday a week or two from now: a valid execution date on the real clock. */
function nextWeeksWednesday(): string {
  const day = new Date(Date.now() + 7 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((3 - day.getUTCDay() + 7) % 7));
  return day.toISOString().slice(0, 10);
}

function sshd(): SshdServer {
  if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
  return server;
}

/** The store as pickup sees it, except that `during` runs once, after the first chunk of a read of `name`. */
function interrupted(store: FileStore, name: string, during: () => Promise<unknown>): FileStore {
  let done = false;
  return Object.assign(Object.create(store) as FileStore, {
    async read(path: string): Promise<Readable> {
      const input = await store.read(path);
      if (done || !path.endsWith(`/${name}`)) return input;
      done = true;
      let first = true;
      const relay = new Transform({
        transform: (chunk, _e, next) => {
          if (!first) return next(null, chunk);
          first = false;
          void during().then(
            () => next(null, chunk),
            (error: unknown) => next(error as Error),
          );
        },
      });
      input.on('error', (error) => relay.destroy(error));
      return input.pipe(relay);
    },
  });
}

interface World {
  db: Database;
  company: CompanyConfig;
  store: FileStore;
  /** The inbox on this machine's disk (the server's folder). */
  inbox: string;
  pickup(store?: FileStore): Promise<PickedFile[]>;
  paid(): Promise<[string, number][]>;
  close(): Promise<void>;
}

async function world(dir: string, prefix: string): Promise<World> {
  const db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
  await db.migrate();
  const { company, stores } = sftpCompany(sshd(), prefix, { stableFor: '1s' });
  const store = await stores.fileStore(company);
  await store.ensureDir(company.folders.inbox);
  const clock = new ManualClock('2026-01-05T09:00:00Z');
  const ledger = new FileLedger(db, clock);
  const deps = (fileStore: FileStore): PickupDeps => ({
    ledger,
    clock,
    logger: silentLogger(),
    timeZone: 'Europe/Oslo',
    workDir: join(dir, 'work'),
    fileStore: () => Promise.resolve(fileStore),
    profile: profileLoader(),
    sleep: () => Promise.resolve(),
  });
  return {
    db,
    company,
    store,
    inbox: join(sshd().filesRoot, company.folders.inbox),
    pickup: (fileStore = store) => runPickup(deps(fileStore), [company]),
    paid: async () =>
      (await ledger.listFiles({ company: 'acme' })).map((f) => [f.fileName, f.acceptedCount] as [string, number]),
    close: async () => {
      await stores.close();
      await db.close();
    },
  };
}

const outcomes = (picked: PickedFile[]) => picked.map((p) => [p.name, p.outcome, p.waitingFor ?? null]);

describe.runIf(server || process.env.CI)(
  'security: an SFTP inbox file that changes while it is read (real sshd)',
  () => {
    it('renamed half-way through its download: not taken, reported; the next run takes it under its new name, once', async () => {
      const { dir, cleanup } = await makeTempDir();
      const w = await world(dir, 'renamed');
      try {
        await writeFile(join(w.inbox, 'pay.csv'), paymentFile('REN', 3000));
        const during = () => rename(join(w.inbox, 'pay.csv'), join(w.inbox, 'pay-renamed.csv'));
        expect(outcomes(await w.pickup(interrupted(w.store, 'pay.csv', during)))).toEqual([
          [
            'pay.csv',
            'waiting',
            'the file to stay still: it was renamed or removed while it was read; nothing of it was taken, the next run reads it again',
          ],
        ]);
        expect(await w.paid()).toEqual([]);
        expect(outcomes(await w.pickup())).toEqual([['pay-renamed.csv', 'accepted', null]]);
        expect(await w.pickup()).toEqual([]);
        expect(await w.paid()).toEqual([['pay-renamed.csv', 3000]]);
      } finally {
        await w.close();
        await cleanup();
      }
    });

    it('truncated half-way through its download: not taken, reported; the next run takes what the file then is, once', async () => {
      const { dir, cleanup } = await makeTempDir();
      const w = await world(dir, 'truncated');
      try {
        const whole = paymentFile('TRU', 3000);
        await writeFile(join(w.inbox, 'pay.csv'), whole);
        const tenLines = Buffer.byteLength(paymentFile('TRU', 10));
        const during = () => truncate(join(w.inbox, 'pay.csv'), tenLines);
        const [first] = await w.pickup(interrupted(w.store, 'pay.csv', during));
        expect(first).toMatchObject({ name: 'pay.csv', outcome: 'waiting', payments: 0 });
        expect(first?.waitingFor).toMatch(
          new RegExp(
            `^the file to stay still: it changed while it was read \\(${Buffer.byteLength(whole)} bytes listed, ${tenLines} now\\)`,
          ),
        );
        expect(await w.paid()).toEqual([]);
        expect(outcomes(await w.pickup())).toEqual([['pay.csv', 'accepted', null]]);
        expect(await w.paid()).toEqual([['pay.csv', 10]]);
      } finally {
        await w.close();
        await cleanup();
      }
    });

    it('a connection dropped half-way through a download: that file waits, the next file is still taken, and the next run takes the first, once', async () => {
      const { dir, cleanup } = await makeTempDir();
      const w = await world(dir, 'dropped');
      try {
        await writeFile(join(w.inbox, 'a-big.csv'), paymentFile('BIG', 3000));
        await writeFile(join(w.inbox, 'b-small.csv'), paymentFile('SMALL', 2));
        const during = () => sshd().killConnections();
        const first = await w.pickup(interrupted(w.store, 'a-big.csv', during));
        expect(first.map((p) => [p.name, p.outcome])).toEqual([
          ['a-big.csv', 'waiting'],
          ['b-small.csv', 'accepted'],
        ]);
        expect(first[0]?.waitingFor).toMatch(/^the file to be read whole: the read was cut off \(ERR_SFTP_CONNECT: /);
        expect(await readdir(w.inbox)).toEqual(['a-big.csv']);
        expect(await w.paid()).toEqual([['b-small.csv', 2]]);
        expect(outcomes(await w.pickup())).toEqual([['a-big.csv', 'accepted', null]]);
        expect(await w.pickup()).toEqual([]);
        expect((await w.paid()).sort()).toEqual([
          ['a-big.csv', 3000],
          ['b-small.csv', 2],
        ]);
      } finally {
        await w.close();
        await cleanup();
      }
    });

    it('links made on the server inside the inbox, to outside the SFTP folders, to a file in the inbox and to a folder, are left in place and never read', async () => {
      const { dir, cleanup } = await makeTempDir();
      const w = await world(dir, 'server-links');
      const lines: string[] = [];
      try {
        await writeFile(join(w.inbox, 'good.csv'), paymentFile('GOOD', 1));
        // Outside every folder the SFTP account is given: a system file, and a payment file elsewhere on the machine.
        await writeFile(join(dir, 'elsewhere.csv'), paymentFile('ELSEWHERE', 1), { mode: 0o644 });
        await symlink('/etc/passwd', join(w.inbox, 'passwd.csv'));
        await symlink(join(dir, 'elsewhere.csv'), join(w.inbox, 'outside.csv'));
        // Inside: a second name for the inbox's own file, and a link to the archive folder.
        await symlink('good.csv', join(w.inbox, 'again.csv'));
        await w.store.ensureDir(w.company.folders.archive);
        await symlink(join(sshd().filesRoot, w.company.folders.archive), join(w.inbox, 'archive.csv'));
        const logger = createLogger({
          format: 'json',
          level: 'warn',
          stream: new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(chunk.toString()), done()) }),
        });
        const clock = new ManualClock('2026-01-05T09:00:00Z');
        const picked = await runPickup(
          {
            ledger: new FileLedger(w.db, clock),
            clock,
            logger,
            timeZone: 'Europe/Oslo',
            workDir: join(dir, 'work'),
            fileStore: () => Promise.resolve(w.store),
            profile: profileLoader(),
            sleep: () => Promise.resolve(),
          },
          [w.company],
        );
        expect(outcomes(picked)).toEqual([['good.csv', 'accepted', null]]);
        expect(await w.paid()).toEqual([['good.csv', 1]]);
        const reported = lines
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l.code === 'ERR_FILE_NOT_REGULAR')
          .map((l) => [l.file, l.kind])
          .sort();
        expect(reported).toEqual([
          ['again.csv', 'link'],
          ['archive.csv', 'link'],
          ['outside.csv', 'link'],
          ['passwd.csv', 'link'],
        ]);
        expect((await readdir(w.inbox)).sort()).toEqual(['again.csv', 'archive.csv', 'outside.csv', 'passwd.csv']);
      } finally {
        await w.close();
        await cleanup();
      }
    });
  },
);

const run = promisify(execFile);

describe.runIf(server || process.env.CI)(
  'security: a changed SFTP host key stops the nightly run (real sshd, sandbox bank)',
  () => {
    it('refused with ERR_SFTP_HOST_KEY_MISMATCH, nothing read, moved or sent; the right pin then pays the file once', async () => {
      const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
      try {
        await withTempDir(async (dir) => {
          const s = sshd();
          const root = join(s.filesRoot, `hostkey-${Date.now()}`);
          await mkdir(join(root, 'inbox'), { recursive: true });
          if (process.getuid?.() === 0) await run('chown', ['-R', s.username, root]);
          const demo = await writeDemoConfig(dir, sandbox);
          await writeFile(join(dir, 'client.key'), s.privateKey, { mode: 0o600 });
          const config = async (pin: string) => {
            const text = (await import('node:fs/promises')).readFile(demo, 'utf8');
            const yaml = (await text)
              .replace(
                /^companies:/m,
                [
                  'transports:',
                  '  erp:',
                  '    type: sftp',
                  `    host: ${s.host}`,
                  `    port: ${s.port}`,
                  `    username: ${s.username}`,
                  `    privateKey: { file: ${join(dir, 'client.key')} }`,
                  `    hostKeySha256: "${pin}"`,
                  '    timeout: 10s',
                  'companies:',
                ].join('\n'),
              )
              .replace(/^ {4}root: .*$/m, `    transport: erp\n    root: ${root}`);
            const file = join(dir, `settle-${pin === s.hostKeySha256 ? 'right' : 'changed'}.yaml`);
            await writeFile(file, yaml);
            return file;
          };
          await writeFile(join(root, 'inbox', 'pay.csv'), paymentFile('HOSTKEY', 2, nextWeeksWednesday()));
          const payments = async () =>
            ((await (await fetch(`${sandbox.urls.controlUrl}/payments`)).json()) as { payments: unknown[] }).payments
              .length;
          const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };

          const changed = otherFingerprint();
          const refused = await runSettle(['--config', await config(changed), 'run', 'nightly'], { cwd: dir, env });
          expect(refused.code).toBe(3);
          expect(refused.stdout).toMatch(/pickup +failed: ERR_SFTP_HOST_KEY_MISMATCH: Refused SFTP server /);
          expect(refused.stdout).toContain(changed);
          expect(refused.stdout).toContain(s.hostKeySha256);
          expect(await readdir(join(root, 'inbox'))).toEqual(['pay.csv']);
          expect(await payments()).toBe(0);

          const right = await runSettle(['--config', await config(s.hostKeySha256), 'run', 'nightly'], {
            cwd: dir,
            env,
          });
          expect(right.stdout.split('\n').filter((l) => / pickup /.test(l))).toEqual([
            expect.stringMatching(/pickup +1 file\(s\): 1 accepted/) as string,
          ]);
          expect(await readdir(join(root, 'inbox'))).toEqual([]);
          const sent = await payments();
          expect(sent).toBe(1);
          await runSettle(['--config', await config(s.hostKeySha256), 'run', 'nightly'], { cwd: dir, env });
          expect(await payments()).toBe(sent);
        });
      } finally {
        await sandbox.close();
      }
    }, 120_000);
  },
);
