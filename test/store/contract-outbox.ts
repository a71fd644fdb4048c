// Part of the repository contract (repository-contract.ts): the bulk outbox and bank status
// updates, including duplicates, out-of-order events and events that overtake our own writes.
import { expect, it } from 'vitest';
import { bulkIdempotencyKey, companyBulkIdempotencyKey, type TransitionResult } from '../../src/store/index.js';
import type { ContractContext } from './contract-approval-reporting.js';
import { bulkOfLines, firstBulkPlan, oneLineBulk, payment, paymentFile, rejectsWithCode } from './fixtures.js';
import { recordSent } from '../../jobs/submit/index.js';

export function outboxCases(ctx: () => ContractContext): void {
  it('commits bulks with deterministic idempotency keys before sending, and creating them twice is a no-op', async () => {
    const { store } = ctx();
    const file = paymentFile('outbox-1');
    const stored = await store.files.recordAcceptedFile(
      file,
      [1, 2, 3].map((n) => payment(n, { endToEndId: `OB-${n}` })),
    );
    const ids = (await store.payments.listByFile(stored.id)).map((p) => p.id);
    const plans = [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as never,
        batchBooking: true,
        paymentIds: ids.slice(0, 2),
      },
      {
        position: 1,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as never,
        batchBooking: true,
        paymentIds: ids.slice(2),
      },
    ];
    const bulks = await store.bulks.createBulks(stored.id, plans);
    const again = await store.bulks.createBulks(stored.id, plans);
    expect(again.map((b) => b.id)).toEqual(bulks.map((b) => b.id));
    expect(bulks.map((b) => b.idempotencyKey)).toEqual([
      bulkIdempotencyKey(file.sha256, 0),
      bulkIdempotencyKey(file.sha256, 1),
    ]);
    expect(bulks[0]).toMatchObject({ state: 'pending', lineCount: 2, totals: { NOK: (12_345n * 3n).toString() } });
    expect((await store.payments.listByBulk(bulks[0]!.id)).map((p) => p.state)).toEqual(['queued', 'queued']);
    // A line already in a bulk can never join a second one (it would be paid twice).
    await rejectsWithCode(
      store.bulks.createBulks(stored.id, [{ ...plans[0]!, position: 2, paymentIds: [ids[0]!] }]),
      'ERR_DB_BULK_PLAN_INVALID',
    );
    expect(await store.bulks.listByFile(stored.id)).toHaveLength(2);
  });

  it("gives two companies' byte-identical files keys of their own: the first keeps the file's, the second gets its company's", async () => {
    const { store } = ctx();
    // The same bytes dropped by two companies of a bureau: one subscription, where one key is one payment.
    const bulkOf = async (company: string) => {
      const stored = await store.files.recordAcceptedFile(paymentFile('same-bytes', { company }), [
        payment(1, { endToEndId: 'FEE-1' }),
      ]);
      const [line] = await store.payments.listByFile(stored.id);
      const plan = firstBulkPlan([line!.id], true);
      return { stored, bulks: await store.bulks.createBulks(stored.id, [plan]), plan };
    };
    const first = await bulkOf('acme');
    const second = await bulkOf('other');
    expect(second.stored.sha256).toBe(first.stored.sha256);
    expect(first.bulks[0]!.idempotencyKey).toBe(bulkIdempotencyKey(first.stored.sha256, 0));
    expect(second.bulks[0]!.idempotencyKey).toBe(companyBulkIdempotencyKey('other', first.stored.sha256, 0));
    // Planned again, each keeps its own.
    expect((await store.bulks.createBulks(second.stored.id, [second.plan]))[0]!.idempotencyKey).toBe(
      second.bulks[0]!.idempotencyKey,
    );
  });

  it('refuses a plan naming a line of another file, an unknown line or one line twice, and stores nothing of it', async () => {
    const { store } = ctx();
    const stored = await store.files.recordAcceptedFile(paymentFile('refused-plan'), [
      payment(1, { endToEndId: 'RP-1' }),
      payment(2, { endToEndId: 'RP-2' }),
    ]);
    const other = await store.files.recordAcceptedFile(paymentFile('refused-plan-other'), [
      payment(1, { endToEndId: 'RP-O-1' }),
    ]);
    const [mine1, mine2] = (await store.payments.listByFile(stored.id)).map((p) => p.id);
    const [theirs] = (await store.payments.listByFile(other.id)).map((p) => p.id);
    const plan = (paymentIds: string[]) => ({
      position: 0,
      debtorIban: 'NO9386011117947',
      executionDate: '2026-01-06' as never,
      batchBooking: true,
      paymentIds,
    });
    for (const paymentIds of [
      [mine1!, theirs!],
      [mine1!, 'no-such-payment'],
      [mine1!, mine2!, mine1!],
    ]) {
      await expect(store.bulks.createBulks(stored.id, [plan(paymentIds)])).rejects.toMatchObject({
        code: 'ERR_DB_BULK_PLAN_INVALID',
      });
      // The refused plan's UPDATE of the lines that could join is rolled back with it.
      expect(await store.bulks.listByFile(stored.id)).toEqual([]);
      expect((await store.payments.listByFile(stored.id)).map((p) => [p.state, p.bulkId])).toEqual([
        ['accepted', undefined],
        ['accepted', undefined],
      ]);
    }
    await expect(store.bulks.createBulks(stored.id, [plan([mine1!, theirs!])])).rejects.toThrow(
      `Payment ${theirs} is not in file ${stored.id}.`,
    );
    const [bulk] = await store.bulks.createBulks(stored.id, [plan([mine1!, mine2!])]);
    expect(bulk).toMatchObject({ lineCount: 2, totals: { NOK: (12_345n * 3n).toString() } });
  });

  it("reads a file's lines for planning and a bulk's for its request, in line order, optional fields only when stored", async () => {
    const { store } = ctx();
    const stored = await store.files.recordAcceptedFile(paymentFile('reads-1'), [
      payment(2, { endToEndId: 'RD-2', batchBooking: false, instructionPriority: 'high' }),
      payment(1, { endToEndId: 'RD-1', remittanceInformation: undefined }),
    ]);
    const planned = await store.payments.plannableByFile(stored.id);
    expect(planned.map(({ id: _, ...line }) => line)).toEqual([
      { debtorIban: 'NO9386011117947', requestedExecutionDate: '2026-01-06', lineNumber: 1, state: 'accepted' },
      {
        debtorIban: 'NO9386011117947',
        requestedExecutionDate: '2026-01-06',
        lineNumber: 2,
        state: 'accepted',
        batchBooking: false,
      },
    ]);
    const [bulk] = await store.bulks.createBulks(stored.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as never,
        batchBooking: false,
        paymentIds: planned.map((l) => l.id).reverse(),
      },
    ]);
    expect((await store.payments.plannableByFile(stored.id)).map((l) => l.bulkId)).toEqual([bulk!.id, bulk!.id]);
    expect(await store.payments.requestLinesOfBulk(bulk!.id)).toEqual([
      {
        endToEndId: 'RD-1',
        debtorName: 'Acme AS',
        amount: { minor: 12_345n, currency: 'NOK' },
        creditorIban: 'NO8330001234567',
        creditorName: 'Supplier 1',
      },
      {
        endToEndId: 'RD-2',
        debtorName: 'Acme AS',
        amount: { minor: 24_690n, currency: 'NOK' },
        creditorIban: 'NO8330001234567',
        creditorName: 'Supplier 2',
        remittanceInformation: 'Invoice 2',
        instructionPriority: 'high',
      },
    ]);
  });

  it("moves a bulk's lines to the status the bank's answer gave them, and to sent where it gave none", async () => {
    const { store } = ctx();
    const bulkOf = async (name: string, count: number) => {
      const { lines, bulk } = await bulkOfLines(store, name, count);
      await store.bulks.markSending(bulk.id);
      return { bulk, ids: lines.map((l) => l.id) };
    };
    const lines = async (bulkId: string) =>
      (await store.payments.listByBulk(bulkId)).map((p) => [p.endToEndId, p.state, p.bankStatus]);

    // Every line named with one status: they move together, the bank's status recorded.
    const all = await bulkOf('answered-all', 3);
    await recordSent(store, all.bulk.id, {
      bankPaymentId: 'PAY-ALL',
      bankStatus: 'RCVD',
      paymentStatuses: [1, 2, 3].map((n) => ({ endToEndId: `answered-all-${n}`, status: 'rcvd' })),
    });
    expect(await lines(all.bulk.id)).toEqual([
      ['answered-all-1', 'RCVD', 'RCVD'],
      ['answered-all-2', 'RCVD', 'RCVD'],
      ['answered-all-3', 'RCVD', 'RCVD'],
    ]);
    expect((await store.transitions('payment', all.ids[2]!)).map((t) => [t.from, t.to, t.source])).toEqual([
      ['accepted', 'queued', 'submit'],
      ['queued', 'RCVD', 'submit'],
    ]);
    // The same status from a poll afterwards is a duplicate for every line.
    expect(
      await store.payments.applyBankStatus({ bulkId: all.bulk.id }, { status: 'RCVD', cause: 'poll', source: 'poll' }),
    ).toMatchObject({ moved: 0, duplicate: 3 });
    // A poll that reports each line's own status has nothing to write; one that reports another has.
    expect(await store.payments.bulkAllAtWithoutMessages(all.bulk.id, 'RCVD')).toBe(true);
    expect(await store.payments.bulkAllAtWithoutMessages(all.bulk.id, 'ACSC')).toBe(false);

    // Lines named with different statuses, one with an unknown code, one not named: each its own.
    const mixed = await bulkOf('answered-mixed', 4);
    await recordSent(store, mixed.bulk.id, {
      bankPaymentId: 'PAY-MIXED',
      paymentStatuses: [
        { endToEndId: 'answered-mixed-1', status: 'RCVD' },
        { endToEndId: 'answered-mixed-2', status: 'RJCT' },
        { endToEndId: 'answered-mixed-3', status: 'SOMETHING-NEW' },
      ],
    });
    expect(await lines(mixed.bulk.id)).toEqual([
      ['answered-mixed-1', 'RCVD', 'RCVD'],
      ['answered-mixed-2', 'RJCT', 'RJCT'],
      ['answered-mixed-3', 'sent', undefined],
      ['answered-mixed-4', 'sent', undefined],
    ]);
    // One line in another state is enough for a poll to have something to write.
    expect(await store.payments.bulkAllAtWithoutMessages(mixed.bulk.id, 'RCVD')).toBe(false);

    // A status event that overtook the answer keeps its line where it is.
    const overtaken = await bulkOf('answered-late', 2);
    await store.payments.applyBankStatus([overtaken.ids[0]!], { status: 'ACSP', cause: 'event', source: 'event' });
    await recordSent(store, overtaken.bulk.id, {
      bankPaymentId: 'PAY-LATE',
      paymentStatuses: [1, 2].map((n) => ({ endToEndId: `answered-late-${n}`, status: 'RCVD' })),
    });
    expect(await lines(overtaken.bulk.id)).toEqual([
      ['answered-late-1', 'ACSP', 'ACSP'],
      ['answered-late-2', 'RCVD', 'RCVD'],
    ]);
    // A repeated answer (an idempotent replay) changes nothing more.
    await recordSent(store, overtaken.bulk.id, {
      bankPaymentId: 'PAY-LATE',
      paymentStatuses: [1, 2].map((n) => ({ endToEndId: `answered-late-${n}`, status: 'RCVD' })),
    });
    expect((await store.transitions('payment', overtaken.ids[1]!)).map((t) => t.to)).toEqual(['queued', 'RCVD']);
  });

  it('moves a bulk through sending, unknown and sent, with its lines and transition rows', async () => {
    const { store, clock } = ctx();
    const { line, bulk } = await oneLineBulk(store, 'outbox-2');
    const sending = await store.bulks.markSending(bulk.id);
    expect(sending).toMatchObject({ state: 'sending', attempts: 1, firstSentAt: clock.now() });
    clock.advance(1000);
    expect((await store.bulks.markSending(bulk.id)).attempts).toBe(2);
    await store.bulks.markUnknown(bulk.id, { reason: 'timeout' });
    expect((await store.payments.listByBulk(bulk.id))[0]?.state).toBe('unknown');
    await rejectsWithCode(store.bulks.markSending(bulk.id), 'ERR_STATE_TRANSITION_ILLEGAL');
    await recordSent(store, bulk.id, { bankPaymentId: 'PAY-123', cause: 'lookup found it', bankStatus: 'rcvd' });
    expect(await store.bulks.get(bulk.id)).toMatchObject({
      state: 'sent',
      bankPaymentId: 'PAY-123',
      bankStatus: 'RCVD',
    });
    expect((await store.payments.listByBulk(bulk.id))[0]?.state).toBe('sent');
    expect((await store.transitions('bulk', bulk.id)).map((t) => t.to)).toEqual([
      'pending',
      'sending',
      'unknown',
      'sent',
      'RCVD',
    ]);
    expect((await store.transitions('payment', line.id)).map((t) => t.to)).toEqual(['queued', 'unknown', 'sent']);
  });

  it('ignores duplicate and out-of-order bank statuses', async () => {
    const { store } = ctx();
    const stored = await store.files.recordAcceptedFile(paymentFile('status-1'), [payment(1, { endToEndId: 'SS-1' })]);
    const [line] = await store.payments.listByFile(stored.id);
    const [bulk] = await store.bulks.createBulks(stored.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as never,
        batchBooking: false,
        paymentIds: [line!.id],
      },
    ]);
    await store.bulks.markSending(bulk!.id);
    await recordSent(store, bulk!.id, { bankPaymentId: 'PAY-9' });
    expect(
      decisionOf(await store.payments.applyBankStatus([line!.id], { status: 'acsp', cause: 'poll', source: 'poll' })),
    ).toBe('apply');
    expect(
      decisionOf(
        await store.payments.applyBankStatus([line!.id], {
          status: 'ACSC',
          cause: 'webhook evt-1',
          source: 'event',
          tppMessages: [{ code: 'OK', message: null }],
        }),
      ),
    ).toBe('apply');
    expect(
      decisionOf(
        await store.payments.applyBankStatus([line!.id], { status: 'ACTC', cause: 'late webhook', source: 'poll' }),
      ),
    ).toBe('stale');
    expect(
      decisionOf(await store.payments.applyBankStatus([line!.id], { status: 'ACSC', cause: 'poll', source: 'poll' })),
    ).toBe('duplicate');
    expect(
      decisionOf(await store.payments.applyBankStatus([line!.id], { status: 'RJCT', cause: 'poll', source: 'poll' })),
    ).toBe('stale');
    expect(await store.payments.findByEndToEndId('acme', 'SS-1')).toMatchObject({
      state: 'ACSC',
      bankStatus: 'ACSC',
      tppMessages: [{ code: 'OK', message: null }],
    });
    await rejectsWithCode(
      store.payments.applyBankStatus([line!.id], { status: 'BOGUS', cause: 'poll', source: 'poll' }),
      'ERR_STATE_UNKNOWN_STATUS',
    );
    expect(await store.bulks.applyBankStatus(bulk!.id, 'ACSC', 'poll', 'poll')).toBe('apply');
    expect(await store.bulks.applyBankStatus(bulk!.id, 'acsc', 'poll again', 'poll')).toBe('duplicate');
    expect(await store.bulks.applyBankStatus(bulk!.id, 'RCVD', 'late', 'poll')).toBe('stale');
    expect((await store.bulks.get(bulk!.id))?.bankStatus).toBe('ACSC');
  });

  it('lets a status event overtake our record of the POST answer, and a repeated answer is a no-op', async () => {
    const { store } = ctx();
    const { line, bulk } = await oneLineBulk(store, 'race');
    await store.bulks.markSending(bulk.id);
    // The webhook for the line arrives before markSent is written.
    expect(
      decisionOf(
        await store.payments.applyBankStatus([line.id], { status: 'ACSP', cause: 'webhook evt-9', source: 'event' }),
      ),
    ).toBe('apply');
    await recordSent(store, bulk.id, { bankPaymentId: 'PAY-R' });
    await recordSent(store, bulk.id, { bankPaymentId: 'PAY-R', cause: 'idempotent replay' });
    expect((await store.payments.listByBulk(bulk.id))[0]?.state).toBe('ACSP');
    expect((await store.transitions('bulk', bulk.id)).map((t) => t.to)).toEqual(['pending', 'sending', 'sent']);
    expect((await store.transitions('payment', line.id)).map((t) => t.to)).toEqual(['queued', 'ACSP']);
  });

  it('applies a bulk-level status to each line that is not further along', async () => {
    const { store } = ctx();
    const stored = await store.files.recordAcceptedFile(
      paymentFile('bulk-status'),
      [1, 2, 3].map((n) => payment(n, { endToEndId: `BS-${n}` })),
    );
    const lines = await store.payments.listByFile(stored.id);
    const [bulk] = await store.bulks.createBulks(stored.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as never,
        batchBooking: true,
        paymentIds: lines.map((l) => l.id),
      },
    ]);
    await store.bulks.markSending(bulk!.id);
    await recordSent(store, bulk!.id, { bankPaymentId: 'PAY-B' });
    await store.payments.applyBankStatus([lines[0]!.id], { status: 'ACSC', cause: 'poll', source: 'poll' });
    await store.payments.applyBankStatus([lines[1]!.id], { status: 'ACCP', cause: 'poll', source: 'poll' });
    expect(await store.bulks.applyBankStatusToPayments(bulk!.id, 'accp', 'poll', 'poll')).toEqual({
      apply: 1,
      duplicate: 1,
      stale: 1,
    });
    const open = await store.payments.listByState(['sent', 'ACCP'], 'acme');
    expect(open.filter((p) => p.bulkId === bulk!.id).map((p) => p.endToEndId)).toEqual(['BS-2', 'BS-3']);
    expect((await store.payments.listByBulk(bulk!.id)).map((l) => [l.state, l.bankStatus])).toEqual([
      ['ACSC', 'ACSC'],
      ['ACCP', 'ACCP'],
      ['ACCP', 'ACCP'],
    ]);
  });

  it("lists a company's sent lines of a period by execution date, not those before, after, unsent or of others", async () => {
    const { store } = ctx();
    const dates = ['2026-02-01', '2026-02-02', '2026-02-03', '2026-02-04'];
    const stored = await store.files.recordAcceptedFile(
      paymentFile('period-1'),
      dates.map((d, i) => payment(i + 1, { endToEndId: `PER-${i + 1}`, requestedExecutionDate: d as never })),
    );
    const lines = await store.payments.listByFile(stored.id);
    // Lines 1–3 are sent (one bulk each); line 4 stays accepted, never sent.
    const bulks = await store.bulks.createBulks(
      stored.id,
      lines.slice(0, 3).map((line, i) => ({
        position: i,
        debtorIban: 'NO9386011117947',
        executionDate: dates[i] as never,
        batchBooking: false,
        paymentIds: [line.id],
      })),
    );
    for (const [i, bulk] of bulks.entries()) {
      await store.bulks.markSending(bulk.id);
      await recordSent(store, bulk.id, { bankPaymentId: `PAY-PER-${i}` });
    }
    await store.payments.applyBankStatus([lines[1]!.id], { status: 'ACSC', cause: 'poll', source: 'poll' });
    const period = { from: '2026-02-02' as never, to: '2026-02-04' as never };
    const listed = await store.payments.listInBulksExecutedBetween('acme', ['sent', 'ACSC'], period);
    expect(listed.map((p) => [p.endToEndId, p.state])).toEqual([
      ['PER-2', 'ACSC'],
      ['PER-3', 'sent'],
    ]);
    expect(await store.payments.listInBulksExecutedBetween('other', ['sent', 'ACSC'], period)).toEqual([]);
  });
}

/** A one-line transition's outcome in the words of the state machine. */
function decisionOf(r: TransitionResult): 'apply' | 'duplicate' | 'stale' | 'refused' {
  return r.moved > 0 ? 'apply' : r.refused.length > 0 ? 'refused' : r.duplicate > 0 ? 'duplicate' : 'stale';
}
