// Cancelling a payment while it waits, through the real use case, store and bank client against
// the sandbox over HTTP, on SQLite and MariaDB: a line not yet sent is withdrawn; a line of a bulk
// at the bank cancels the whole bulk there and, only after the bank's CANC, its other lines go
// again in a new bulk once (no end-to-end id is ever live at the bank twice); ACSP is refused
// with the reason; four eyes; crash points; the ERP's status file says CANC.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cancelPayment, confirmCancellation, type CancelInput } from '../../../jobs/cancel/cancel.js';
import { runStatus } from '../../../jobs/status/poll.js';
import { runStatusReport } from '../../../jobs/status/report.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../../support/mariadb.js';
import { APPROVAL_IBAN, bankBulks, createWorld, type World } from './world.js';

const useMaria = await mariaDbForTests();

/** A world per test; on MariaDB with its own throwaway database (end-to-end ids repeat across tests). */
async function withWorld(
  maria: boolean,
  company: Record<string, unknown>,
  body: (w: World) => Promise<void>,
): Promise<void> {
  const db: ThrowawayDatabase | undefined = maria ? await createThrowawayDatabase() : undefined;
  const w = await createWorld({
    ...(db ? { databaseUrl: db.url } : {}),
    company: { status: { formats: ['pain.002.001.10', 'csv'] }, ...company },
  });
  try {
    await body(w);
  } finally {
    await w.close();
    await db?.drop();
  }
}

const deps = (w: World) => ({ store: w.store, bank: w.bank, logger: w.logger });
const input = (w: World, ref: string, extra: Partial<CancelInput> = {}): CancelInput => ({
  ref,
  reason: 'wrong creditor',
  actor: 'kari',
  origin: 'cli@test',
  companies: [w.company],
  ...extra,
});

/** End-to-end ids in bulks the bank still holds alive (not cancelled), one entry per occurrence. */
async function liveAtBank(w: World): Promise<string[]> {
  return (await bankBulks(w))
    .filter((b) => b.transactionStatus !== 'CANC')
    .flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification))
    .sort();
}

function suite(name: string, maria: boolean): void {
  describe(`cancellation on ${name}`, () => {
    it('withdraws a line not yet sent; a line of a bulk not yet sent is withdrawn and the others re-planned', async () => {
      await withWorld(maria, {}, async (w) => {
        await w.acceptFile('pay-1.csv', [{}, {}]);
        const r = await cancelPayment(deps(w), input(w, 'E2E-1-1'));
        expect(r.outcome).toBe('withdrawn');
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-1'))?.state).toBe('CANC');
        // Idempotent: the same command again says it is done.
        expect((await cancelPayment(deps(w), input(w, 'E2E-1-1'))).outcome).toBe('already');
        await runSubmit(w.deps('s1'), [w.company]);
        expect(await liveAtBank(w)).toEqual(['E2E-1-2']);

        // A line queued in a bulk that was never sent (the bank was down): that bulk is cancelled
        // locally and its other line goes in a new bulk with a new key.
        await w.acceptFile('pay-2.csv', [{}, {}]);
        await w.control('/faults', {
          faults: [{ route: 'POST /api/bulk-payments/*', kind: 'error', status: 503, rate: 1 }],
        });
        await runSubmit(w.deps('s2'), [w.company]);
        await w.control('/faults', undefined, 'DELETE');
        const [pending] = await w.store.bulks.listByFile(
          (await w.store.payments.findByEndToEndId('acme', 'E2E-2-1'))!.fileId,
        );
        expect(pending!.state).toBe('pending');
        const q = await cancelPayment(deps(w), input(w, 'pay-2.csv:2'));
        expect(q.outcome).toBe('withdrawn');
        if (q.outcome !== 'withdrawn') return;
        expect(q.lines.map((l) => l.endToEndId)).toEqual(['E2E-2-2']);
        expect(q.resent.map((l) => l.endToEndId)).toEqual(['E2E-2-1']);
        expect((await w.store.bulks.get(pending!.id))!.state).toBe('cancelled');
        const resent = (await w.store.bulks.get(q.request.resentBulkId!))!;
        expect(resent.idempotencyKey).not.toBe(pending!.idempotencyKey);
        await runSubmit(w.deps('s3'), [w.company]);
        expect(await liveAtBank(w)).toEqual(['E2E-1-2', 'E2E-2-1']);
      });
    }, 60_000);

    it('a line of a bulk at the bank: asks, cancels the bulk, and re-sends the others once after CANC', async () => {
      await withWorld(maria, {}, async (w) => {
        // A pre-approved account: the bulk waits at RCVD for its signing basket.
        await w.acceptFile('pay-1.csv', [
          { debtorIban: APPROVAL_IBAN },
          { debtorIban: APPROVAL_IBAN },
          { debtorIban: APPROVAL_IBAN },
        ]);
        await runSubmit(w.deps('s1'), [w.company]);
        const [first] = await bankBulks(w);
        expect(first!.transactionStatus).toBe('RCVD');

        // Without yes: every line of the bulk is shown, nothing is done.
        const ask = await cancelPayment(deps(w), input(w, 'E2E-1-2'));
        expect(ask.outcome).toBe('confirm');
        if (ask.outcome !== 'confirm') return;
        expect(ask.bulkLines.map((l) => l.endToEndId)).toEqual(['E2E-1-1', 'E2E-1-2', 'E2E-1-3']);
        expect((await bankBulks(w))[0]!.transactionStatus).toBe('RCVD');
        expect(await w.store.audit.list()).toEqual([]);

        const done = await cancelPayment(deps(w), input(w, 'E2E-1-2', { yes: true }));
        expect(done.outcome).toBe('cancelled');
        if (done.outcome !== 'cancelled') return;
        expect(done.resent.map((l) => l.endToEndId)).toEqual(['E2E-1-1', 'E2E-1-3']);
        expect((await bankBulks(w))[0]!.transactionStatus).toBe('CANC');
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-2'))?.state).toBe('CANC');

        // The next submit sends the other two once, under a new key; later submits send nothing.
        await runSubmit(w.deps('s2'), [w.company]);
        await runSubmit(w.deps('s3'), [w.company]);
        const atBank = await bankBulks(w);
        expect(atBank).toHaveLength(2);
        expect(atBank[1]!.idempotencyKey).not.toBe(atBank[0]!.idempotencyKey);
        expect(await liveAtBank(w)).toEqual(['E2E-1-1', 'E2E-1-3']);

        // A late CANC for the old bulk (poll) changes nothing for the re-sent lines.
        await runStatus(w.deps('st'), [w.company]);
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-1'))?.state).toBe('RCVD');
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-1'))?.bulkId).toBe(done.request.resentBulkId);

        // Who and why, hash-chained.
        const trail = await w.store.audit.list();
        expect(trail.map((e) => [e.action, e.actor, e.reason])).toEqual([
          ['payment.cancel.request', 'kari', 'wrong creditor'],
          ['payment.cancel', 'kari', 'wrong creditor'],
        ]);
        expect(trail[1]!.details).toMatchObject({ outcome: 'cancelled', resent: ['E2E-1-1', 'E2E-1-3'] });
        expect((await w.store.audit.verify()).ok).toBe(true);

        // The ERP's status files report the cancelled line CANC, the others still waiting.
        const [report] = await runStatusReport(w.deps('r'), [w.company]);
        const read = (suffix: string) =>
          readFile(
            join(
              w.company.root,
              report!.paths.find((p) => p.endsWith(suffix))!,
            ),
            'utf8',
          );
        expect(await read('.csv')).toMatch(/E2E-1-2;CANC;DS02: cancelled by kari: wrong creditor/);
        const pain002 = await read('.xml');
        expect(pain002).toMatch(/<OrgnlEndToEndId>E2E-1-2<\/OrgnlEndToEndId>\s*<TxSts>CANC<\/TxSts>/);
      });
    }, 60_000);

    it('refuses ACSP and later with the reason, locally and when only the bank knows', async () => {
      await withWorld(maria, {}, async (w) => {
        await w.acceptFile('pay-1.csv', [{}, {}]);
        await runSubmit(w.deps('s1'), [w.company]);
        w.advance(60_000);
        // settle has not polled yet: it still thinks RCVD, the bank says no.
        await expect(cancelPayment(deps(w), input(w, 'E2E-1-1', { yes: true }))).rejects.toMatchObject({
          code: 'ERR_CANCEL_REFUSED',
          message: expect.stringMatching(/the bank refused to cancel bulk .*ACSP and can no longer be cancelled/),
        });
        await runStatus(w.deps('st'), [w.company]);
        await expect(cancelPayment(deps(w), input(w, 'E2E-1-1', { yes: true }))).rejects.toMatchObject({
          code: 'ERR_CANCEL_REFUSED',
          message: expect.stringMatching(
            /E2E-1-1 \(pay-1.csv line 1\) can no longer be cancelled: the bank accepted it for execution \(ACSP\)/,
          ),
        });
        expect(await liveAtBank(w)).toEqual(['E2E-1-1', 'E2E-1-2']);
        expect((await w.store.audit.list()).map((e) => e.action)).toEqual([
          'payment.cancel.request',
          'payment.cancel.refused',
        ]);
        await expect(cancelPayment(deps(w), input(w, 'nothing-like-it'))).rejects.toMatchObject({
          code: 'ERR_CANCEL_NOT_FOUND',
        });
      });
    }, 60_000);

    it('four eyes: a second, different person confirms; both are recorded', async () => {
      await withWorld(maria, { payments: { cancelFourEyes: true } }, async (w) => {
        await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }]);
        await runSubmit(w.deps('s1'), [w.company]);
        const asked = await cancelPayment(deps(w), input(w, 'E2E-1-1'));
        expect(asked.outcome).toBe('awaiting-confirmation');
        if (asked.outcome !== 'awaiting-confirmation') return;
        expect((await bankBulks(w))[0]!.transactionStatus).toBe('RCVD');
        const confirm = { requestId: asked.request.id, origin: 'cli@test', companies: [w.company] };
        // The same person under another spelling of the name is still the same person.
        await expect(
          confirmCancellation(deps(w), { ...confirm, actor: 'Kari', person: ' Kari' }),
        ).rejects.toMatchObject({ code: 'ERR_CANCEL_SAME_PERSON' });
        const done = await confirmCancellation(deps(w), { ...confirm, actor: 'ola', person: 'ola' });
        expect(done.outcome).toBe('cancelled');
        if (done.outcome !== 'cancelled') return;
        expect(done.request.confirmedBy).toBe('ola');
        expect(done.resent).toEqual([]);
        expect((await bankBulks(w))[0]!.transactionStatus).toBe('CANC');
        // Nothing of the file is left to happen: it is completed.
        expect((await w.store.files.listFiles({ company: 'acme' }))[0]!.state).toBe('completed');
        expect((await w.store.audit.list()).map((e) => [e.action, e.actor])).toEqual([
          ['payment.cancel.request', 'kari'],
          ['payment.cancel.confirm', 'ola'],
          ['payment.cancel', 'ola'],
        ]);
      });
    }, 60_000);

    it('a crash after the DELETE is healed: by the next run, or by the CANC status from the bank', async () => {
      await withWorld(maria, {}, async (w) => {
        await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }, { debtorIban: APPROVAL_IBAN }]);
        await w.acceptFile('pay-2.csv', [{ debtorIban: APPROVAL_IBAN }, { debtorIban: APPROVAL_IBAN }]);
        await runSubmit(w.deps('s1'), [w.company]);
        const bankId = async (e2e: string) => {
          const line = await w.store.payments.findByEndToEndId('acme', e2e);
          return (await w.store.bulks.get(line!.bulkId!))!.bankPaymentId!;
        };
        // The request was stored and the DELETE went, then the process died before recording it.
        for (const [e2e, ref] of [
          ['E2E-1-1', 'E2E-1-1'],
          ['E2E-2-1', 'E2E-2-1'],
        ] as const) {
          const [line] = await w.store.cancellations.resolve(ref);
          const r = await w.store.cancellations.create({
            company: 'acme',
            ref,
            paymentIds: [line!.id],
            bulkId: line!.bulkId!,
            reason: 'crash test',
            requestedBy: 'kari',
            channel: 'cli',
          });
          await w.store.cancellations.markBankRequested(r.id);
          await w.bank.cancelBulkPayment(w.company.organisationNumber, await bankId(e2e));
        }
        // pay-1: the person runs the command again.
        const again = await cancelPayment(deps(w), input(w, 'E2E-1-1', { yes: true }));
        expect(again.outcome).toBe('cancelled');
        // pay-2: the status poll brings the bank's CANC first.
        await runStatus(w.deps('st'), [w.company]);
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-2-1'))?.state).toBe('CANC');
        expect((await w.store.payments.findByEndToEndId('acme', 'E2E-2-2'))?.state).toBe('queued');
        await runSubmit(w.deps('s2'), [w.company]);
        await runSubmit(w.deps('s3'), [w.company]);
        expect(await liveAtBank(w)).toEqual(['E2E-1-2', 'E2E-2-2']);
      });
    }, 60_000);
  });
}

suite('SQLite', false);
describe.runIf(useMaria)('MariaDB', () => suite('MariaDB', true));
