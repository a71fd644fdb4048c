// An ERP that exports the same invoices again gives them new end-to-end ids. Through the real
// pickup and submit against the sandbox bank: the re-exported lines are held, not paid, and
// reported located; a person releases one (the next submit sends it) and drops the other
// (never sent, reported to the ERP as cancelled), and the decision keeps who, when and why.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decideHold } from '../../../jobs/controls/held-payments.js';
import { cliActor } from '../../../src/cli/actor.js';
import { runPickup, type PickupDeps } from '../../../jobs/pickup/pickup.js';
import { runStatusReport } from '../../../jobs/status/report.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { bankBulks, createWorld, worldPickupDeps, type World } from './world.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';
const line = (e2e: string, amount: string, text: string, creditor = 'NO0612000000009') =>
  `NO9386011117947,ACME AS,2026-01-09,${e2e},${amount},NOK,${creditor},Leverandor AS,${text}`;
const csv = (...lines: string[]) => [HEADER, ...lines].join('\n') + '\n';

describe('likely duplicates across files', () => {
  let w: World;
  let pickup: PickupDeps;

  beforeEach(async () => {
    w = await createWorld({ company: { intake: { stableFor: '1s' } } });
    await mkdir(join(w.company.root, 'inbox'), { recursive: true });
    pickup = worldPickupDeps(w);
  });
  afterEach(async () => w.close());

  const drop = (name: string, body: string) => writeFile(join(w.company.root, 'inbox', name), body);
  const paidAtBank = async () =>
    (await bankBulks(w)).flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification)).sort();

  it('a file re-exported with new end-to-end ids is held, not paid; released lines are sent, dropped ones never', async () => {
    await drop('invoices-1.csv', csv(line('ERP-1', '100.00', 'Invoice 1001'), line('ERP-2', '250.00', 'Invoice 1002')));
    expect((await runPickup(pickup, [w.company]))[0]).toMatchObject({ outcome: 'accepted', payments: 2 });
    await runSubmit(w.deps('s1'), [w.company]);
    expect(await paidAtBank()).toEqual(['ERP-1', 'ERP-2']);

    // The next day the ERP exports the same two invoices again, with new ids, and one new invoice.
    w.advance(24 * 3600_000);
    await drop(
      'invoices-2.csv',
      csv(
        line('ERP-1-again', '100.00', 'invoice  1001'),
        line('ERP-2-again', '250.00', 'Invoice 1002'),
        line('ERP-3', '250.00', 'Invoice 1003'),
      ),
    );
    const [second] = await runPickup(pickup, [w.company]);
    expect(second).toMatchObject({ outcome: 'accepted', payments: 3, held: 2 });
    // Reported located, with what to do, beside the archived file.
    const report = await readFile(join(w.company.root, second!.report!), 'utf8');
    expect(report).toMatch(
      /row 2:\s+warning LIKELY_DUPLICATE endToEndId: payment "ERP-1-again" \(line 2\) is held, not sent/,
    );
    expect(report).toMatch(/row 3:[\s\S]*"ERP-2-again"[\s\S]*of "invoices-1.csv"/);
    expect(report).toMatch(/settle payments release ERP-1-again --reason/);
    expect(report).not.toMatch(/ERP-3"/);

    await runSubmit(w.deps('s2'), [w.company]);
    expect(await paidAtBank()).toEqual(['ERP-1', 'ERP-2', 'ERP-3']);
    expect((await w.store.held.list({ company: 'acme' })).map((h) => [h.endToEndId, h.lineNumber])).toEqual([
      ['ERP-1-again', 2],
      ['ERP-2-again', 3],
    ]);

    // A person decides: one is a real second payment, the other a duplicate.
    const actor = cliActor({ SETTLE_ACTOR: 'kari.controller' });
    await decideHold(w.store, { ref: 'ERP-2-again', decision: 'released', reason: 'second delivery', ...actor });
    const [dropped] = await w.store.held.find('ERP-1-again');
    await decideHold(w.store, { ref: dropped!.id, decision: 'dropped', reason: 'ERP re-export', ...actor });
    await expect(
      decideHold(w.store, { ref: 'ERP-1-again', decision: 'released', reason: 'changed my mind', ...actor }),
    ).rejects.toMatchObject({ code: 'ERR_PAYMENT_NOT_HELD' });
    await expect(
      decideHold(w.store, { ref: 'ERP-3', decision: 'released', reason: 'not held', ...actor }),
    ).rejects.toMatchObject({ code: 'ERR_PAYMENT_NOT_HELD' });
    // Both decisions, and only they, are in the hash-chained audit trail with who and why.
    const trail = await w.store.audit.list();
    expect(trail.map((e) => [e.action, e.actor, e.reason, e.details?.endToEndId])).toEqual([
      ['payment.release', 'kari.controller', 'second delivery', 'ERP-2-again'],
      ['payment.drop', 'kari.controller', 'ERP re-export', 'ERP-1-again'],
    ]);
    expect((await w.store.audit.verify()).ok).toBe(true);

    await runSubmit(w.deps('s3'), [w.company]);
    expect(await paidAtBank()).toEqual(['ERP-1', 'ERP-2', 'ERP-2-again', 'ERP-3']);
    await runSubmit(w.deps('s4'), [w.company]);
    expect(await paidAtBank()).toEqual(['ERP-1', 'ERP-2', 'ERP-2-again', 'ERP-3']);

    const decided = await w.store.held.list({ company: 'acme', all: true });
    expect(decided.map((h) => [h.endToEndId, h.decision, h.decidedBy, h.decisionReason])).toEqual([
      ['ERP-1-again', 'dropped', 'kari.controller', 'ERP re-export'],
      ['ERP-2-again', 'released', 'kari.controller', 'second delivery'],
    ]);
    expect(decided.every((h) => h.decidedAt?.getTime() === w.clock.now().getTime())).toBe(true);
    expect(await w.store.held.list({ company: 'acme' })).toEqual([]);

    // The ERP's status file shows the dropped line cancelled, as a duplicate.
    const reports = await runStatusReport(w.deps('r1'), [w.company]);
    const forSecond = reports.find((r) => r.originalFile === 'invoices-2.csv');
    const statusCsv = forSecond!.paths.find((p) => p.endsWith('.csv'))!;
    const rows = (await readFile(join(w.company.root, statusCsv), 'utf8')).split('\n');
    expect(rows.find((r) => r.includes('ERP-1-again'))).toMatch(
      /CANC;SETTLE-DROPPED-DUPLICATE: dropped as a duplicate by kari\.controller/,
    );
  });

  it('a file that lists one invoice twice pays it once and holds the repeat, whatever its end-to-end id', async () => {
    // Two lines to one creditor, 4 200 NOK for "Faktura 7001" each, with different end-to-end
    // ids: before, both were sent (the hold compared with other files only).
    await drop(
      'run-7001.csv',
      csv(
        line('RUN-1', '4200.00', 'Faktura 7001'),
        line('RUN-2', '980.00', 'Faktura 7002'),
        line('RUN-3', '4200.00', 'faktura  7001'),
      ),
    );
    const [picked] = await runPickup(pickup, [w.company]);
    expect(picked).toMatchObject({ outcome: 'accepted', payments: 3, held: 1 });
    const report = await readFile(join(w.company.root, picked!.report!), 'utf8');
    expect(report).toMatch(
      /row 4:[\s\S]*"RUN-3"[\s\S]*is held, not sent[\s\S]*as line 2 \(end-to-end id RUN-1\) of this file/,
    );

    await runSubmit(w.deps('s1'), [w.company]);
    await runSubmit(w.deps('s2'), [w.company]);
    expect(await paidAtBank()).toEqual(['RUN-1', 'RUN-2']);
    const [held] = await w.store.held.list({ company: 'acme' });
    expect(held).toMatchObject({ endToEndId: 'RUN-3', lineNumber: 4, fileName: 'run-7001.csv' });
    const first = await w.store.payments.findByEndToEndId('acme', 'RUN-1');
    expect(held!.matchedPaymentId).toBe(first!.id);
  });

  it('a repeat is found across the batches a long file is stored in', async () => {
    const lines = Array.from({ length: 1205 }, (_, i) => line(`L-${i}`, `${i + 1}.00`, `Invoice ${i}`));
    lines.push(line('L-again', '3.00', 'Invoice 2'));
    await drop('long.csv', csv(...lines));
    const [picked] = await runPickup(pickup, [w.company]);
    expect(picked).toMatchObject({ outcome: 'accepted', payments: 1206, held: 1 });
    const [held] = await w.store.held.list({ company: 'acme' });
    expect(held).toMatchObject({ endToEndId: 'L-again', lineNumber: 1207 });
    const first = await w.store.payments.findByEndToEndId('acme', 'L-2');
    expect(held!.matchedPaymentId).toBe(first!.id);
  });

  it('a payment outside the window, to another account, of another amount or for another reference is not held', async () => {
    await drop('a.csv', csv(line('A-1', '100.00', 'Invoice 1'), line('A-2', '100.00', 'Invoice 2')));
    await runPickup(pickup, [w.company]);
    await drop(
      'b.csv',
      csv(
        line('B-1', '100.00', 'Invoice 1', 'NO8330001234567'),
        line('B-2', '100.01', 'Invoice 2'),
        line('B-3', '100.00', 'Invoice 3'),
      ),
    );
    const [other] = await runPickup(pickup, [w.company]);
    expect(other).toMatchObject({ outcome: 'accepted', payments: 3 });
    expect(other?.held).toBeUndefined();
    w.advance(15 * 24 * 3600_000);
    await drop('c.csv', csv(line('C-1', '100.00', 'Invoice 1').replace('2026-01-09', '2026-01-23')));
    const [late] = await runPickup(pickup, [w.company]);
    expect(late).toMatchObject({ outcome: 'accepted', payments: 1 });
    expect(late?.held).toBeUndefined();
    expect(await w.store.held.list({ all: true })).toEqual([]);
  });
});
