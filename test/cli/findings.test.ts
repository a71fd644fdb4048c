// `settle findings` and `settle audit` as a finance controller uses them: list what needs a
// person, acknowledge one with a reason, and check that the audit trail holds.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { createStore, openDatabase } from '../../src/store/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

describe('settle findings and settle audit', () => {
  it('lists a finding, acknowledges it as SETTLE_ACTOR with a reason, and verifies the trail', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'settle.yaml'), `dataDir: ${dir}/data\n`);
      const url = `sqlite:${join(dir, 'data', 'settle.sqlite')}`;
      const db = await openDatabase({ url });
      await db.migrate();
      const store = createStore(db, new ManualClock('2026-01-08T06:00:00Z'));
      await store.findings.recordRun('acme', 'night-2', [
        {
          id: 'F-00aa11bb22cc33dd',
          type: 'unexpected_debit',
          factHash: 'h'.repeat(64),
          subject: 'booking t-fee',
          summary: 'A debit of 7.77 NOK booked on 2026-01-07 matches no payment settle sent.',
        },
      ]);
      await db.close();
      const config = ['--config', join(dir, 'settle.yaml')];

      const listed = await runSettle([...config, 'findings', 'list'], { cwd: dir });
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain('F-00aa11bb22cc33dd  acme  unexpected_debit  needs a person');

      const acked = await runSettle(
        [...config, 'findings', 'ack', 'F-00aa11bb22cc33dd', '--reason', 'monthly account fee'],
        { cwd: dir, env: { SETTLE_ACTOR: 'kari.nordmann' } },
      );
      expect(acked.stderr).toBe('');
      expect(acked.stdout).toContain('finding F-00aa11bb22cc33dd acknowledged by kari.nordmann');

      const unknown = await runSettle([...config, 'findings', 'ack', 'F-nope', '--reason', 'x'], { cwd: dir });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^settle: ERR_FINDING_UNKNOWN: /);

      const verified = await runSettle([...config, 'audit', 'verify'], { cwd: dir });
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain('audit trail intact: 1 entries');

      // History edited behind settle's back: verify names the entry and exits 1.
      const edit = await openDatabase({ url });
      await edit.knex('audit_trail').update({ actor: 'someone.else' });
      await edit.close();
      const broken = await runSettle([...config, 'audit', 'verify'], { cwd: dir });
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/^settle: ERR_AUDIT_CHAIN_BROKEN: .*entry 1 was changed/);
    });
  }, 300_000);
});
