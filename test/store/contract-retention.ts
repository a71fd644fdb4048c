// Part of the repository contract (repository-contract.ts): retention deletes bookkeeping
// material only when it is past its cutoff and its work is over, trims raw bank JSON to what
// statements need, purges operational records, works in batches smaller than the data, and
// never touches the audit trail.
import { expect, it } from 'vitest';
import type { LocalDate } from '../../src/domain/local-date.js';
import { RetentionRepository, type BookkeepingCutoff, type Database, type PurgeCounts } from '../../src/store/index.js';
import type { ContractContext } from './contract-approval-reporting.js';
import { payment, paymentFile } from './fixtures.js';

const company = 'retention-co';
const NOK = (minor: bigint) => ({ minor, currency: 'NOK' });

export function retentionCases(ctx: () => ContractContext & { db: Database }): void {
  it('purges whole payment files past the cutoff in batches, keeps open and newer ones, and never the audit trail', async () => {
    const { store, db } = ctx();
    const record = async (name: string, receivedAt: string, lines: number) => {
      const file = await store.files.recordAcceptedFile(
        paymentFile(name, { company, receivedAt: new Date(receivedAt) }),
        Array.from({ length: lines }, (_, i) => payment(i + 1, { endToEndId: `${name}-${i + 1}` })),
      );
      return file.id;
    };
    const old = await record('ret-old', '2020-06-01T10:00:00Z', 5);
    const open = await record('ret-open', '2019-03-01T10:00:00Z', 2);
    // 2021-01-01 00:30 in Oslo is still 2020 in UTC: it belongs to fiscal year 2021 and is kept.
    const kept = await record('ret-kept', '2020-12-31T23:30:00Z', 2);
    // The old file's lines went to the bank in one bulk, which refused it: every move of its
    // lines is one row for the bulk's lines, and those go with the file too.
    const oldLines = (await store.payments.listByFile(old)).map((l) => l.id);
    const [oldBulk] = await store.bulks.createBulks(old, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2020-06-05' as LocalDate,
        batchBooking: true,
        paymentIds: oldLines,
      },
    ]);
    await store.bulks.markSending(oldBulk!.id);
    await store.bulks.markRejected(oldBulk!.id, { status: 400 });
    const bulkLinesRows = async () =>
      Number(
        (
          await db.knex('transitions').where({ entity_type: 'bulk_lines', entity_id: oldBulk!.id }).count({ n: '*' })
        )[0]!.n,
      );
    expect(await bulkLinesRows()).toBe(2); // queued, RJCT (sending moves the bulk alone)
    expect((await store.transitions('payment', oldLines[4]!)).map((t) => t.to)).toEqual(['queued', 'RJCT']);
    for (const id of [old, kept]) {
      await store.files.setFileState(id, 'submitted', 'sent', 'submit');
      await store.files.setFileState(id, 'completed', 'all settled', 'poll');
    }
    await store.audit.append({
      actor: 'ola',
      action: 'payment.resolve',
      subject: { type: 'payment_file', id: old },
      origin: 'cli@test',
    });
    const auditBefore = (await store.audit.list()).length;
    const report = (fileId: string) =>
      store.reports.record({
        company,
        kind: 'error',
        subject: { type: 'payment_file', id: fileId },
        name: 'x.errors.txt',
        mediaType: 'text/plain',
        content: 'line 2: refused',
      });
    const [oldReport, keptReport] = [await report(old), await report(kept)];

    const retention = new RetentionRepository(db, { batchSize: 2 });
    const cutoff: BookkeepingCutoff = {
      company,
      day: '2021-01-01',
      start: new Date('2020-12-31T23:00:00Z'),
    };
    const counts: PurgeCounts = {};
    await retention.purgePaymentFiles(cutoff, counts);
    expect(counts).toMatchObject({ payment_files: 1, payments: 5, reports: 1 });
    expect(await store.reports.find(company, oldReport.id)).toBeUndefined();
    expect(await store.reports.find(company, keptReport.id)).toBeDefined();
    expect(counts.transitions).toBeGreaterThanOrEqual(3); // the file's: created, submitted, completed
    expect(await store.files.getFile(old)).toBeUndefined();
    expect(await store.payments.listByFile(old)).toEqual([]);
    expect(await store.transitions('payment_file', old)).toEqual([]);
    expect(await bulkLinesRows()).toBe(0);
    expect((await store.files.getFile(open))?.state).toBe('accepted');
    expect(await store.payments.listByFile(kept)).toHaveLength(2);
    const trail = await store.audit.list();
    expect(trail).toHaveLength(auditBefore);
    expect(trail.some((e) => e.subject.id === old)).toBe(true);
    expect((await store.audit.verify()).ok).toBe(true);

    const again: PurgeCounts = {};
    await retention.purgePaymentFiles(cutoff, again);
    expect(again).toEqual({});
  });

  it("purges a company's reconciliation reports recorded before the cutoff with its statements", async () => {
    const { store, db, clock } = ctx();
    const reports = 'retention-reports';
    const recorded = await store.reports.record({
      company: reports,
      kind: 'reconciliation',
      subject: { type: 'reconcile_run', id: 'run-r' },
      name: 'reconciliation.csv',
      mediaType: 'text/csv',
      content: 'id,type',
    });
    const retention = new RetentionRepository(db, { batchSize: 2 });
    const counts: PurgeCounts = {};
    const before = { company: reports, day: '2000-01-01' };
    await retention.purgeStatements({ ...before, start: new Date(clock.now().getTime() - 1000) }, counts);
    expect(await store.reports.find(reports, recorded.id)).toBeDefined();
    await retention.purgeStatements({ ...before, start: new Date(clock.now().getTime() + 1000) }, counts);
    expect(counts).toMatchObject({ reports: 1 });
    expect(await store.reports.find(reports, recorded.id)).toBeUndefined();
  });

  it("purges the electronic sequence numbers of periods before the cutoff but each account and format's highest, so numbering goes on after it", async () => {
    const { store, db, clock } = ctx();
    const account = 'retention-acc-seq';
    await store.statements.upsertAccount({ id: account, company, iban: 'NO9386011117947', currency: 'NOK' });
    await store.exports.assignSequenceNumbers('camt.053.001.02', account, ['2020-12-30', '2020-12-31']);
    await store.exports.assignSequenceNumbers('csv-statement', account, ['2020-12-31']);
    await store.exports.assignSequenceNumbers('camt.053.001.02', 'another-companys-account', [
      '2020-12-30',
      '2020-12-31',
    ]);
    const counts: PurgeCounts = {};
    const start = new Date(clock.now().getTime() + 1000);
    await new RetentionRepository(db, { batchSize: 1 }).purgeStatements({ company, day: '2021-01-01', start }, counts);
    expect(counts.electronic_sequence_numbers).toBe(1);
    expect([...(await store.exports.sequenceNumbers('camt.053.001.02', account))]).toEqual([['2020-12-31', 2]]);
    expect([...(await store.exports.sequenceNumbers('csv-statement', account))]).toEqual([['2020-12-31', 1]]);
    expect((await store.exports.sequenceNumbers('camt.053.001.02', 'another-companys-account')).size).toBe(2);
    const next = await store.exports.assignSequenceNumbers('camt.053.001.02', account, ['2021-01-02']);
    expect(next.get('2021-01-02')).toBe(3);
  });

  it('purges statements before the cutoff day, trims raw JSON to the statement reference, and purges operational records', async () => {
    const { store, db, clock } = ctx();
    const account = 'retention-acc-1';
    await store.statements.upsertAccount({ id: account, company, iban: 'NO9386011117947', currency: 'NOK' });
    const tx = (id: string, day: string, ref?: string) => ({
      bankTransactionId: id,
      status: 'booked' as const,
      amount: NOK(-100n),
      bookingDate: day as LocalDate,
      raw: {
        transactionId: id,
        counterparty: { name: 'Kari Nordmann', address: 'Storgata 1' },
        ...(ref ? { references: { accountServicerReference: ref } } : {}),
      },
    });
    await store.statements.upsertTransactions(account, [
      tx('T-2020-a', '2020-05-02'),
      tx('T-2020-b', '2020-12-31'),
      tx('T-2020-c', '2020-11-30'),
      tx('T-2021', '2021-01-01', 'ASR-1'),
      tx('T-2021-b', '2021-02-01'),
    ]);
    await store.statements.upsertBalances(account, [
      { type: 'closingBooked', referenceDate: '2020-12-31' as LocalDate, amount: NOK(5n) },
      { type: 'closingBooked', referenceDate: '2021-01-01' as LocalDate, amount: NOK(4n) },
    ]);
    const retention = new RetentionRepository(db, { batchSize: 2 });
    const counts: PurgeCounts = {};
    await retention.purgeStatements({ company, day: '2021-01-01', start: new Date('2020-12-31T23:00:00Z') }, counts);
    expect(counts).toMatchObject({ transactions: 3, balances: 1 });
    const left = await store.statements.listTransactions(account);
    expect(left.map((t) => t.bankTransactionId).sort()).toEqual(['T-2021', 'T-2021-b']);

    const trimmed: PurgeCounts = {};
    await retention.trimRawTransactions(company, new Date(clock.now().getTime() + 1000), trimmed);
    expect(trimmed).toEqual({ 'transactions trimmed': 2 });
    const after = await store.statements.listTransactions(account);
    expect(after.find((t) => t.bankTransactionId === 'T-2021')?.raw).toEqual({
      references: { accountServicerReference: 'ASR-1' },
    });
    expect(after.find((t) => t.bankTransactionId === 'T-2021-b')?.raw).toBeUndefined();
    expect(JSON.stringify(after.map((t) => t.raw))).not.toContain('Kari Nordmann');
    const twice: PurgeCounts = {};
    await retention.trimRawTransactions(company, new Date(clock.now().getTime() + 1000), twice);
    expect(twice).toEqual({});

    await store.dedupe.recordWebhookEvent({ id: 'ret-ev-1', type: 'payment.status', payload: { secret: 'x' } });
    await store.dedupe.markWebhookProcessed('ret-ev-1');
    await store.dedupe.recordWebhookEvent({ id: 'ret-ev-2', type: 'payment.status', payload: {} });
    const run = await store.jobRuns.start('nightly', 'ret-run');
    await store.jobRuns.finish(run.id, 'ok');
    const running = await store.jobRuns.start('nightly', 'ret-run-2');
    const ops: PurgeCounts = {};
    await retention.purgeOperational(new Date(clock.now().getTime() + 1000), ops);
    expect(ops.webhook_events).toBe(1);
    expect(ops.job_runs).toBeGreaterThanOrEqual(1);
    const events = (await db
      .knex('webhook_events')
      .whereIn('event_id', ['ret-ev-1', 'ret-ev-2'])
      .pluck('event_id')) as string[];
    expect(events).toEqual(['ret-ev-2']); // an event still to be processed stays
    expect((await store.jobRuns.get(running.id))?.outcome).toBe('running');
    expect(await store.jobRuns.get(run.id)).toBeUndefined();
  });
}
