// A file still being written is never taken in part. A real writer process writes 60 of 200
// lines, pickup reads them, and the writer appends the other 140 at the moment the read ends:
// the file is not accepted that run, and the next run takes all 200. Locally and over SFTP
// against a real OpenSSH sshd. Also: the ready-marker mode (NAME.done), and the config check
// that refuses a stable wait below the floor without a marker.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runPickup } from '../../jobs/pickup/pickup.js';
import { configSchema, type CompanyConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/log/index.js';
import { CompanyFileStores } from '../../src/main/file-stores.js';
import { openDatabase } from '../../src/store/database.js';
import type { FileStore } from '../../src/transport/index.js';
import { sftpCompany, sftpPickupDeps } from '../support/sftp-company.js';
import { startSshdForTests } from '../support/sshd.js';
import { makeTempDir } from '../support/tmp.js';

const { server, reason } = await startSshdForTests();
afterAll(async () => server?.stop());

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';

// The writer: header and lines 1–60, "ready"; on "go" the lines 61–200 through the same open file, "done".
const WRITER = `
const fs = require('node:fs');
const fd = fs.openSync(process.argv[1], 'a');
const line = (n) => 'NO9386011117947,ACME AS,2026-01-07,E2E-' + n + ',' + n + '.00,NOK,NO0612000000009,Leverandor AS\\n';
fs.writeSync(fd, ${JSON.stringify(HEADER + '\n')});
for (let n = 1; n <= 60; n++) fs.writeSync(fd, line(n));
console.log('ready');
require('node:readline').createInterface({ input: process.stdin }).on('line', () => {
  for (let n = 61; n <= 200; n++) fs.writeSync(fd, line(n));
  fs.closeSync(fd);
  console.log('done');
  process.exit(0);
});
`;

class Writer {
  private readonly lines: AsyncIterator<string>;
  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }
  static async start(path: string): Promise<Writer> {
    const writer = new Writer(spawn(process.execPath, ['-e', WRITER, path]));
    await writer.expect('ready');
    return writer;
  }
  private async expect(word: string): Promise<void> {
    const { value } = await this.lines.next();
    if (value !== word) throw new Error(`writer said ${String(value)}, expected ${word}`);
  }
  /** Lets the writer append the rest and waits until it has. */
  async finish(): Promise<void> {
    this.child.stdin.write('go\n');
    await this.expect('done');
    if (this.child.exitCode === null) await once(this.child, 'exit');
  }
}

/** The store as pickup sees it, except that the writer goes on at the moment a read ends. */
function appendingWhenReadEnds(store: FileStore, writer: { current?: Writer }): FileStore {
  return Object.assign(Object.create(store) as FileStore, {
    async read(path: string): Promise<Readable> {
      const input = await store.read(path);
      const w = writer.current;
      writer.current = undefined;
      if (!w) return input;
      return input.pipe(
        new Transform({
          transform: (chunk, _e, done) => done(null, chunk),
          flush: (done) => void w.finish().then(() => done(), done),
        }),
      );
    },
  });
}

async function provesNoPartialFile(store: FileStore, company: CompanyConfig, inboxOnDisk: string, dir: string) {
  const db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
  try {
    await store.ensureDir(company.folders.inbox);
    const writer: { current?: Writer } = { current: await Writer.start(join(inboxOnDisk, 'growing.csv')) };
    const deps = await sftpPickupDeps(db, dir, appendingWhenReadEnds(store, writer));
    // Run 1 read 60 lines, then the writer appended 140: nothing is accepted, the file stays,
    // and the run says so.
    expect(await runPickup(deps, [company])).toEqual([
      {
        company: 'acme',
        name: 'growing.csv',
        outcome: 'waiting',
        payments: 0,
        movedTo: `${company.folders.inbox}/growing.csv`,
        waitingFor: expect.stringMatching(/^the file to stay still: it changed while it was read/) as string,
      },
    ]);
    expect(writer.current).toBeUndefined();
    expect(await readdir(inboxOnDisk)).toEqual(['growing.csv']);
    expect(await deps.ledger.listFiles({ company: 'acme' })).toEqual([]);
    // Run 2 takes the whole file.
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({ name: 'growing.csv', outcome: 'accepted', payments: 200 });
  } finally {
    await db.close();
  }
}

describe('a file still being written (local folder)', () => {
  it('is not accepted when it grew while being read; the next run takes all 200 lines', async () => {
    const { dir, cleanup } = await makeTempDir();
    try {
      const root = join(dir, 'acme');
      await mkdir(join(root, 'inbox'), { recursive: true });
      const company = configSchema.parse({
        companies: [{ id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root }],
      }).companies[0]!;
      const stores = new CompanyFileStores({ transports: {} }, silentLogger());
      await provesNoPartialFile(await stores.fileStore(company), company, join(root, 'inbox'), dir);
      await stores.close();
    } finally {
      await cleanup();
    }
  });

  it('with a ready marker: a file is taken only once NAME.done exists, and the marker goes with it', async () => {
    const { dir, cleanup } = await makeTempDir();
    const db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
    try {
      const root = join(dir, 'acme');
      const inbox = join(root, 'inbox');
      await mkdir(inbox, { recursive: true });
      const company = configSchema.parse({
        companies: [
          {
            id: 'acme',
            name: 'ACME AS',
            organisationNumber: '999999999',
            root,
            intake: { stableFor: 0, readyMarker: '.done' },
          },
        ],
      }).companies[0]!;
      const stores = new CompanyFileStores({ transports: {} }, silentLogger());
      const deps = await sftpPickupDeps(db, dir, await stores.fileStore(company));
      const body = `${HEADER}\nNO9386011117947,ACME AS,2026-01-07,E2E-M1,1.00,NOK,NO0612000000009,Leverandor AS\n`;
      await writeFile(join(inbox, 'pay.csv'), body);
      expect(await runPickup(deps, [company])).toEqual([]);
      await writeFile(join(inbox, 'pay.csv.done'), '');
      // A marker left from a file taken long ago would let a new file of that name in unfinished.
      await writeFile(join(inbox, 'old.csv.done'), '');
      const [picked] = await runPickup(deps, [company]);
      expect(picked).toMatchObject({ name: 'pay.csv', outcome: 'accepted', payments: 1 });
      expect(await readdir(inbox)).toEqual([]);
      await stores.close();
    } finally {
      await db.close();
      await cleanup();
    }
  });

  it('the config check refuses a stable wait under 1s without a marker, naming the key', () => {
    const company = (intake: object) => ({
      companies: [{ id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root: '/srv/acme', intake }],
    });
    const refused = configSchema.safeParse(company({ stableFor: '0s' }));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'companies.0.intake.stableFor',
        'must be at least 1s (a shorter wait takes files that are still being written), unless intake.readyMarker is set',
      ],
    ]);
    expect(configSchema.safeParse(company({ stableFor: '1s' })).success).toBe(true);
    expect(configSchema.safeParse(company({ stableFor: 0, readyMarker: '.done' })).success).toBe(true);
    expect(configSchema.safeParse(company({ readyMarker: 'done' })).success).toBe(false);
  });
});

describe.runIf(server || process.env.CI)('a file still being written (SFTP, real sshd)', () => {
  it('is not accepted when it grew while being downloaded; the next run takes all 200 lines', async () => {
    if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
    const { dir, cleanup } = await makeTempDir();
    const { company, stores, sub } = sftpCompany(server, 'growing');
    try {
      const store = await stores.fileStore(company);
      await provesNoPartialFile(store, company, join(server.filesRoot, sub, 'inbox'), dir);
    } finally {
      await stores.close();
      await cleanup();
    }
  });
});
