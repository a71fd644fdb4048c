import { describe, expect, it } from 'vitest';
import { businessCalendar } from '../../../src/domain/business-calendar.js';
import { isSettleError } from '../../../src/domain/errors.js';
import {
  DEFAULT_TOLERANCES,
  factHash,
  findingId,
  FINDING_TYPES,
  reconcile,
  rejectedProposals,
  resolveReconcileConfig,
  type Finding,
  type ReconcileContext,
  type ReconcileInput,
} from '../../../src/domain/reconcile/index.js';
import { CREDITOR, d, debit, DEBTOR, nok, payment } from './builders.js';

// Easter 2026 in Norway: Thursday 2 April to Monday 6 April are holidays, so two business days
// after Wednesday 1 April is Wednesday 8 April.
const context = (today: string, now = `${today}T06:00:00Z`): ReconcileContext => ({
  today: d(today),
  now: new Date(now),
  calendar: businessCalendar('NO'),
});
const run = (input: Partial<ReconcileInput>, today = '2026-03-20', config = resolveReconcileConfig()) =>
  reconcile({ payments: [], transactions: [], ...input }, context(today), config);
const only = (findings: readonly Finding[]): Finding => {
  expect(findings).toHaveLength(1);
  return findings[0]!;
};

describe('findings for sent payments', () => {
  it('reports a payment booked with the same id and amount as matched, naming the rule', () => {
    const result = run({ payments: [payment('p1')], transactions: [debit('t1', 10_000n, { endToEndId: 'E2E-p1' })] });
    expect(only(result.findings)).toMatchObject({
      type: 'matched',
      rule: 'end-to-end',
      paymentIds: ['p1'],
      transactionId: 't1',
      needsPerson: false,
      severity: 'info',
    });
    expect(result.needsPerson).toBe(false);
  });

  it('reports an amount difference beyond the tolerance as needing a person, with the difference', () => {
    const result = run({ payments: [payment('p1')], transactions: [debit('t1', 10_150n, { endToEndId: 'E2E-p1' })] });
    const finding = only(result.findings);
    expect(finding).toMatchObject({
      type: 'amount_difference',
      needsPerson: true,
      amountDifference: nok(150n),
      bookedAmount: nok(10_150n),
      amount: nok(10_000n),
    });
    expect(finding.message).toContain('difference 1.50');
    expect(result.needsPerson).toBe(true);
  });

  it('reports a booking outside the date window as a date difference that needs no person', () => {
    const result = run({
      payments: [payment('p1')],
      transactions: [debit('t1', 10_000n, { endToEndId: 'E2E-p1', bookingDate: d('2026-03-16') })],
    });
    expect(only(result.findings)).toMatchObject({ type: 'date_difference', dateDifferenceDays: 6, needsPerson: false });
  });

  it('counts N business days over the bank holidays before calling a payment not booked', () => {
    const input = { payments: [payment('p1', { requestedExecutionDate: d('2026-04-01') })] };
    expect(only(run(input, '2026-04-08').findings)).toMatchObject({
      type: 'awaiting_booking',
      due: '2026-04-08',
      needsPerson: false,
    });
    expect(only(run(input, '2026-04-09').findings)).toMatchObject({
      type: 'not_booked',
      due: '2026-04-08',
      needsPerson: true,
    });
  });

  it('says whether a rejected payment was sent again', () => {
    const result = run({
      payments: [
        payment('p1', { outcome: 'rejected', rejectionReason: 'AC01 wrong account', resentAs: 'p9' }),
        payment('p2', { outcome: 'rejected' }),
      ],
    });
    expect(result.findings.map((f) => [f.type, f.paymentIds[0], f.reference])).toEqual([
      ['rejected', 'p2', undefined],
      ['rejected_resent', 'p1', 'p9'],
    ]);
    expect(result.findings[1]!.message).toContain('AC01 wrong account');
  });

  it('flags a rejected payment that was booked anyway', () => {
    const result = run({
      payments: [payment('p1', { outcome: 'rejected', resentAs: 'p9' })],
      transactions: [debit('t1', 10_000n, { endToEndId: 'E2E-p1' })],
    });
    expect(only(result.findings)).toMatchObject({
      type: 'booked_despite_rejection',
      needsPerson: true,
      severity: 'error',
    });
  });

  it('reports an unknown outcome for a person, and resolves it as matched when the booking is found', () => {
    expect(only(run({ payments: [payment('p1', { outcome: 'unknown' })] }).findings)).toMatchObject({
      type: 'unknown_outcome',
      needsPerson: true,
    });
    const found = only(
      run({
        payments: [payment('p1', { outcome: 'unknown' })],
        transactions: [debit('t1', 10_000n, { endToEndId: 'E2E-p1' })],
      }).findings,
    );
    expect(found).toMatchObject({ type: 'matched' });
    expect(found.message).toContain('no answer');
  });

  it('writes one finding for a batch-booked bulk, listing every line', () => {
    const lines = [
      payment('l1', { batchBooking: true, amount: nok(100n) }),
      payment('l2', { batchBooking: true, amount: nok(250n) }),
    ];
    const finding = only(run({ payments: lines, transactions: [debit('lump', 350n)] }).findings);
    expect(finding).toMatchObject({
      type: 'matched',
      rule: 'batch-lump-sum',
      paymentIds: ['l1', 'l2'],
      amount: nok(350n),
      bulkId: 'B1',
    });
  });

  it('leaves a rejected lump-sum proposal unmatched in the next run: the lines wait, the debit is unexpected', () => {
    // Above the lump sum's score (no reference, only the account), so it is a proposal.
    const config = resolveReconcileConfig({ tolerances: { ...DEFAULT_TOLERANCES, autoConfirmScore: 95 } });
    const lines = [
      payment('l1', { batchBooking: true, amount: nok(100n) }),
      payment('l2', { batchBooking: true, amount: nok(250n) }),
    ];
    const input = { payments: lines, transactions: [debit('lump', 350n)] };
    const proposal = only(run(input, '2026-03-11', config).findings);
    expect(proposal).toMatchObject({ type: 'match_proposed', rule: 'batch-lump-sum', paymentIds: ['l1', 'l2'] });
    const decisions = new Map([
      [
        findingId('acme', proposal),
        {
          decision: 'rejected' as const,
          factHash: factHash(proposal),
          by: 'kari',
          at: new Date('2026-03-11T08:00:00Z'),
        },
      ],
    ]);
    const rejected = rejectedProposals('acme', [proposal], decisions);
    const after = run({ ...input, rejectedProposals: rejected }, '2026-03-11', config);
    expect(after.findings.map((f) => [f.type, f.paymentIds, f.transactionId])).toEqual([
      ['unexpected_debit', [], 'lump'],
      ['awaiting_booking', ['l1'], undefined],
      ['awaiting_booking', ['l2'], undefined],
    ]);
    expect(after.matches.count).toBe(0);
  });

  it('writes nothing for a cancelled payment that was not booked', () => {
    expect(run({ payments: [payment('p1', { outcome: 'cancelled' })] }).findings).toEqual([]);
  });
});

describe('findings for bookings and accounts', () => {
  it('reports a debit that did not come from settle; a credit without receivables in settle needs no person', () => {
    const result = run({
      transactions: [
        debit('fee', 4_500n, { counterpartyName: 'Bank fee' }),
        { ...debit('in', 0n), amount: nok(99_00n) },
      ],
    });
    expect(result.findings.find((f) => f.type === 'unmatched_credit')).toMatchObject({
      transactionId: 'in',
      needsPerson: false,
    });
    expect(result.findings.filter((f) => f.type !== 'unmatched_credit')).toHaveLength(1);
    expect(result.findings.find((f) => f.type !== 'unmatched_credit')).toMatchObject({
      type: 'unexpected_debit',
      transactionId: 'fee',
      amount: nok(4_500n),
      counterparty: 'Bank fee',
      needsPerson: true,
    });
    const relaxed = run(
      { transactions: [debit('fee', 4_500n)] },
      '2026-03-20',
      resolveReconcileConfig({ unexpectedDebitNeedsPerson: false }),
    );
    expect(relaxed.needsPerson).toBe(false);
  });

  it('finds missing days and balance breaks between statements', () => {
    const period = (from: string, to: string, opening: bigint, closing: bigint) => ({
      company: 'acme',
      accountIban: DEBTOR,
      from: d(from),
      to: d(to),
      openingBalance: nok(opening),
      closingBalance: nok(closing),
    });
    // Out of order on purpose: periods are chained by date, per account.
    const result = run({
      statements: [
        period('2026-03-05', '2026-03-05', 650n, 400n),
        period('2026-03-01', '2026-03-02', 0n, 100n),
        period('2026-03-03', '2026-03-03', 100n, 500n),
        period('2026-03-06', '2026-03-06', 390n, 390n),
        period('2026-03-07', '2026-03-07', 390n, 390n),
      ],
    });
    expect(result.findings.map((f) => [f.type, f.reference, f.amountDifference?.minor])).toEqual([
      ['statement_gap', 'missing 2026-03-04..2026-03-04', 150n],
      ['statement_gap', 'balance break at 2026-03-06', -10n],
    ]);
    expect(result.findings[0]!.message).toContain('moved by 1.50 NOK');
    expect(result.needsPerson).toBe(true);
  });

  it('reports waiting approvals with their link expiry, and expired links', () => {
    const approvals = [
      {
        company: 'acme',
        basketId: 'SB-1',
        bulkIds: ['B1'],
        totals: [nok(100_00n)],
        linkExpiresAt: new Date('2026-03-22T06:00:00Z'),
      },
      {
        company: 'acme',
        basketId: 'SB-2',
        bulkIds: ['B2', 'B3'],
        totals: [nok(1n)],
        linkExpiresAt: new Date('2026-03-19T06:00:00Z'),
      },
      { company: 'acme', basketId: 'SB-3', bulkIds: ['B4'], totals: [] },
    ];
    const result = run({ approvals });
    expect(result.findings.map((f) => [f.type, f.reference, f.due])).toEqual([
      ['approval_link_expired', 'SB-2', '2026-03-19T06:00:00.000Z'],
      ['approval_waiting', 'SB-1', '2026-03-22T06:00:00.000Z'],
      ['approval_waiting', 'SB-3', undefined],
    ]);
    expect(result.findings[1]!.message).toContain('in 48 h');
  });

  it('reports consents that expired or expire within the warning period', () => {
    const consent = (id: string, validUntil: string) => ({
      company: 'acme',
      consentId: id,
      bank: 'DNB',
      validUntil: d(validUntil),
    });
    const result = run({
      consents: [consent('c-ok', '2026-05-01'), consent('c-soon', '2026-04-03'), consent('c-old', '2026-03-19')],
    });
    expect(result.findings.map((f) => [f.type, f.reference])).toEqual([
      ['consent_expired', 'DNB c-old'],
      ['consent_expiring', 'DNB c-soon'],
    ]);
  });
});

describe('summary and configuration', () => {
  it('counts every finding type and totals amounts per currency', () => {
    const result = run({
      payments: [
        payment('p1'),
        payment('p2', { amount: { minor: 500n, currency: 'EUR' } }),
        payment('p3', { amount: nok(1n), requestedExecutionDate: d('2026-03-01') }),
      ],
      transactions: [
        debit('t1', 10_000n, { endToEndId: 'E2E-p1' }),
        { ...debit('t2', 0n, { endToEndId: 'E2E-p2' }), amount: { minor: -500n, currency: 'EUR' } },
      ],
    });
    const matched = result.summary.byType.find((s) => s.type === 'matched')!;
    expect(matched).toMatchObject({
      count: 2,
      needingPerson: 0,
      totals: [{ currency: 'EUR', minor: 500n }, nok(10_000n)],
    });
    expect(result.summary.byType.map((s) => s.type)).toEqual(Object.keys(FINDING_TYPES));
    expect(result.summary).toMatchObject({ findings: 3, needingPerson: 1 });
    expect(result.findings.map((f) => f.type)).toEqual(['not_booked', 'matched', 'matched']);
  });

  it('rejects an invalid configuration, listing every problem with a stable code', () => {
    try {
      resolveReconcileConfig({
        rules: ['end-to-end', 'fuzzy' as never, 'end-to-end'],
        dateWindowDays: -1,
        amountToleranceMinor: -1n,
      });
      expect.unreachable();
    } catch (error) {
      expect(isSettleError(error, 'ERR_RECONCILE_CONFIG')).toBe(true);
      const message = (error as Error).message;
      expect(message).toContain('unknown rule "fuzzy"');
      expect(message).toContain('listed twice');
      expect(message).toContain('dateWindowDays');
      expect(message).toContain('amountToleranceMinor');
    }
  });

  it('uses the documented defaults', () => {
    expect(resolveReconcileConfig()).toMatchObject({
      rules: ['end-to-end', 'batch-lump-sum', 'amount-account-date'],
      dateWindowDays: 3,
      amountToleranceMinor: 0n,
      notBookedAfterBusinessDays: 2,
    });
    expect(CREDITOR).toBeTruthy();
  });
});
