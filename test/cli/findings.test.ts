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
      // The new head goes to the log (stdout, journald), outside the database.
      const logged = /"head":"([0-9a-f]{64})"[^\n]*"message":"audit head"/.exec(acked.stdout)?.[1];
      expect(logged).toBeDefined();

      const unknown = await runSettle([...config, 'findings', 'ack', 'F-nope', '--reason', 'x'], { cwd: dir });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^settle: ERR_FINDING_UNKNOWN: /);

      const verified = await runSettle([...config, 'audit', 'verify', '--head', logged!], { cwd: dir });
      expect(verified.code).toBe(0);
      expect(verified.stdout).toContain(`audit trail intact: 1 entries; head hash ${logged!}`);

      // The newest entry deleted: the chain left still holds; only the head kept elsewhere says so.
      const trimmed = await openDatabase({ url });
      const saved = await trimmed.knex('audit_trail').select('*');
      await trimmed.knex('audit_trail').delete();
      expect((await runSettle([...config, 'audit', 'verify'], { cwd: dir })).code).toBe(0);
      const gone = await runSettle([...config, 'audit', 'verify', '--head', logged!], { cwd: dir });
      expect(gone.code).toBe(1);
      expect(gone.stderr).toMatch(
        /^settle: ERR_AUDIT_CHAIN_BROKEN: the head [0-9a-f]{64} kept elsewhere is not in the audit trail/,
      );
      await trimmed.knex('audit_trail').insert(saved);
      await trimmed.close();

      // History edited behind settle's back: verify names the entry and exits 1.
      const edit = await openDatabase({ url });
      await edit.knex('audit_trail').update({ actor: 'someone.else' });
      await edit.close();
      const broken = await runSettle([...config, 'audit', 'verify'], { cwd: dir });
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/^settle: ERR_AUDIT_CHAIN_BROKEN: .*entry 1 was changed/);
    });
  }, 300_000);

  it('confirms and rejects proposed matches only, each an audit entry naming who and why', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'settle.yaml'), `dataDir: ${dir}/data\n`);
      const db = await openDatabase({ url: `sqlite:${join(dir, 'data', 'settle.sqlite')}` });
      await db.migrate();
      const store = createStore(db, new ManualClock('2026-01-08T06:00:00Z'));
      const seen = (id: string, type: string) => ({
        id,
        type,
        factHash: 'h'.repeat(64),
        subject: `booking ${id}`,
        summary: 'Proposed for invoice INV-1003 of Kunde Vest AS by amount, name and date.',
      });
      await store.findings.recordRun('acme', 'night-2', [
        seen('F-0000000000000001', 'match_proposed'),
        seen('F-0000000000000002', 'match_proposed'),
        // A finding about money: its amount is a bigint in the store, a decimal string in JSON.
        { ...seen('F-0000000000000003', 'unexpected_debit'), amount: { minor: 150_000n, currency: 'NOK' } },
      ]);
      await db.close();
      const config = ['--config', join(dir, 'settle.yaml')];
      const env = { env: { SETTLE_ACTOR: 'kari.nordmann' }, cwd: dir };

      const confirmed = await runSettle(
        [...config, 'findings', 'confirm', 'F-0000000000000001', '--reason', 'merger'],
        env,
      );
      expect(confirmed.stderr).toBe('');
      expect(confirmed.stdout).toContain('finding F-0000000000000001 confirmed by kari.nordmann');
      const rejected = await runSettle(
        [...config, 'findings', 'reject', 'F-0000000000000002', '--reason', 'other firm'],
        env,
      );
      expect(rejected.stdout).toContain('the next run leaves the pair unmatched');
      const wrong = await runSettle([...config, 'findings', 'confirm', 'F-0000000000000003', '--reason', 'x'], env);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toMatch(
        /^settle: ERR_USAGE: finding F-0000000000000003 is a unexpected_debit finding, not a proposed match/,
      );

      const audit = await runSettle([...config, 'audit', 'list', '--json'], env);
      const entries = JSON.parse(audit.stdout) as { action: string; actor: string; reason: string }[];
      expect(entries.map((e) => [e.action, e.actor, e.reason])).toEqual([
        ['finding.confirm', 'kari.nordmann', 'merger'],
        ['finding.reject', 'kari.nordmann', 'other firm'],
      ]);
      const listed = await runSettle([...config, 'findings', 'list', '--json'], env);
      expect(listed.stderr).toBe('');
      const json = JSON.parse(listed.stdout) as { id: string; decision: string; amount?: unknown }[];
      expect(json.find((f) => f.id === 'F-0000000000000003')?.amount).toEqual({ currency: 'NOK', amount: '1500.00' });
      const decisions = json.map((f) => [f.id, f.decision]);
      expect(decisions).toEqual(
        expect.arrayContaining([
          ['F-0000000000000001', 'confirmed'],
          ['F-0000000000000002', 'rejected'],
          ['F-0000000000000003', 'open'],
        ]),
      );
    });
  }, 300_000);
});
