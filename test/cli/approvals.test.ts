// `settle approvals list`: the waiting signing baskets for the runbook's "approval link" step,
// with the single-use link shown only when asked for.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import { createStore, openDatabase, type Store } from '../../src/store/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const LINK = 'https://bank.example/sca/one-time-7f3a';

/** Stored bulks of one accepted file, one payment each: what a basket points at. */
async function bulks(store: Store, company: string, count: number): Promise<string[]> {
  const payments = Array.from({ length: count }, (_, i) => ({
    debtorIban: 'NO9386011117947',
    debtorName: 'ACME',
    requestedExecutionDate: toLocalDate('2026-01-07'),
    endToEndId: `${company}-${i}`,
    amount: { minor: 100n, currency: 'NOK' },
    creditorIban: 'NO0612000000009',
    creditorName: 'C',
    lineNumber: i + 1,
  }));
  const file = await store.files.recordAcceptedFile(
    {
      company,
      fileName: `${company}.csv`,
      sha256: company.padEnd(64, '0'),
      format: 'csv:generic',
      sizeBytes: 1,
      receivedAt: new Date('2026-01-05T09:00:00Z'),
    },
    payments,
  );
  const lines = await store.payments.listByFile(file.id);
  const created = await store.bulks.createBulks(
    file.id,
    lines.map((l, position) => ({
      position,
      debtorIban: 'NO9386011117947',
      executionDate: toLocalDate('2026-01-07'),
      batchBooking: false,
      paymentIds: [l.id],
    })),
  );
  return created.map((b) => b.id);
}

describe('settle approvals', () => {
  it('lists waiting baskets with their link expiry, prints the link only with --link, and leaves authorised ones out', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'settle.yaml'), `dataDir: ${dir}/data\n`);
      const db = await openDatabase({ url: `sqlite:${join(dir, 'data', 'settle.sqlite')}` });
      await db.migrate();
      const store = createStore(db, new ManualClock('2026-01-05T09:00:00Z'));
      const [b1, b2, b3] = await bulks(store, 'acme', 3);
      const [b4] = await bulks(store, 'globex', 1);
      const waiting = await store.baskets.create('acme', [b1!, b2!]);
      await store.baskets.markCreated(waiting.id, 'bank-basket-1');
      // Far in the future so the test does not depend on today's date.
      await store.baskets.issueLink(waiting.id, LINK, new Date('2099-01-01T00:00:00Z'));
      const done = await store.baskets.create('acme', [b3!]);
      await store.baskets.markCreated(done.id, 'bank-basket-2');
      await store.baskets.markAuthorised(done.id);
      const other = await store.baskets.create('globex', [b4!]);
      await db.close();

      const config = ['--config', join(dir, 'settle.yaml')];
      const listed = await runSettle([...config, 'approvals', 'list'], { cwd: dir });
      expect(listed.stderr).toBe('');
      expect(listed.stdout).toMatch(/^Basket +Company +State +Payments +Totals +Link expires$/m);
      expect(listed.stdout).toMatch(
        new RegExp(
          `^${waiting.id} +acme +link_issued +2 +2\\.00 NOK from NO9386011117947 +2099-01-01 01:00 Europe/Oslo$`,
          'm',
        ),
      );
      expect(listed.stdout).toMatch(
        new RegExp(`^${other.id} +globex +pending +1 +1\\.00 NOK from NO9386011117947 +-$`, 'm'),
      );
      expect(listed.stdout).not.toContain(done.id);
      expect(listed.stdout).not.toContain(LINK);

      const withLink = await runSettle([...config, 'approvals', 'list', '--company', 'acme', '--link', '--json'], {
        cwd: dir,
      });
      const rows = JSON.parse(withLink.stdout) as { basketId: string; scaLink?: string; bulks: number }[];
      expect(rows).toEqual([expect.objectContaining({ basketId: waiting.id, scaLink: LINK, bulks: 2 })]);

      const bad = await runSettle([...config, 'approvals', 'list', '--state', 'approved'], { cwd: dir });
      expect(bad.code).toBe(2);
    });
  });
});
