// The operator's tools for a bulk whose outcome is unknown (docs/runbook.md): list it, then
// record what the bank confirmed — nothing is ever sent again.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import { createStore, openDatabase } from '../../src/store/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

describe('settle payments', () => {
  it('lists an unknown bulk and closes it as not paid, with the reason in the transition log', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'settle.yaml'), `dataDir: ${dir}/data\n`);
      const db = await openDatabase({ url: `sqlite:${join(dir, 'data', 'settle.sqlite')}` });
      await db.migrate();
      const store = createStore(db, new ManualClock('2026-01-05T09:00:00Z'));
      const file = await store.files.recordAcceptedFile(
        {
          company: 'acme',
          fileName: 'pay.csv',
          sha256: 'b'.repeat(64),
          format: 'csv:generic',
          sizeBytes: 1,
          receivedAt: new Date('2026-01-05T09:00:00Z'),
        },
        [
          {
            debtorIban: 'NO9386011117947',
            debtorName: 'ACME',
            requestedExecutionDate: toLocalDate('2026-01-07'),
            endToEndId: 'E1',
            amount: { minor: 100n, currency: 'NOK' },
            creditorIban: 'NO0612000000009',
            creditorName: 'C',
            lineNumber: 1,
          },
        ],
      );
      const lines = await store.payments.listByFile(file.id);
      const [bulk] = await store.bulks.createBulks(file.id, [
        {
          position: 0,
          debtorIban: 'NO9386011117947',
          executionDate: toLocalDate('2026-01-07'),
          batchBooking: false,
          paymentIds: lines.map((l) => l.id),
        },
      ]);
      await store.bulks.markSending(bulk!.id);
      await store.bulks.markUnknown(bulk!.id, { code: 'ERR_BANK_TIMEOUT' });
      await db.close();

      const config = ['--config', join(dir, 'settle.yaml')];
      const listed = await runSettle([...config, 'payments', 'list'], { cwd: dir });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(
        new RegExp(`^${bulk!.id} +acme +unknown +NO9386011117947 +2026-01-07 +1 +1\\.00 NOK +-$`, 'm'),
      );

      const resolved = await runSettle(
        [
          ...config,
          'payments',
          'resolve',
          bulk!.id,
          '--as',
          'not-at-bank',
          '--reason',
          'bank support (ticket 42) confirmed no such payment',
        ],
        { cwd: dir, env: { SETTLE_ACTOR: 'kari.nordmann' } },
      );
      expect(resolved.stderr).toBe('');
      expect(resolved.stdout).toContain('closed as not paid');
      const again = await runSettle(
        [...config, 'payments', 'resolve', bulk!.id, '--as', 'not-at-bank', '--reason', 'twice'],
        { cwd: dir },
      );
      expect(again.code).toBe(2);
      expect(again.stderr).toMatch(/^settle: ERR_PAYMENT_NOT_UNRESOLVED: /);

      const check = await openDatabase({ url: `sqlite:${join(dir, 'data', 'settle.sqlite')}` });
      try {
        const after = createStore(check, new ManualClock());
        expect((await after.bulks.get(bulk!.id))?.state).toBe('rejected');
        expect((await after.payments.listByFile(file.id))[0]?.state).toBe('RJCT');
        const causes = (await after.transitions('bulk', bulk!.id)).map((t) => t.cause);
        expect(causes.at(-1)).toBe('resolved by a person: bank support (ticket 42) confirmed no such payment');
        // The decision is in the audit trail: who, what, why and from where.
        expect(await after.audit.list({ subject: { type: 'bulk', id: bulk!.id } })).toEqual([
          expect.objectContaining({
            actor: 'kari.nordmann',
            action: 'bulk.resolve',
            reason: 'bank support (ticket 42) confirmed no such payment',
            origin: expect.stringMatching(/^cli@/),
            details: expect.objectContaining({ as: 'not-at-bank', before: 'unknown', company: 'acme' }),
          }),
        ]);
        expect((await after.audit.verify()).ok).toBe(true);
      } finally {
        await check.close();
      }
    });
  });
});
