// Promise: an SFTP inbox holding more payment files than one run takes (intake.maxFilesPerRun)
// is worked through in a stable order. Each run takes the first files by name up to the cap,
// reports that the rest wait (one line naming the first of them and how many), and the next run
// takes the rest; every file is taken once. Against a real OpenSSH sshd, with a cap of 4.
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runPickup } from '../../jobs/pickup/pickup.js';
import { openDatabase } from '../../src/store/database.js';
import { sftpCompany, sftpPickupDeps } from '../support/sftp-company.js';
import { startSshdForTests } from '../support/sshd.js';
import { makeTempDir } from '../support/tmp.js';

const { server, reason } = await startSshdForTests();
afterAll(async () => server?.stop());

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';
const CAP = 4;
const FILES = 10;

describe.runIf(server || process.env.CI)('security: an SFTP inbox over intake.maxFilesPerRun (real sshd)', () => {
  it('takes the first files by name up to the cap, says how many wait, and takes the rest next run', async () => {
    if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
    const { dir, cleanup } = await makeTempDir();
    const db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
    const { company, stores } = sftpCompany(server, 'cap', { stableFor: '1s', maxFilesPerRun: CAP });
    const inbox = join(server.filesRoot, company.folders.inbox);
    try {
      const store = await stores.fileStore(company);
      await store.ensureDir(company.folders.inbox);
      // Written in reverse, so the server's listing order is not the order of the names.
      const names = Array.from({ length: FILES }, (_, n) => `pay-${String(n).padStart(2, '0')}.csv`);
      for (const [n, name] of [...names.entries()].reverse())
        await writeFile(
          join(inbox, name),
          `${HEADER}\nNO9386011117947,ACME AS,2026-01-07,E2E-${n},${n + 1}.00,NOK,NO0612000000009,Leverandor AS\n`,
        );
      const deps = await sftpPickupDeps(db, dir, store);
      const { ledger } = deps;

      const first = await runPickup(deps, [company]);
      expect(first[0]).toMatchObject({ name: 'pay-04.csv', outcome: 'waiting', payments: 0 });
      expect(first[0]!.waitingFor).toContain(`first ${CAP} files by name (intake.maxFilesPerRun); 6 file(s) wait`);
      expect(first.slice(1).map((p) => [p.name, p.outcome])).toEqual(names.slice(0, CAP).map((n) => [n, 'accepted']));
      expect((await readdir(inbox)).sort()).toEqual(names.slice(CAP));

      const second = await runPickup(deps, [company]);
      expect(second[0]).toMatchObject({ name: 'pay-08.csv', outcome: 'waiting' });
      expect(second[0]!.waitingFor).toContain('2 file(s) wait');
      expect(second.slice(1).map((p) => p.name)).toEqual(names.slice(CAP, 2 * CAP));

      const third = await runPickup(deps, [company]);
      expect(third.map((p) => [p.name, p.outcome])).toEqual(names.slice(2 * CAP).map((n) => [n, 'accepted']));
      expect(await readdir(inbox)).toEqual([]);
      expect(await runPickup(deps, [company])).toEqual([]);
      // Every file once, each with its one payment.
      const taken = await ledger.listFiles({ company: 'acme' });
      expect(taken.map((f) => f.fileName).sort()).toEqual(names);
      expect(taken.every((f) => f.acceptedCount === 1)).toBe(true);
    } finally {
      await stores.close();
      await db.close();
      await rm(inbox, { recursive: true, force: true });
      await cleanup();
    }
  }, 120_000);
});
