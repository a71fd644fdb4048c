// Reconciliation that finance works through (issue #48), on SQLite and MariaDB: the findings'
// filters in SQL (type, account, age, amount, decision, assigned person), one decision on
// several findings (one audit entry each, all or none), assignment, and period sign-off:
// refused with the list of what needs a person, recorded with balances, totals and signer once
// nothing does, refused when signed already, and reopened (with the reason, audited) by a
// finding that later appears in the period, changes there, or is reopened by a person.
import type { LocalDate } from '../../src/domain/local-date.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOffPeriod } from '../../jobs/reconcile/period-signoff.js';
import { ManualClock } from '../../src/domain/clock.js';
import { parseSignoffPeriod } from '../../src/domain/reconcile/index.js';
import { renderSignoffCsv } from '../../src/formats/report/index.js';
import { createStore, openDatabase, type Database, type FindingSeen, type Store } from '../../src/store/index.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../support/engines.js';
import { rejectsWithCode } from './fixtures.js';

const A = 'NO9386011117947';
const B = 'NO7215031234562';
const seen = (id: string, over: Partial<FindingSeen> = {}): FindingSeen => ({
  id,
  type: 'unexpected_debit',
  factHash: `hash-${id}`,
  subject: `booking tx-${id}`,
  summary: `a debit ${id} settle did not send`,
  accountIban: A,
  amount: { minor: 10_000n, currency: 'NOK' },
  factDate: '2026-01-05',
  ...over,
});
const who = { actor: 'local:kari', origin: 'console@127.0.0.1', today: '2026-12-06' as LocalDate };

const contract: EngineSuite = (name, open) => {
  describe(`findings worked through and periods signed off on ${name}`, () => {
    let target: EngineTarget;
    let db: Database;
    let store: Store;
    const clock = new ManualClock('2026-01-08T08:00:00Z');
    const run = (runId: string, findings: FindingSeen[]) => store.findings.recordRun('acme', runId, findings);
    const ids = async (filter: Parameters<Store['consoleViews']['findings']>[1]) =>
      (await store.consoleViews.findings('acme', filter)).rows.map((f) => f.id).sort();

    beforeAll(async () => {
      target = await open();
      db = await openDatabase({ url: target.url });
      await db.migrate();
      store = createStore(db, clock);
      await run('run-1', [
        seen('F-1'),
        seen('F-2', { accountIban: B, amount: { minor: 250_000_00n, currency: 'NOK' }, factDate: '2026-01-06' }),
        seen('F-3', { type: 'match_proposed', factDate: '2026-01-07' }),
        seen('F-4', { type: 'rejected', factDate: '2026-02-02' }),
      ]);
    });
    afterAll(async () => {
      await db?.close();
      await target?.cleanup();
    });

    it('narrows the findings in SQL by type, account, age, amount, decision and assigned person', async () => {
      expect(await ids({ type: 'match_proposed' })).toEqual(['F-3']);
      expect(await ids({ account: B })).toEqual(['F-2']);
      expect(await ids({ factFrom: '2026-01-06', factTo: '2026-01-07' })).toEqual(['F-2', 'F-3']);
      expect(await ids({ minAmountMinor: 1_000_000n })).toEqual(['F-2']);
      expect(await ids({ decision: 'needs-person' })).toEqual(['F-1', 'F-2', 'F-3', 'F-4']);
      expect(await ids({ decision: 'acknowledged' })).toEqual([]);
      await store.findings.assign('acme', 'F-2', { to: 'kari.nordmann@acme.example', ...who });
      expect(await ids({ assignedTo: 'kari.nordmann@acme.example' })).toEqual(['F-2']);
      expect((await store.findings.find('F-2', 'acme'))[0]).toMatchObject({
        assignedTo: 'kari.nordmann@acme.example',
        assignedBy: 'local:kari',
      });
      expect(await store.audit.list({ subject: { type: 'finding', id: 'acme/F-2' } })).toEqual([
        expect.objectContaining({ action: 'finding.assign', actor: 'local:kari' }),
      ]);
    });

    it('refuses to sign a period while a finding about its days needs a person, naming each', async () => {
      const error = (await signOffPeriod(store, { company: 'acme', period: '2026-01', person: 'kari', ...who }).catch(
        (e: unknown) => e,
      )) as Error;
      expect((error as { code?: string }).code).toBe('ERR_PERIOD_NEEDS_PERSON');
      expect(error.message).toMatch(/3 finding\(s\).*F-1.*F-2.*F-3/);
      expect(error.message).not.toContain('F-4'); // February's
      expect(await store.signoffs.get('acme', '2026-01')).toBeUndefined();
    });

    it('decides several findings at once, one audit entry each, and none when one is unknown', async () => {
      const before = (await store.audit.list()).length;
      await rejectsWithCode(
        store.findings.decideMany('acme', ['F-1', 'F-nope'], { decision: 'acknowledged', reason: 'fees', ...who }),
        'ERR_FINDING_UNKNOWN',
      );
      expect((await store.findings.find('F-1', 'acme'))[0]!.decision).toBe('open');
      expect((await store.audit.list()).length).toBe(before);
      const decided = await store.findings.decideMany('acme', ['F-1', 'F-2'], {
        decision: 'acknowledged',
        reason: 'bank fees, booked by hand',
        ...who,
      });
      expect(decided.map((f) => f.decision)).toEqual(['acknowledged', 'acknowledged']);
      const entries = (await store.audit.list()).slice(before);
      expect(entries.map((e) => [e.action, e.subject.id, e.reason])).toEqual([
        ['finding.acknowledge', 'acme/F-1', 'bank fees, booked by hand'],
        ['finding.acknowledge', 'acme/F-2', 'bank fees, booked by hand'],
      ]);
      await store.findings.decide('acme', 'F-3', { decision: 'confirmed', reason: 'the invoice', ...who });
    });

    it('signs the period off with the balances, the totals by type and the signer, audited; not twice', async () => {
      const signed = await signOffPeriod(store, {
        company: 'acme',
        period: '2026-01',
        person: 'kari.nordmann@acme.example',
        note: 'January closed',
        ...who,
      });
      expect(signed).toMatchObject({ state: 'signed', from: '2026-01-01', to: '2026-01-31', signedBy: 'local:kari' });
      const stored = (await store.signoffs.get('acme', '2026-01'))!;
      expect(stored.totals).toEqual([
        { type: 'match_proposed', findings: 1, decided: 1, amounts: [{ currency: 'NOK', minor: 10_000n }] },
        { type: 'unexpected_debit', findings: 2, decided: 2, amounts: [{ currency: 'NOK', minor: 250_100_00n }] },
      ]);
      expect(stored.signedPerson).toBe('kari.nordmann@acme.example');
      expect(await store.signoffs.list('acme')).toHaveLength(1);
      expect(await store.audit.list({ subject: { type: 'period', id: 'acme/2026-01' } })).toEqual([
        expect.objectContaining({ action: 'period.signoff', actor: 'local:kari', reason: 'January closed' }),
      ]);
      const csv = renderSignoffCsv(stored);
      expect(csv).toContain('period,acme,2026-01,2026-01-01,2026-01-31,signed,local:kari');
      expect(csv).toContain('finding_type,acme,2026-01,2026-01-01,2026-01-31');
      await rejectsWithCode(
        signOffPeriod(store, { company: 'acme', period: '2026-01', person: 'kari', ...who }),
        'ERR_PERIOD_SIGNED',
      );
      // A day of it can be signed too; another company's findings are not its business.
      expect(parseSignoffPeriod('2026-02').to).toBe('2026-02-28');
      await rejectsWithCode(
        signOffPeriod(store, { company: 'acme', period: '2026-13', person: 'k', ...who }),
        'ERR_PERIOD_INVALID',
      );
      // A period is signed once its last day is over in the company's time zone, not while it runs.
      for (const today of ['2026-02-28', '2026-02-10'] as LocalDate[])
        await rejectsWithCode(
          signOffPeriod(store, { company: 'acme', period: '2026-02', person: 'kari', ...who, today }),
          'ERR_PERIOD_NOT_ENDED',
        );
      await rejectsWithCode(
        signOffPeriod(store, {
          company: 'acme',
          period: '2026-02-05',
          person: 'kari',
          ...who,
          today: '2026-02-05' as LocalDate,
        }),
        'ERR_PERIOD_NOT_ENDED',
      );
    });

    it('reopens the signed period when a later run finds something new in it, with the reason, audited', async () => {
      clock.advance(86_400_000);
      await run('run-2', [
        seen('F-1'),
        seen('F-2', { accountIban: B, amount: { minor: 250_000_00n, currency: 'NOK' }, factDate: '2026-01-06' }),
        seen('F-3', { type: 'match_proposed', factDate: '2026-01-07' }),
        seen('F-4', { type: 'rejected', factDate: '2026-02-02' }),
      ]);
      expect((await store.signoffs.get('acme', '2026-01'))!.state).toBe('signed'); // nothing changed
      await run('run-3', [
        seen('F-1'),
        seen('F-2', { accountIban: B, amount: { minor: 250_000_00n, currency: 'NOK' }, factDate: '2026-01-06' }),
        seen('F-3', { type: 'match_proposed', factDate: '2026-01-07' }),
        seen('F-5', { factDate: '2026-01-20' }),
      ]);
      const reopened = (await store.signoffs.get('acme', '2026-01'))!;
      expect(reopened.state).toBe('reopened');
      expect(reopened.reopenedReason).toContain('finding F-5 (unexpected_debit, 2026-01-20) new since the sign-off');
      expect(renderSignoffCsv(reopened)).toContain(',reopened,');
      expect(await store.audit.list({ subject: { type: 'period', id: 'acme/2026-01' } })).toEqual([
        expect.objectContaining({ action: 'period.signoff' }),
        expect.objectContaining({ action: 'period.reopen', actor: 'settle', origin: 'reconcile@run-3' }),
      ]);
      // Decided, it can be signed again; then a person who reopens a finding of it reopens it too.
      await store.findings.decide('acme', 'F-5', { decision: 'acknowledged', reason: 'card fee', ...who });
      await signOffPeriod(store, { company: 'acme', period: '2026-01', person: 'kari', ...who });
      expect((await store.signoffs.get('acme', '2026-01'))!.state).toBe('signed');
      await store.findings.decide('acme', 'F-1', { decision: 'open', reason: 'charged twice', ...who });
      const again = (await store.signoffs.get('acme', '2026-01'))!;
      expect(again).toMatchObject({ state: 'reopened' });
      expect(again.reopenedReason).toContain(
        'finding F-1 (unexpected_debit, 2026-01-05) reopened by local:kari: charged twice',
      );
    });
  });
};

await onBothEngines(contract);
