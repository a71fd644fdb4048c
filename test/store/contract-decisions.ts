// Part of the repository contract (repository-contract.ts): the audit trail of manual decisions
// and the findings a person decides about. Called inside the contract's describe block.
import { expect, it } from 'vitest';
import type { ManualClock } from '../../src/domain/clock.js';
import { AUDIT_GENESIS, type Database, type Store } from '../../src/store/index.js';
import { rejectsWithCode } from './fixtures.js';

export interface DecisionsContext {
  store: Store;
  /** The raw database, only to play someone who edits history behind settle's back. */
  db: Database;
  clock: ManualClock;
}

export function decisionCases(ctx: () => DecisionsContext): void {
  it('chains audit entries by hash, and verify names the first entry whose history was edited or removed', async () => {
    const { store } = ctx();
    const start = (await store.audit.list()).length;
    const entry = (n: number) => ({
      actor: 'kari',
      action: 'bulk.resolve',
      subject: { type: 'bulk', id: `audit-bulk-${n}` },
      reason: `bank confirmed on the phone (${n})`,
      origin: 'cli@finance-pc',
      details: { as: 'at-bank', amountMinor: 12_345n, n },
    });
    const appended = [];
    for (let n = 1; n <= 4; n++) appended.push(await store.audit.append(entry(n)));
    expect(appended[0]!.prevHash).toEqual(start === 0 ? AUDIT_GENESIS : expect.stringMatching(/^[0-9a-f]{64}$/));
    for (let i = 1; i < 4; i++) expect(appended[i]!.prevHash).toBe(appended[i - 1]!.hash);
    expect(await store.audit.list({ subject: { type: 'bulk', id: 'audit-bulk-3' } })).toEqual([
      expect.objectContaining({
        actor: 'kari',
        reason: 'bank confirmed on the phone (3)',
        details: expect.objectContaining({ amountMinor: '12345' }),
      }),
    ]);
    expect(await store.audit.verify()).toMatchObject({ ok: true, headHash: appended[3]!.hash });

    // Someone rewrites the reason of the second entry in the database.
    const knex = ctx().db.knex;
    await knex('audit_trail').where({ seq: appended[1]!.seq }).update({ reason: 'nobody called' });
    expect(await store.audit.verify()).toMatchObject({ ok: false, brokenAt: appended[1]!.seq });
    expect(((await store.audit.verify()) as { problem: string }).problem).toContain('was changed');
    await knex('audit_trail').where({ seq: appended[1]!.seq }).update({ reason: 'bank confirmed on the phone (2)' });
    expect((await store.audit.verify()).ok).toBe(true);

    // Someone removes the third entry: the fourth no longer follows the one before it.
    await knex('audit_trail').where({ seq: appended[2]!.seq }).delete();
    const broken = await store.audit.verify();
    expect(broken).toMatchObject({ ok: false, brokenAt: appended[3]!.seq });
    expect((broken as { problem: string }).problem).toContain('does not follow');
    // The trail is append-only for everyone else too: put it back for the cases after this one.
    await knex('audit_trail').insert({
      seq: appended[2]!.seq,
      at: appended[2]!.at.toISOString(),
      actor: 'kari',
      action: 'bulk.resolve',
      subject_type: 'bulk',
      subject_id: 'audit-bulk-3',
      reason: 'bank confirmed on the phone (3)',
      origin: 'cli@finance-pc',
      details_json: JSON.stringify({ as: 'at-bank', amountMinor: '12345', n: 3 }),
      prev_hash: appended[2]!.prevHash,
      hash: appended[2]!.hash,
    });
    expect((await store.audit.verify()).ok).toBe(true);
  });

  it('appends from concurrent writers as one unbroken line', async () => {
    const { store } = ctx();
    await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        store.audit.append({
          actor: `p${n}`,
          action: 'finding.acknowledge',
          subject: { type: 'finding', id: `c${n}` },
          origin: 'test',
        }),
      ),
    );
    expect((await store.audit.verify()).ok).toBe(true);
  });

  it('records findings per run, keeps decisions across runs, and audits every decision', async () => {
    const { store, clock } = ctx();
    const seen = (id: string, factHash: string) => ({
      id,
      type: 'rejected',
      factHash,
      subject: `payment ${id}`,
      summary: 'Rejected by the bank (AC04 Closed account number) and not sent again.',
    });
    await store.findings.recordRun('acme', 'run-1', [seen('F-1', 'h1'), seen('F-2', 'h2')]);
    expect((await store.findings.list({ company: 'acme' })).map((f) => f.id).sort()).toEqual(['F-1', 'F-2']);

    clock.advance(60_000);
    const acked = await store.findings.decide('acme', 'F-1', {
      decision: 'acknowledged',
      actor: 'kari',
      origin: 'cli@finance-pc',
      reason: 'paid by cheque',
    });
    expect(acked).toMatchObject({ decision: 'acknowledged', decidedHash: 'h1', decidedBy: 'kari' });
    expect([...(await store.findings.decisions('acme', ['F-1', 'F-2'])).keys()]).toEqual(['F-1']);
    const trail = await store.audit.list({ subject: { type: 'finding', id: 'acme/F-1' } });
    expect(trail).toEqual([
      expect.objectContaining({ action: 'finding.acknowledge', actor: 'kari', reason: 'paid by cheque' }),
    ]);

    // The next run no longer sees F-2; F-1 stays with its decision.
    await store.findings.recordRun('acme', 'run-2', [seen('F-1', 'h1')]);
    expect((await store.findings.list({ company: 'acme' })).map((f) => f.id)).toEqual(['F-1']);
    expect((await store.findings.list({ company: 'acme', all: true })).length).toBe(2);
    expect((await store.findings.find('F-1'))[0]).toMatchObject({ decision: 'acknowledged', lastRunId: 'run-2' });

    await store.findings.decide('acme', 'F-1', {
      decision: 'open',
      actor: 'ola',
      origin: 'cli@x',
      reason: 'not paid after all',
    });
    expect((await store.findings.decisions('acme', ['F-1', 'F-2'])).size).toBe(0);
    expect((await store.audit.list({ subject: { type: 'finding', id: 'acme/F-1' } })).map((e) => e.action)).toEqual([
      'finding.acknowledge',
      'finding.reopen',
    ]);
    await rejectsWithCode(
      store.findings.decide('acme', 'F-404', { decision: 'acknowledged', actor: 'x', origin: 'y', reason: 'z' }),
      'ERR_FINDING_UNKNOWN',
    );

    // A run that finds nothing marks what was present absent, decisions kept; one more such run
    // (nothing present, nothing seen) changes nothing.
    await store.findings.recordRun('acme', 'run-3', []);
    expect(await store.findings.list({ company: 'acme' })).toEqual([]);
    await store.findings.recordRun('acme', 'run-4', []);
    const all = await store.findings.list({ company: 'acme', all: true });
    expect(all.map((f) => [f.id, f.present, f.lastRunId, f.decision]).sort()).toEqual([
      ['F-1', false, 'run-2', 'open'],
      ['F-2', false, 'run-1', 'open'],
    ]);
    // And a finding seen again after an empty run is present again, its decision where it was.
    await store.findings.recordRun('acme', 'run-5', [seen('F-2', 'h2')]);
    expect((await store.findings.list({ company: 'acme' })).map((f) => [f.id, f.lastRunId])).toEqual([
      ['F-2', 'run-5'],
    ]);
    expect((await store.audit.verify()).ok).toBe(true);
  });
}
