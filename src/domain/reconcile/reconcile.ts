// Reconciliation as one pure function: match what settle sent against what the bank booked,
// then turn every payment, every unmatched debit, every statement break and every waiting
// approval or expiring consent into a finding. The reconcile job reads the inputs from the
// database and writes the report; this file decides what the report says.
import type { BusinessCalendar } from '../business-calendar.js';
import type { LocalDate } from '../local-date.js';
import { formatAmount, type Money } from '../money.js';
import { amountFigure, currencyFigure, dateFigure, recorded, type RecordedText } from '../recorded-text.js';
import { DEFAULT_RECONCILE_CONFIG, type ReconcileConfig } from './config.js';
import { statementGaps } from './statement-gaps.js';
import { approvalFindings, consentFindings } from './deadlines.js';
import { FINDING_TYPE_ORDER, findingOf, type Finding, type FindingType } from './findings.js';
import type { BookedTransaction, ConsentState, PendingApproval, SentPayment, StatementPeriod } from './inputs.js';
import { matchPayments, type Match, type MatchResult } from './match.js';
import { creditFindings, proposalKey, type OpenReceivable } from './receivables.js';
import { weighEvidence, type Evidence } from './evidence.js';
import { summarise, type ReconcileSummary } from './summary.js';
import { abs, allowedDifferenceMinor, decimalToMinor } from './tolerances.js';

export interface ReconcileInput {
  payments: readonly SentPayment[];
  transactions: readonly BookedTransaction[];
  statements?: readonly StatementPeriod[];
  approvals?: readonly PendingApproval[];
  consents?: readonly ConsentState[];
  /** The company's open receivables from the ERP: credits are matched to them. */
  receivables?: readonly OpenReceivable[];
  /** The company keeps its receivables in settle: a credit matching none needs a person. */
  receivablesInUse?: boolean;
  /** Proposed pairs a person rejected (proposalKey(payment id or invoice, transaction id)): never matched again. */
  rejectedProposals?: ReadonlySet<string>;
}

export interface ReconcileContext {
  /** The business date of the run in the company's time zone. */
  today: LocalDate;
  /** The instant of the run (approval link expiry is an instant). */
  now: Date;
  /** The bank's calendar, for "not booked after N business days". */
  calendar: Pick<BusinessCalendar, 'addBusinessDays'>;
  /**
   * The days the report is about. Payments and bookings just outside it may be given so a
   * booking late (or early) within the date window still finds its payment, but only payments
   * executed and bookings dated inside it become findings. Without it, everything given is.
   */
  scope?: { from: LocalDate; to: LocalDate };
}

export interface ReconcileResult {
  /** Grouped by type in report order; within a type, in input order. */
  findings: Finding[];
  /** The matches, built one at a time on demand (match(k)); matchOfPayment says which payment has which. */
  matches: MatchResult;
  summary: ReconcileSummary;
  /** True when any finding needs a person: the reconcile job then exits 1. */
  needsPerson: boolean;
}

export function reconcile(
  input: ReconcileInput,
  context: ReconcileContext,
  config: ReconcileConfig = DEFAULT_RECONCILE_CONFIG,
): ReconcileResult {
  const { payments, transactions } = input;
  const matches = withoutRejected(
    matchPayments(payments, transactions, config),
    payments,
    transactions,
    input.rejectedProposals,
  );
  const { matchOfPayment, matchOfTransaction } = matches;
  const groups = new Map<FindingType, Finding[]>(FINDING_TYPE_ORDER.map((type) => [type, []]));
  const add = (finding: Finding): void => void groups.get(finding.type)!.push(finding);
  const deadlines = new Map<LocalDate, LocalDate>();
  const deadlineOf = (date: LocalDate): LocalDate => {
    let deadline = deadlines.get(date);
    if (deadline === undefined) {
      deadline = context.calendar.addBusinessDays(date, config.notBookedAfterBusinessDays);
      deadlines.set(date, deadline);
    }
    return deadline;
  };

  const from = context.scope?.from;
  const to = context.scope?.to;
  const outside = (date: LocalDate): boolean => (from !== undefined && date < from) || (to !== undefined && date > to);

  for (let p = 0; p < payments.length; p++) {
    const payment = payments[p]!;
    if (outside(payment.requestedExecutionDate)) continue;
    const m = matchOfPayment[p]!;
    if (m !== -1) {
      const match = matches.match(m);
      // A lump sum is one finding for the whole bulk, written at its first line.
      if (match.payments[0] === p) add(matchFinding(match, payments, transactions[match.transaction]!, config));
      continue;
    }
    const base = paymentFields(payment);
    if (payment.outcome === 'rejected') {
      const reason = payment.rejectionReason ? ` (${payment.rejectionReason})` : '';
      if (payment.resentAs)
        add(
          findingOf('rejected_resent', {
            ...base,
            reference: payment.resentAs,
            message: `Rejected by the bank${reason}; sent again as ${payment.resentAs}.`,
            said: recorded('findingText.rejectedResent', { reason, resentAs: payment.resentAs }),
          }),
        );
      else
        add(
          findingOf('rejected', {
            ...base,
            message: `Rejected by the bank${reason} and not sent again.`,
            said: recorded('findingText.rejected', { reason }),
          }),
        );
    } else if (payment.outcome === 'unknown') {
      add(
        findingOf('unknown_outcome', {
          ...base,
          message:
            'The bank never answered the send and no booking with this end-to-end id was found; settle does not re-send it blind.',
          said: recorded('findingText.unknownOutcome'),
        }),
      );
    } else if (payment.outcome === 'sent') {
      const due = deadlineOf(payment.requestedExecutionDate);
      const days = config.notBookedAfterBusinessDays;
      if (context.today > due) {
        add(
          findingOf('not_booked', {
            ...base,
            due,
            exception: 'missing_after_deadline',
            message: `Sent for execution on ${payment.requestedExecutionDate} but not booked ${days} business day${days === 1 ? '' : 's'} later (${due}).`,
            said: recorded('findingText.notBooked', {
              date: dateFigure(payment.requestedExecutionDate),
              days,
              due: dateFigure(due),
            }),
          }),
        );
      } else {
        add(
          findingOf('awaiting_booking', {
            ...base,
            due,
            message: `Sent for execution on ${payment.requestedExecutionDate}; not booked yet, expected by ${due}.`,
            said: recorded('findingText.awaitingBooking', {
              date: dateFigure(payment.requestedExecutionDate),
              due: dateFigure(due),
            }),
          }),
        );
      }
    }
    // Cancelled and not booked: nothing was expected and nothing happened, so no finding.
  }

  for (let i = 0; i < transactions.length; i++) {
    const tx = transactions[i]!;
    if (matchOfTransaction[i] !== -1 || tx.amount.minor >= 0n || outside(tx.bookingDate)) continue;
    const debit: Money = { minor: -tx.amount.minor, currency: tx.amount.currency };
    add(
      findingOf(
        'unexpected_debit',
        {
          company: tx.company,
          accountIban: tx.accountIban,
          paymentIds: [],
          transactionId: tx.id,
          endToEndId: tx.endToEndId,
          amount: debit,
          bookedAmount: debit,
          bookingDate: tx.bookingDate,
          counterparty: counterpartyText(tx.counterpartyName, tx.counterpartyIban),
          reference: tx.remittance,
          message: `A debit of ${formatAmount(debit)} ${debit.currency} booked on ${tx.bookingDate} matches no payment settle sent.`,
          said: recorded('findingText.unmatchedDebit', {
            amount: amountFigure(debit),
            currency: currencyFigure(debit.currency),
            date: dateFigure(tx.bookingDate),
          }),
        },
        config.unexpectedDebitNeedsPerson,
      ),
    );
  }

  for (const finding of creditFindings(transactions, input.receivables ?? [], {
    tolerances: config.tolerances,
    ...(input.rejectedProposals ? { rejected: input.rejectedProposals } : {}),
    inScope: (date) => !outside(date),
    unmatchedNeedsPerson: input.receivablesInUse ?? false,
  }))
    add(finding);
  for (const finding of statementGaps(input.statements ?? [])) add(finding);
  for (const finding of approvalFindings(input.approvals ?? [], context.now)) add(finding);
  for (const finding of consentFindings(input.consents ?? [], context.today, config.consentWarningDays)) add(finding);

  const findings: Finding[] = [];
  for (const type of FINDING_TYPE_ORDER) for (const finding of groups.get(type)!) findings.push(finding);
  const summary = summarise(findings);
  return { findings, matches, summary, needsPerson: summary.needingPerson > 0 };
}

function paymentFields(payment: SentPayment): Omit<Finding, 'type' | 'severity' | 'needsPerson' | 'message' | 'said'> {
  return {
    company: payment.company,
    accountIban: payment.debtorIban,
    paymentIds: [payment.id],
    endToEndId: payment.endToEndId,
    bulkId: payment.bulkId,
    amount: payment.amount,
    executionDate: payment.requestedExecutionDate,
    counterparty: counterpartyText(payment.creditorName, payment.creditorIban),
    reference: payment.bankStatus,
  };
}

function counterpartyText(name: string | undefined, iban: string | undefined): string | undefined {
  if (name && iban) return `${name} (${iban})`;
  return name ?? iban;
}

const RULE_TEXT = {
  'end-to-end': 'same end-to-end id',
  'amount-account-date': 'same amount, creditor account and a booking date within the window',
  'batch-lump-sum': 'one lump-sum debit equal to the sum of every payment of the batch-booked bulk',
} as const;

function matchFinding(
  match: Match,
  payments: readonly SentPayment[],
  tx: BookedTransaction,
  config: ReconcileConfig,
): Finding {
  const first = payments[match.payments[0]!]!;
  const lines = match.payments.length;
  const sent: Money =
    lines === 1
      ? first.amount
      : {
          minor: match.payments.reduce((sum, p) => sum + payments[p]!.amount.minor, 0n),
          currency: first.amount.currency,
        };
  const booked: Money = { minor: -tx.amount.minor, currency: tx.amount.currency };
  const diff = match.amountDifferenceMinor;
  const evidence = paymentEvidence(match, tx, { first, sent, booked }, config);
  const [type, message, said] = judgeMatch(
    match,
    { first, sent, booked, bookingDate: tx.bookingDate, evidence },
    config,
  );
  // Built field by field (no spreads): this runs once per matched payment, a million times in the benchmark.
  return findingOf(type, {
    company: first.company,
    accountIban: first.debtorIban,
    paymentIds: lines === 1 ? [first.id] : match.payments.map((p) => payments[p]!.id),
    endToEndId: lines === 1 ? first.endToEndId : tx.endToEndId,
    bulkId: first.bulkId,
    transactionId: tx.id,
    rule: match.rule,
    amount: sent,
    bookedAmount: booked,
    amountDifference: diff === undefined ? undefined : { minor: diff, currency: sent.currency },
    executionDate: first.requestedExecutionDate,
    bookingDate: tx.bookingDate,
    dateDifferenceDays: match.dateDifferenceDays,
    counterparty: lines === 1 ? counterpartyText(first.creditorName, first.creditorIban) : undefined,
    reference: first.bankStatus,
    evidence: evidence.text,
    score: evidence.score,
    exception:
      type === 'match_proposed'
        ? 'data_mismatch'
        : type === 'amount_difference' && diff !== undefined
          ? diff > 0n
            ? 'over_amount'
            : 'under_amount'
          : undefined,
    message,
    said,
  });
}

/** What agreed between a payment (or a lump-sum bulk) and its booking, and the score it earns. */
function paymentEvidence(
  match: Match,
  tx: BookedTransaction,
  amounts: { first: SentPayment; sent: Money; booked: Money },
  config: ReconcileConfig,
): Evidence {
  const { first, sent, booked } = amounts;
  const lines = match.payments.length;
  const creditorAgreed =
    lines === 1 && tx.counterpartyIban !== undefined && sameAccount(tx.counterpartyIban, first.creditorIban);
  const alsoAgreed = ['debtor account'];
  if (lines > 1) alsoAgreed.push(`sum of ${lines} lines`);
  else if (match.rule === 'end-to-end' && creditorAgreed) alsoAgreed.push('creditor account');
  return weighEvidence({
    identity: match.rule === 'end-to-end' ? { kind: 'reference', what: 'end-to-end id' } : { kind: 'account' },
    alsoAgreed,
    currency: sent.currency,
    amountDifferenceMinor: match.amountDifferenceMinor,
    allowedMinor: allowedOf(config, sent, booked),
    feeMinor: decimalToMinor(config.tolerances.fee, sent.currency),
    feeSign: 1,
    days: match.dateDifferenceDays,
    window: config.tolerances.dateWindow,
  });
}

/** The larger of the matching rules' tolerance in minor units and the company's decimal tolerances. */
function allowedOf(config: ReconcileConfig, sent: Money, booked: Money): bigint {
  const decimal = allowedDifferenceMinor(config.tolerances, sent, booked);
  return decimal > config.amountToleranceMinor ? decimal : config.amountToleranceMinor;
}

function sameAccount(a: string, b: string): boolean {
  return a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();
}

/** Drops the matches a person rejected as proposals: their payment and booking are unmatched again. */
function withoutRejected(
  result: MatchResult,
  payments: readonly SentPayment[],
  transactions: readonly BookedTransaction[],
  rejected: ReadonlySet<string> | undefined,
): MatchResult {
  if (!rejected || rejected.size === 0) return result;
  // A proposal is known by its first payment (a lump sum's first line) and its booking, as
  // rejectedProposals() keys it; a lump sum is rejected whole, all its lines with it.
  return result.filter((k) => {
    const match = result.match(k);
    return !rejected.has(proposalKey(payments[match.payments[0]!]!.id, transactions[match.transaction]!.id));
  });
}

/** Which finding a match is, and the sentence that says why. */
function judgeMatch(
  match: Match,
  amounts: { first: SentPayment; sent: Money; booked: Money; bookingDate: LocalDate; evidence: Evidence },
  config: ReconcileConfig,
): [FindingType, string, RecordedText] {
  const { first, sent, booked, bookingDate, evidence } = amounts;
  const lines = match.payments.length;
  const diff = match.amountDifferenceMinor;
  const how = `Matched by ${RULE_TEXT[match.rule]}${lines > 1 ? ` (${lines} lines)` : ''}`;
  // The same parts as recorded text: the rule by its code, optional parts as '' when absent.
  const rule = recorded(`findingText.rule.${match.rule}`);
  const linesSaid = lines > 1 ? recorded('findingText.lines', { lines: String(lines) }) : '';
  const howSaid = recorded('findingText.matchedBy', { rule, lines: linesSaid });
  if (first.outcome === 'rejected' || first.outcome === 'cancelled') {
    return [
      'booked_despite_rejection',
      `${how}, although settle has the payment as ${first.outcome}: the money left the account.`,
      recorded('findingText.bookedDespite', { how: howSaid, outcome: first.outcome }),
    ];
  }
  const unknownNote = first.outcome === 'unknown' ? ' The send had no answer; this booking shows it was executed.' : '';
  const note = first.outcome === 'unknown' ? recorded('findingText.unknownNote') : '';
  if (diff === undefined) {
    return [
      'amount_difference',
      `${how}, but booked in ${booked.currency} while sent in ${sent.currency}.${unknownNote}`,
      recorded('findingText.currencyDifference', { how: howSaid, booked: booked.currency, sent: sent.currency, note }),
    ];
  }
  if (abs(diff) > allowedOf(config, sent, booked) && !evidence.fee) {
    const difference = formatAmount({ minor: diff, currency: sent.currency });
    return [
      'amount_difference',
      `${how}, but booked ${formatAmount(booked)} where ${formatAmount(sent)} ${sent.currency} was sent (difference ${difference}).${unknownNote}`,
      recorded('findingText.amountDifference', {
        how: howSaid,
        booked: amountFigure(booked),
        sent: amountFigure(sent),
        currency: currencyFigure(sent.currency),
        difference: amountFigure({ minor: diff, currency: sent.currency }),
        note,
      }),
    ];
  }
  if (Math.abs(match.dateDifferenceDays) > config.dateWindowDays) {
    return [
      'date_difference',
      `${how}, but booked on ${bookingDate}, ${match.dateDifferenceDays} days from the execution date ${first.requestedExecutionDate}.${unknownNote}`,
      recorded('findingText.dateDifference', {
        how: howSaid,
        date: dateFigure(bookingDate),
        days: String(match.dateDifferenceDays),
        executionDate: dateFigure(first.requestedExecutionDate),
        note,
      }),
    ];
  }
  const near =
    diff !== 0n
      ? ` (difference ${formatAmount({ minor: diff, currency: sent.currency })} ${evidence.fee ? 'as a bank fee' : 'within the tolerance'})`
      : '';
  const nearSaid =
    diff !== 0n
      ? recorded(evidence.fee ? 'findingText.nearFee' : 'findingText.nearTolerance', {
          difference: amountFigure({ minor: diff, currency: sent.currency }),
        })
      : '';
  const threshold = config.tolerances.autoConfirmScore;
  if (evidence.score < threshold)
    return [
      'match_proposed',
      `Proposed match by ${RULE_TEXT[match.rule]}${lines > 1 ? ` (${lines} lines)` : ''}${near}, but the evidence is weak (score ${evidence.score} < ${threshold}): confirm or reject.${unknownNote}`,
      recorded('findingText.proposed', {
        rule,
        lines: linesSaid,
        near: nearSaid,
        score: String(evidence.score),
        threshold: String(threshold),
        note,
      }),
    ];
  return [
    'matched',
    `${how}${near}.${unknownNote}`,
    recorded('findingText.matched', { how: howSaid, near: nearSaid, note }),
  ];
}
