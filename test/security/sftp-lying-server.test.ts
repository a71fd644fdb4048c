// Promise: an SFTP server that lies about a file gets nothing paid and cannot fill memory or
// disk. Its listing says 10 bytes and it sends 1 MB, or bytes without end; it says 1 MB and
// sends 10; it lists a folder as a file, or a file whose reads fail as a folder's do; it gives
// a time a day ahead. Each such file is refused with a located error (the server, the path,
// what it said and what came), left where it is and reported in the run's result, while the
// honest file beside them is taken. The server is built on ssh2's Server (the real sshd cannot
// lie), reached through the configuration path an operator uses, with its host key pinned.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPickup } from '../../jobs/pickup/pickup.js';
import { describeOutcome, pickupOutcome } from '../../jobs/nightly/outcome.js';
import { isSettleError } from '../../src/domain/errors.js';
import { openDatabase } from '../../src/store/database.js';
import { startLyingSftpServer, type LyingSftpServer } from '../support/lying-sftp-server.js';
import { sftpCompany, sftpPickupDeps } from '../support/sftp-company.js';
import { makeTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const payment = (e2e: string) =>
  `${HEADER}\nNO9386011117947,ACME AS,2026-01-07,${e2e},10.00,NOK,NO0612000000009,Leverandor AS\n`;
const MB = 1024 * 1024;

let server: LyingSftpServer;
beforeAll(async () => {
  server = await startLyingSftpServer();
});
afterAll(async () => server.stop());

function company() {
  return sftpCompany({ ...server, username: 'settle', filesRoot: '/files' }, 'lies', { stableFor: '1s' });
}

describe('security: an SFTP server that lies about sizes and attributes', () => {
  it('refuses each lying file with a located error, takes the honest one, and memory stays bounded', async () => {
    const { dir, cleanup } = await makeTempDir();
    const db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
    const { company: acme, stores, sub } = company();
    const inbox = `/files/${sub}/inbox`;
    try {
      server.put(`${inbox}/good.csv`, payment('E2E-GOOD'));
      server.lie(`${inbox}/says-10-sends-1mb.csv`, { size: 10, sends: Buffer.alloc(MB, 0x42) });
      server.lie(`${inbox}/says-10-sends-forever.csv`, { size: 10, sends: 'endless' });
      const honest = Buffer.from(payment('E2E-SHORT'));
      server.lie(`${inbox}/says-1mb-sends-little.csv`, { size: MB, sends: honest });
      server.lie(`${inbox}/folder.csv`, { size: honest.length, lstatKind: 'directory', sends: honest });
      server.lie(`${inbox}/reads-as-folder.csv`, { size: 4096, sends: 'read-fails' });
      server.lie(`${inbox}/from-tomorrow.csv`, {
        size: honest.length,
        mtime: Math.floor(Date.now() / 1000) + 86_400,
        sends: honest,
      });
      const deps = await sftpPickupDeps(db, dir, (c) => stores.fileStore(c));
      const { ledger } = deps;
      const heapBefore = process.memoryUsage().heapUsed;
      const picked = await runPickup(deps, [acme]);
      const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
      const where = `sftp://settle@127.0.0.1:${server.port}/files/${sub}/inbox`;
      const outcome = Object.fromEntries(
        picked.map((p) => [p.name, [p.outcome, p.refused?.code ?? null, p.refused?.message ?? null]]),
      );
      expect(outcome).toEqual({
        'good.csv': ['accepted', null, null],
        'says-10-sends-1mb.csv': [
          'refused',
          'ERR_FILE_NOT_AS_LISTED',
          `${where}/says-10-sends-1mb.csv is listed with 10 byte(s), before and after reading it, but more than 10 byte(s) came: nothing of it was taken. Ask whoever runs the server to check it; the file stays in the inbox.`,
        ],
        'says-10-sends-forever.csv': [
          'refused',
          'ERR_FILE_NOT_AS_LISTED',
          expect.stringContaining('more than 10 byte(s) came'),
        ],
        'says-1mb-sends-little.csv': [
          'refused',
          'ERR_FILE_NOT_AS_LISTED',
          expect.stringContaining(
            `says-1mb-sends-little.csv is listed with ${MB} byte(s), before and after reading it, but ${honest.length} byte(s) came`,
          ),
        ],
        'folder.csv': [
          'refused',
          'ERR_FILE_NOT_REGULAR',
          `${where}/folder.csv is a folder: settle reads regular files only and left it in place. Put the file itself there, not a link or anything else.`,
        ],
        'reads-as-folder.csv': [
          'refused',
          'ERR_FILE_IO',
          expect.stringContaining(`read failed on ${where}/reads-as-folder.csv: Is a directory`),
        ],
        'from-tomorrow.csv': [
          'refused',
          'ERR_FILE_NOT_AS_LISTED',
          expect.stringMatching(
            new RegExp(
              `^${where.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/from-tomorrow\\.csv has the time \\S+, 14\\d\\d minute\\(s\\) ahead of settle's clock`,
            ),
          ),
        ],
      });
      // Nothing of a lying file reached the ledger; the honest file was paid once.
      expect((await ledger.listFiles({ company: 'acme' })).map((f) => [f.fileName, f.acceptedCount])).toEqual([
        ['good.csv', 1],
      ]);
      // Every lying file is still in the inbox; only the honest one was archived.
      expect(server.list(inbox)).toEqual([
        'folder.csv',
        'from-tomorrow.csv',
        'reads-as-folder.csv',
        'says-10-sends-1mb.csv',
        'says-10-sends-forever.csv',
        'says-1mb-sends-little.csv',
      ]);
      // Reading stopped a chunk or so past the listed size: the endless file sent little.
      expect(server.bytesSent()).toBeLessThan(4 * MB);
      expect(heapGrowth).toBeLessThan(64 * MB);
      // The run's summary names each refused file with its code.
      expect(describeOutcome(pickupOutcome(picked), 'en')).toContain('6 refused, left in the inbox unread: ');
      expect(describeOutcome(pickupOutcome(picked), 'en')).toContain(
        'says-10-sends-forever.csv (ERR_FILE_NOT_AS_LISTED)',
      );
    } finally {
      await stores.close();
      await db.close();
      await cleanup();
    }
  }, 30_000);

  it('a whole-file read of a file that sends more than its size stops there with ERR_FILE_NOT_AS_LISTED', async () => {
    const { company: acme, stores, sub } = company();
    try {
      server.lie(`/files/${sub}/inbox/endless.txt`, { size: 10, sends: 'endless' });
      const store = await stores.fileStore(acme);
      const before = server.bytesSent();
      const error = await store.readBuffer(`${sub}/inbox/endless.txt`).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isSettleError(error) ? error.code : error).toBe('ERR_FILE_NOT_AS_LISTED');
      expect(server.bytesSent() - before).toBeLessThan(4 * MB);
    } finally {
      await stores.close();
    }
  });
});
