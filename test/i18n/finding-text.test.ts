// A reconcile run records each finding's sentence twice: the English (what old rows have, what
// English readers get byte for byte, the CLI's JSON and the machine CSV) and the catalogue key
// with its values (what a bokmål reader gets). The English catalogue must render every recorded
// sentence exactly as the English the run wrote beside it, and bokmål must render each one.
import { describe, expect, it } from 'vitest';
import { businessCalendar } from '../../src/domain/business-calendar.js';
import {
  applyDecisions,
  DEFAULT_TOLERANCES,
  findingId,
  findingSubject,
  reconcile,
  resolveReconcileConfig,
  type BookedTransaction,
  type Finding,
  type OpenReceivable,
  type ReconcileInput,
} from '../../src/domain/reconcile/index.js';
import { findingSubjectWords, recordedSentence, renderRecorded } from '../../src/i18n/index.js';
import { d, DEBTOR, debit, nok, payment } from '../domain/reconcile/builders.js';

/** Intl writes bokmål with no-break spaces; the checks read them as spaces. */
const spaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const run = (input: Partial<ReconcileInput>, config = resolveReconcileConfig()) =>
  reconcile(
    { payments: [], transactions: [], ...input },
    { today: d('2026-03-20'), now: new Date('2026-03-20T06:00:00Z'), calendar: businessCalendar('NO') },
    config,
  ).findings;
// Above the score of a match without a reference: such a match is proposed, not made.
const strict = resolveReconcileConfig({ tolerances: { ...DEFAULT_TOLERANCES, autoConfirmScore: 95 } });

const credit = (id: string, minor: bigint, over: Partial<BookedTransaction> = {}): BookedTransaction => ({
  id,
  company: 'acme',
  accountIban: DEBTOR,
  amount: nok(minor),
  bookingDate: d('2026-03-10'),
  counterpartyName: 'Kunde Nord AS',
  counterpartyIban: 'NO6315061111112',
  ...over,
});
const receivable = (invoice: string, minor: bigint, over: Partial<OpenReceivable> = {}): OpenReceivable => ({
  company: 'acme',
  invoice,
  customer: 'Kunde Nord AS',
  amount: nok(minor),
  dueDate: d('2026-03-12'),
  ...over,
});
const period = (from: string, to: string, opening: bigint, closing: bigint) => ({
  company: 'acme',
  accountIban: DEBTOR,
  from: d(from),
  to: d(to),
  openingBalance: nok(opening),
  closingBalance: nok(closing),
});

/** Findings of every kind the run writes a sentence for. */
function everyKind(): Finding[] {
  const e2e = (id: string) => ({ endToEndId: `E2E-${id}` });
  return [
    ...run({
      payments: [
        payment('p1', { outcome: 'rejected', rejectionReason: 'AC01 wrong account', resentAs: 'p9' }),
        payment('p2', { outcome: 'rejected' }),
        payment('p3', { outcome: 'unknown' }),
        payment('p4', { requestedExecutionDate: d('2026-03-10') }),
        payment('p5', { requestedExecutionDate: d('2026-03-19') }),
        payment('p6', { outcome: 'cancelled' }),
        payment('p7', { outcome: 'unknown' }),
        payment('p8'),
        payment('p10'),
        payment('p11', { amount: { minor: 10_000n, currency: 'EUR' } }),
        payment('p12'),
      ],
      transactions: [
        debit('t6', 10_000n, e2e('p6')),
        debit('t7', 10_000n, e2e('p7')),
        debit('t8', 10_150n, e2e('p8')),
        debit('t10', 10_000n, { ...e2e('p10'), bookingDate: d('2026-03-18') }),
        debit('t11', 10_000n, e2e('p11')),
        debit('t12', 10_001n, e2e('p12')),
        debit('fee', 4_500n, { counterpartyName: 'Bank fee' }),
      ],
    }),
    ...run({
      payments: [1n, 2n, 3n].map((n) =>
        payment(`b${n}`, { amount: nok(100n * n), bulkId: 'B9', batchBooking: true, endToEndId: `X-${n}` }),
      ),
      transactions: [debit('lump', 600n)],
    }),
    ...run(
      {
        payments: [1n, 2n].map((n) => payment(`l${n}`, { amount: nok(100n * n), batchBooking: true })),
        transactions: [debit('lump', 300n)],
      },
      strict,
    ),
    ...run({
      statements: [
        period('2026-03-01', '2026-03-02', 0n, 100n),
        period('2026-03-02', '2026-03-03', 100n, 500n),
        period('2026-03-05', '2026-03-05', 650n, 400n),
        period('2026-03-06', '2026-03-06', 390n, 390n),
      ],
    }),
    ...run({
      approvals: [
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
          bulkIds: ['B2'],
          totals: [nok(1n)],
          linkExpiresAt: new Date('2026-03-19T06:00:00Z'),
        },
        { company: 'acme', basketId: 'SB-3', bulkIds: ['B4'], totals: [] },
      ],
      consents: [
        { company: 'acme', consentId: 'c-soon', bank: 'DNB', validUntil: d('2026-04-03') },
        { company: 'acme', consentId: 'c-day', bank: 'DNB', validUntil: d('2026-03-21') },
        { company: 'acme', consentId: 'c-old', bank: 'DNB', validUntil: d('2026-03-19') },
      ],
    }),
    ...run({
      receivablesInUse: true,
      receivables: [
        receivable('1001', 1_250_000n, { reference: '1002003018' }),
        receivable('1002', 500_000n, { reference: '1002003026' }),
        receivable('1003', 300_000n, { reference: '1002003034' }),
        receivable('1004', 200_000n, { customer: 'Kunde Sør AS' }),
      ],
      transactions: [
        credit('c1', 1_250_000n, { remittance: 'KID 1002003018', counterpartyName: 'Someone Else' }),
        credit('c1b', 100_000n, { remittance: 'KID 1002003018', bookingDate: d('2026-03-11') }),
        credit('c2', 400_000n, { remittance: 'KID 1002003026' }),
        credit('c3', 350_000n, { remittance: 'KID 1002003034' }),
        credit('c4', 200_000n, { counterpartyName: 'Kunde Sor', bookingDate: d('2026-03-13') }),
        credit('c5', 77_700n, { remittance: 'KID 0000000042' }),
      ],
    }),
    ...run(
      {
        receivablesInUse: true,
        receivables: [receivable('1004', 200_000n, { customer: 'Kunde Sør AS' })],
        transactions: [credit('c4', 200_000n, { counterpartyName: 'Kunde Sor', bookingDate: d('2026-03-13') })],
      },
      strict,
    ),
  ];
}

describe('a finding’s recorded sentence', () => {
  it('renders in English exactly as the English the run recorded, and in bokmål from its key', () => {
    const findings = everyKind();
    const keys = new Set<string>();
    for (const f of findings) {
      expect(f.said, f.message).toBeDefined();
      keys.add(f.said!.key);
      expect(renderRecorded('en', f.said!)).toBe(f.message);
      const nb = renderRecorded('nb', f.said!);
      expect(nb, f.message).toBeDefined();
      expect(nb).not.toBe(f.message);
    }
    // The scenarios reach the sentences of every kind of finding.
    expect([...keys].sort()).toEqual(
      expect.arrayContaining([
        'findingText.amountDifference',
        'findingText.approvalExpired',
        'findingText.approvalNoLink',
        'findingText.approvalWaiting',
        'findingText.awaitingBooking',
        'findingText.balanceBreak',
        'findingText.bookedDespite',
        'findingText.consentExpired',
        'findingText.consentExpiring',
        'findingText.creditAlreadyPaid',
        'findingText.creditMatched',
        'findingText.creditOver',
        'findingText.creditPartial',
        'findingText.creditProposed',
        'findingText.currencyDifference',
        'findingText.dateDifference',
        'findingText.matched',
        'findingText.notBooked',
        'findingText.proposed',
        'findingText.rejected',
        'findingText.rejectedResent',
        'findingText.statementGap',
        'findingText.statementOverlap',
        'findingText.unknownOutcome',
        'findingText.unmatchedCredit',
        'findingText.unmatchedDebit',
      ]),
    );
  });

  it('writes amounts and dates in bokmål as bokmål writes them, never as the run wrote them', () => {
    const findings = everyKind();
    for (const f of findings) {
      const nb = spaces(renderRecorded('nb', f.said!, { timeZone: 'Europe/Oslo' })!);
      // No ISO date, no instant, no amount with a decimal point is left in a bokmål sentence.
      expect(nb, f.message).not.toMatch(/\d{4}-\d\d-\d\d|\d\.\d\d(?![.\d])/);
    }
    const said = (key: string) => findings.find((f) => f.said!.key === key)!.said!;
    expect(spaces(renderRecorded('nb', said('findingText.unmatchedDebit'))!)).toBe(
      'En belastning på 45,00 kr bokført 10.03.2026 samsvarer ikke med noen betaling settle har sendt.',
    );
    expect(spaces(renderRecorded('nb', said('findingText.creditPartial'))!)).toBe(
      'Delbetaling på 4 000,00 av 5 000,00 kr åpent på faktura 1002; 1 000,00 står fortsatt åpent (foreløpig: flere innbetalinger kan komme).',
    );
    expect(spaces(renderRecorded('nb', said('findingText.approvalWaiting'), { timeZone: 'Europe/Oslo' })!)).toBe(
      'Signeringskurv SB-1 (100,00 kr) venter på godkjenning; lenken utløper 22.03.2026, 07:00 (om 48 t).',
    );
    // Without the company's zone an instant is read in UTC, and says so.
    expect(spaces(renderRecorded('nb', said('findingText.approvalWaiting'))!)).toContain(
      'utløper 22.03.2026, 06:00 UTC',
    );
    // A currency other than the language's own keeps its sign.
    expect(spaces(renderRecorded('nb', said('findingText.currencyDifference'))!)).toContain('bokført i NOK mens');
  });

  it('names each finding’s subject in bokmål, its dates as bokmål writes them; English as stored', () => {
    const subjects = new Set(everyKind().map((f) => findingSubject(f)));
    for (const subject of subjects) {
      expect(findingSubjectWords('en', subject)).toBe(subject);
      const nb = findingSubjectWords('nb', subject);
      expect(nb, subject).not.toBe(subject);
      expect(nb).not.toMatch(/\d{4}-\d\d-\d\d|\b(payment|booking|basket|consent|statement|missing|overlap|break)\b/);
    }
    expect(findingSubjectWords('nb', 'statement NO9386011117947 missing 2026-03-03..2026-03-04')).toBe(
      'kontoutskrift NO9386011117947 mangler 03.03.2026–04.03.2026',
    );
    expect(findingSubjectWords('nb', 'payment p1')).toBe('betaling p1');
    // A shape the table does not know stays as stored.
    expect(findingSubjectWords('nb', 'unknown_kind X')).toBe('unknown_kind X');
  });

  it('reads a finding recorded with figures as text (migration 0760’s rows) as it always did', () => {
    const old = { key: 'findingText.unmatchedDebit', values: { amount: '7.77', currency: 'NOK', date: '2026-01-07' } };
    expect(renderRecorded('nb', old)).toBe(
      'En belastning på 7.77 NOK bokført 2026-01-07 samsvarer ikke med noen betaling settle har sendt.',
    );
    // A figure this version cannot read gives the English stored beside it.
    const broken = {
      key: 'findingText.consentExpired',
      values: { bank: 'DNB', date: { figure: 'date' as const, date: 'soon' } },
    };
    expect(recordedSentence('nb', 'The consent at DNB expired on soon.', broken)).toBe(
      'The consent at DNB expired on soon.',
    );
  });

  it('reads a changed finding’s note around its own sentence, and old findings in their English', () => {
    const [f] = run({ payments: [payment('p2', { outcome: 'rejected' })] });
    const id = findingId('acme', f!);
    const decisions = new Map([
      [id, { decision: 'acknowledged' as const, factHash: 'other', by: 'kari', at: new Date('2026-03-18T10:00:00Z') }],
    ]);
    const [changed] = applyDecisions('acme', [f!], decisions);
    expect(renderRecorded('en', changed!.said!)).toBe(changed!.message);
    expect(renderRecorded('nb', changed!.said!)).toBe(
      'Avvist av banken og ikke sendt på nytt. Kvittert av kari 18.03.2026, men fakta har endret seg siden; den trenger oppfølging igjen.',
    );
    // A finding recorded before its sentence was: its English, whatever the reader's language.
    expect(recordedSentence('nb', 'Rejected by the bank.', undefined)).toBe('Rejected by the bank.');
  });
});
