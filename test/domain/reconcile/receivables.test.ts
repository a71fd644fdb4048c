// Incoming payments against open receivables, and matches that explain themselves: each names
// its rule and evidence, scores from that evidence, and a weak one becomes a proposal.
import { describe, expect, it } from 'vitest';
import { businessCalendar } from '../../../src/domain/business-calendar.js';
import {
  applyDecisions,
  creditReferenceOf,
  factHash,
  findingId,
  nameSimilarity,
  reconcile,
  rejectedProposals,
  resolveReconcileConfig,
  DEFAULT_TOLERANCES,
  allowedDifferenceMinor,
  type BookedTransaction,
  type FindingDecision,
  type OpenReceivable,
  type ReconcileInput,
} from '../../../src/domain/reconcile/index.js';
import { addDays } from '../../../src/domain/local-date.js';
import { d, DEBTOR, debit, nok, payment } from './builders.js';

const credit = (id: string, minor: bigint, overrides: Partial<BookedTransaction> = {}): BookedTransaction => ({
  id,
  company: 'acme',
  accountIban: DEBTOR,
  amount: nok(minor),
  bookingDate: d('2026-03-10'),
  counterpartyName: 'Kunde Nord AS',
  counterpartyIban: 'NO6315061111112',
  ...overrides,
});

const receivable = (invoice: string, minor: bigint, overrides: Partial<OpenReceivable> = {}): OpenReceivable => ({
  company: 'acme',
  invoice,
  customer: 'Kunde Nord AS',
  amount: nok(minor),
  dueDate: d('2026-03-12'),
  ...overrides,
});

const run = (input: Partial<ReconcileInput>, config = resolveReconcileConfig()) =>
  reconcile(
    { payments: [], transactions: [], receivablesInUse: true, ...input },
    { today: d('2026-03-20'), now: new Date('2026-03-20T06:00:00Z'), calendar: businessCalendar('NO') },
    config,
  );

describe('the reference of a credit', () => {
  it('uses the structured reference when the bank gives one, else a KID or RF with valid check digits in the text', () => {
    expect(creditReferenceOf({ creditorReference: { reference: '1002003018', type: 'KID' } })).toMatchObject({
      kind: 'KID',
      value: '1002003018',
      valid: true,
    });
    expect(creditReferenceOf({ remittance: 'Betaling KID 1002 0030 18 takk' })?.value).toBe('1002003018');
    expect(creditReferenceOf({ remittance: 'Invoice RF18 5390 0754 7034' })?.value).toBe('RF18539007547034');
    // A phone number whose check digit does not hold is not a reference.
    expect(creditReferenceOf({ remittance: 'ring 1002003019' })).toBeUndefined();
    expect(creditReferenceOf({})).toBeUndefined();
  });
});

describe('credits matched to receivables', () => {
  it('matches by exact reference first, with the rule, the evidence and a full score', () => {
    const result = run({
      transactions: [credit('c1', 1_250_000n, { remittance: 'KID 1002003018', counterpartyName: 'Someone Else' })],
      receivables: [receivable('INV-1', 1_250_000n, { reference: '1002003018' })],
    });
    expect(result.findings).toEqual([
      expect.objectContaining({
        type: 'credit_matched',
        rule: 'creditor-reference',
        invoice: 'INV-1',
        creditorReference: 'KID 1002003018',
        remittance: 'KID 1002003018',
        score: 100,
        needsPerson: false,
        evidence: expect.stringMatching(
          /^agreed: creditor reference, amount; differed: date, 2 days before; score 100$/,
        ),
      }),
    ]);
  });

  it('reports a part payment as provisional and keeps the rest open for the next instalment', () => {
    const result = run({
      transactions: [
        credit('c1', 400_000n, { remittance: 'KID 1002003018' }),
        credit('c2', 600_000n, { remittance: 'KID 1002003018', bookingDate: d('2026-03-12') }),
        credit('c3', 50_000n, { remittance: 'KID 1002003018', bookingDate: d('2026-03-13') }),
      ],
      receivables: [receivable('INV-1', 1_000_000n, { reference: '1002003018' })],
    });
    expect(result.findings.map((f) => [f.type, f.transactionId, f.exception, f.amountDifference?.minor])).toEqual([
      ['credit_over', 'c3', 'over_amount', 50_000n],
      ['credit_partial', 'c1', 'under_amount', -600_000n],
      ['credit_matched', 'c2', undefined, 0n],
    ]);
    expect(result.findings.find((f) => f.transactionId === 'c1')!.message).toMatch(
      /6000\.00 stays open \(provisional: more payments may come\)/,
    );
    expect(result.needsPerson).toBe(true); // the over-payment needs a person
  });

  it('without a reference, matches by amount, customer name and date; never by amount alone', () => {
    const receivables = [receivable('INV-2', 780_050n, { customer: 'Kunde Vest AS' })];
    const same = run({
      transactions: [credit('c1', 780_050n, { counterpartyName: 'KUNDE VEST AS', bookingDate: d('2026-03-12') })],
      receivables,
    });
    expect(same.findings[0]).toMatchObject({ type: 'credit_matched', rule: 'amount-customer-date', score: 85 });
    const stranger = run({
      transactions: [credit('c1', 780_050n, { counterpartyName: 'Helt Annen Bedrift', bookingDate: d('2026-03-12') })],
      receivables,
    });
    expect(stranger.findings[0]).toMatchObject({ type: 'unmatched_credit', needsPerson: true });
    const tooLate = run({
      transactions: [credit('c1', 780_050n, { counterpartyName: 'Kunde Vest AS', bookingDate: d('2026-06-30') })],
      receivables,
    });
    expect(tooLate.findings[0]!.type).toBe('unmatched_credit');
  });

  it('matches by amount, name and date up to the due-date window, both ends included', () => {
    // The window is 30 days before the due date (2026-03-12) and 60 after it (DEFAULT_TOLERANCES).
    const receivables = [receivable('INV-3', 45_000n, { customer: 'Kunde Vest AS' })];
    const on = (bookingDate: string) =>
      run({
        transactions: [credit('c1', 45_000n, { counterpartyName: 'Kunde Vest AS', bookingDate: d(bookingDate) })],
        receivables,
      }).findings[0]!.type;
    expect([on('2026-02-10'), on('2026-05-11')]).toEqual(['credit_matched', 'credit_matched']);
    expect([on('2026-02-09'), on('2026-05-12')]).toEqual(['unmatched_credit', 'unmatched_credit']);
  });

  it('matches 4,000 credits without a reference among 20,000 receivables due over ten years, each to its own', () => {
    // Each credit was weighed against every receivable: 8e7 steps here, past the test's 30 s; now the
    // receivables due within its window, about 500 each.
    const day = (k: number) => d(new Date(Date.UTC(2016, 0, 1) + (k % 3650) * 86_400_000).toISOString().slice(0, 10));
    const receivables = Array.from({ length: 20_000 }, (_, k) =>
      receivable(`INV-${k}`, 10_000n + BigInt(k), { customer: `Kunde ${k} AS`, dueDate: day(k) }),
    );
    const transactions = Array.from({ length: 4_000 }, (_, j) => {
      const k = j * 5;
      const bookingDate = addDays(day(k), 5);
      return credit(`c${j}`, 10_000n + BigInt(k), { counterpartyName: `Kunde ${k} AS`, bookingDate });
    });
    const { findings } = run({ transactions, receivables });
    const matched = findings.filter((f) => f.type === 'credit_matched');
    expect(matched).toHaveLength(4_000);
    expect(matched.every((f) => f.invoice === `INV-${Number(f.transactionId!.slice(1)) * 5}`)).toBe(true);
  });

  it('turns a near miss into a proposal; confirmed it stays quiet while its facts hold; rejected it is never proposed again', () => {
    // "Kunde Vest" paid by "Kunde Vestland": alike, not the same name.
    const input = {
      transactions: [credit('c1', 780_050n, { counterpartyName: 'Kunde Vestland AS', bookingDate: d('2026-03-12') })],
      receivables: [receivable('INV-2', 780_050n, { customer: 'Kunde Vest AS' })],
    };
    const first = run(input);
    const proposal = first.findings[0]!;
    expect(proposal).toMatchObject({
      type: 'match_proposed',
      needsPerson: true,
      exception: 'data_mismatch',
      invoice: 'INV-2',
      rule: 'amount-customer-date',
    });
    expect(proposal.score).toBeLessThan(DEFAULT_TOLERANCES.autoConfirmScore);
    expect(proposal.evidence).toMatch(/differed: name \(\d+ % alike\)/);

    const decide = (decision: FindingDecision['decision'], hash = factHash(proposal)) =>
      new Map([
        [
          findingId('acme', proposal),
          { decision, factHash: hash, by: 'kari', at: new Date('2026-03-20T08:00:00Z'), reason: 'checked' },
        ],
      ]);
    const confirmed = applyDecisions('acme', run(input).findings, decide('confirmed'));
    expect(confirmed[0]).toMatchObject({ needsPerson: false, acknowledged: { kind: 'confirmed', by: 'kari' } });
    // The facts change (the booking is dated another day): it needs a person again.
    const changed = applyDecisions(
      'acme',
      run({ ...input, transactions: [{ ...input.transactions[0]!, bookingDate: d('2026-03-13') }] }).findings,
      decide('confirmed'),
    );
    expect(changed[0]).toMatchObject({ type: 'match_proposed', needsPerson: true });
    expect(changed[0]!.message).toMatch(/Confirmed by kari on 2026-03-20, but its facts changed since/);

    const rejected = rejectedProposals('acme', first.findings, decide('rejected'));
    const after = run({ ...input, rejectedProposals: rejected });
    expect(after.findings.map((f) => f.type)).toEqual(['unmatched_credit']);
  });

  it('scores from the evidence: the same rule scores lower the more the amount differs', () => {
    const config = resolveReconcileConfig({
      tolerances: { ...DEFAULT_TOLERANCES, amountAbsolute: '10.00' },
    });
    const scoreFor = (minor: bigint) =>
      run(
        {
          transactions: [credit('c1', minor, { remittance: 'KID 1002003018', bookingDate: d('2026-03-12') })],
          receivables: [receivable('INV-1', 100_000n, { reference: '1002003018' })],
        },
        config,
      ).findings[0]!;
    expect(scoreFor(100_000n)).toMatchObject({ type: 'credit_matched', score: 100 });
    expect(scoreFor(99_900n)).toMatchObject({ type: 'credit_matched', score: 88 });
    expect(scoreFor(99_500n)).toMatchObject({ type: 'credit_matched', score: 80 });
    expect(scoreFor(99_000n)).toMatchObject({ type: 'match_proposed', score: 70, exception: 'data_mismatch' });
    expect(scoreFor(98_000n)).toMatchObject({ type: 'credit_partial' });
  });
});

describe('payment matches explain themselves', () => {
  it('names the evidence of an end-to-end match and scores it 100 when everything agreed', () => {
    const result = run({
      payments: [payment('p1')],
      transactions: [debit('t1', 10_000n, { endToEndId: 'E2E-p1', counterpartyIban: 'NO8330001234567' })],
    });
    expect(result.findings[0]).toMatchObject({
      type: 'matched',
      score: 100,
      evidence: 'agreed: end-to-end id, debtor account, creditor account, amount, date; score 100',
    });
  });

  it('a near miss of the amount rule within a configured tolerance becomes a proposal, a fee is named as one', () => {
    const config = resolveReconcileConfig({
      amountToleranceMinor: 500n,
      tolerances: { ...DEFAULT_TOLERANCES, amountAbsolute: '5.00', fee: '1.00' },
    });
    const near = run(
      { payments: [payment('p1')], transactions: [debit('t1', 10_400n, { counterpartyIban: 'NO8330001234567' })] },
      config,
    );
    expect(near.findings[0]).toMatchObject({ type: 'match_proposed', rule: 'amount-account-date', needsPerson: true });
    const fee = run(
      {
        payments: [payment('p1')],
        transactions: [debit('t1', 10_050n, { endToEndId: 'E2E-p1' })],
      },
      config,
    );
    expect(fee.findings[0]).toMatchObject({ type: 'matched', score: 90 });
    expect(fee.findings[0]!.message).toMatch(/difference 0\.50 as a bank fee/);
  });

  it('a rejected payment proposal leaves payment and booking unmatched', () => {
    const config = resolveReconcileConfig({
      amountToleranceMinor: 500n,
      tolerances: { ...DEFAULT_TOLERANCES, amountAbsolute: '5.00' },
    });
    const input = {
      payments: [payment('p1')],
      transactions: [debit('t1', 10_400n, { counterpartyIban: 'NO8330001234567' })],
    };
    const first = run(input, config);
    const decisions = new Map([
      [
        findingId('acme', first.findings[0]!),
        { decision: 'rejected' as const, factHash: factHash(first.findings[0]!), by: 'kari', at: new Date() },
      ],
    ]);
    const after = run({ ...input, rejectedProposals: rejectedProposals('acme', first.findings, decisions) }, config);
    expect(after.findings.map((f) => f.type).sort()).toEqual(['not_booked', 'unexpected_debit']);
  });
});

describe('tolerances', () => {
  it('are exact decimals: the larger of absolute and percent of the stated base, rounded down', () => {
    const t = { ...DEFAULT_TOLERANCES, amountAbsolute: '1.00', amountPercent: '0.5' };
    expect(allowedDifferenceMinor(t, nok(100_000n), nok(99_000n))).toBe(500n);
    expect(allowedDifferenceMinor({ ...t, percentBase: 'smaller' }, nok(100_000n), nok(10_000n))).toBe(100n);
    expect(allowedDifferenceMinor({ ...t, amountPercent: '0.333' }, nok(1_001n), nok(1_001n))).toBe(100n);
    expect(() =>
      resolveReconcileConfig({ tolerances: { ...t, amountAbsolute: '1e3', autoConfirmScore: 101 } }),
    ).toThrow(/tolerances\.amountAbsolute.*tolerances\.autoConfirmScore/);
  });

  it('bound a percent at 100 exactly, not as a float reads it', () => {
    const t = { ...DEFAULT_TOLERANCES, amountPercent: '100.0000000000000001' };
    expect(() => resolveReconcileConfig({ tolerances: t })).toThrow(/tolerances\.amountPercent: at most 100/);
    expect(() => resolveReconcileConfig({ tolerances: { ...t, amountPercent: '100.000' } })).not.toThrow();
  });

  it('name similarity ignores case, accents and company forms', () => {
    expect(nameSimilarity('KUNDE SØR AS', 'Kunde Sor')).toBe(1);
    expect(nameSimilarity('Kunde Vest AS', 'Kunde Vestland AS')).toBeGreaterThan(0.5);
    expect(nameSimilarity('Kunde Vest AS', 'Kunde Vestland AS')).toBeLessThan(1);
    expect(nameSimilarity('Acme', 'Zulu')).toBe(0);
  });
});
