// A run stopped between the two steps of a local move (link, then unlink) leaves the payment
// file under its inbox name and its archive name at once. The next run recognises its own
// half-done move by the intent the move wrote before the link (same device and inode in both
// places) and finishes it: the inbox name goes, the file is not read again, and nothing is paid
// twice. A second name nobody meant to move (a link planted in the inbox) is still refused.
import { link, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPickup, type PickupDeps } from '../../jobs/pickup/pickup.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { ManualClock } from '../../src/domain/clock.js';
import type { Database } from '../../src/store/database.js';
import { PaymentRepository } from '../../src/store/payments.js';
import { LocalFileStore } from '../../src/transport/index.js';
import { openPickupWorld } from '../support/pickup-world.js';
import { makeTempDir } from '../support/tmp.js';

const CSV =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name\n' +
  'NO9386011117947,ACME AS,2026-01-07,E2E-1,100.00,NOK,NO0612000000009,Leverandor AS\n' +
  'NO9386011117947,ACME AS,2026-01-07,E2E-2,250.50,NOK,NO0612000000009,Leverandor AS\n';

describe('a move out of the inbox stopped between link and unlink', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let deps: PickupDeps;
  let company: CompanyConfig;
  const clock = new ManualClock('2026-01-05T09:00:00Z');

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    ({ db, deps, company } = await openPickupWorld(dir, clock));
  });
  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  const folder = (sub: string) => readdir(join(company.root, sub)).catch(() => [] as string[]);
  const payments = async () => {
    const files = await deps.ledger.listFiles({ company: 'acme' });
    const repo = new PaymentRepository(db, clock);
    return (await Promise.all(files.map((f) => repo.listByFile(f.id)))).flat().map((p) => p.endToEndId);
  };

  it('is finished by the next run, and the file is paid once', async () => {
    await writeFile(join(company.root, 'inbox', 'pay-1.csv'), CSV);
    // The first run stops for good right after the link: nothing after it runs, like a kill.
    const stopped = new LocalFileStore(company.root);
    let reached: (at: { from: string; to: string }) => void = () => undefined;
    const crashPoint = new Promise<{ from: string; to: string }>((resolve) => (reached = resolve));
    stopped.afterLink = (from, to) => {
      reached({ from, to });
      return new Promise<void>(() => undefined);
    };
    void runPickup({ ...deps, fileStore: () => Promise.resolve(stopped) }, [company]);
    expect(await crashPoint).toEqual({ from: 'inbox/pay-1.csv', to: 'archive/2026-01-05/pay-1.csv' });
    // The state the crash leaves: one file under two names, and the move's intent beside it.
    const inboxName = join(company.root, 'inbox', 'pay-1.csv');
    const archived = join(company.root, 'archive', '2026-01-05', 'pay-1.csv');
    expect((await stat(inboxName)).nlink).toBe(2);
    expect((await stat(inboxName)).ino).toBe((await stat(archived)).ino);
    expect(await payments()).toEqual(['E2E-1', 'E2E-2']);

    const next = await runPickup(deps, [company]);
    expect(next).toEqual([
      { company: 'acme', name: 'pay-1.csv', outcome: 'healed', payments: 0, movedTo: 'archive/2026-01-05/pay-1.csv' },
    ]);
    expect(await folder('inbox')).toEqual([]);
    expect(await folder('archive/2026-01-05')).toEqual(['pay-1.csv']);
    expect((await stat(archived)).nlink).toBe(1);
    expect(await payments()).toEqual(['E2E-1', 'E2E-2']);
    // And the run after that has nothing left to do.
    expect(await runPickup(deps, [company])).toEqual([]);
    expect(await payments()).toEqual(['E2E-1', 'E2E-2']);
  });

  it('does not finish what it did not start: a second name without a fitting intent is refused', async () => {
    const elsewhere = join(dir, 'kept-elsewhere.csv');
    await writeFile(elsewhere, CSV);
    await link(elsewhere, join(company.root, 'inbox', 'planted.csv'));
    // An intent naming another file than the one under this name does not fit: it is only removed.
    await mkdir(join(company.root, 'archive'), { recursive: true });
    await writeFile(join(company.root, 'archive', 'other.csv'), CSV);
    const other = await stat(join(company.root, 'archive', 'other.csv'));
    await writeFile(
      join(company.root, 'inbox', '.planted.csv.settle-move'),
      JSON.stringify({ to: 'archive/other.csv', dev: other.dev, ino: other.ino }),
    );
    const [picked] = await runPickup(deps, [company]);
    expect(picked).toMatchObject({
      name: 'planted.csv',
      outcome: 'refused',
      refused: { code: 'ERR_FILE_NOT_REGULAR' },
    });
    expect(await folder('inbox')).toEqual(['planted.csv']);
    expect((await stat(elsewhere)).nlink).toBe(2);
    expect(await payments()).toEqual([]);
  });
});
