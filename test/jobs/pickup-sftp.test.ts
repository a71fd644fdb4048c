// The pickup job against a real OpenSSH sshd: the company's folders are on the SFTP server,
// reached through the same configuration path an operator uses (transports + pinned host key).
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

describe.runIf(server || process.env.CI)('the pickup job over SFTP', () => {
  it('takes files from an SFTP inbox, archives the good one and rejects the bad one with a report', async () => {
    if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
    const { dir, cleanup } = await makeTempDir();
    const db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
    const { company, stores, sub } = sftpCompany(server, 'pickup', { stableFor: '1s' });
    const { folders } = company;
    try {
      const store = await stores.fileStore(company);
      await store.ensureDir(folders.inbox);
      await store.writeAtomic(
        `${folders.inbox}/good.csv`,
        `${HEADER}\nNO9386011117947,ACME AS,2026-01-07,E1,10.00,NOK,NO0612000000009,Leverandor AS\n`,
      );
      await store.writeAtomic(
        `${folders.inbox}/bad.csv`,
        `${HEADER}\nNO9386011117947,ACME AS,2026-01-07,E2,10.00,NOK,NO0612000000008,Leverandor AS\n`,
      );
      const deps = await sftpPickupDeps(db, dir, (c) => stores.fileStore(c));
      const picked = await runPickup(deps, [company]);
      expect(picked.map((p) => [p.name, p.outcome, p.movedTo])).toEqual([
        ['bad.csv', 'rejected', `${sub}/error/bad.csv`],
        ['good.csv', 'accepted', `${sub}/archive/2026-01-05/good.csv`],
      ]);
      expect((await store.list(folders.inbox)).map((e) => e.name)).toEqual([]);
      expect((await store.list(folders.error)).map((e) => e.name)).toEqual([
        'bad.csv',
        'bad.csv.errors.html',
        'bad.csv.errors.json',
        'bad.csv.errors.txt',
      ]);
      expect((await store.readBuffer(`${folders.error}/bad.csv.errors.txt`)).toString()).toMatch(/IBAN/);
      // Who dropped each file: the SFTP account that uploaded it, as the server names it.
      const files = await deps.ledger.listFiles({ company: company.id });
      expect(files.map((f) => [f.fileName, f.droppedBy]).sort()).toEqual([
        ['bad.csv', server.username],
        ['good.csv', server.username],
      ]);
    } finally {
      await stores.close();
      await db.close();
      await cleanup();
    }
  });
});
