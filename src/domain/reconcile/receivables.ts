// Incoming payments: credits booked on the company's accounts, matched to the open receivables
// the ERP dropped (docs/reconciliation.md, "Incoming payments"). Two rules, in order:
//   1. creditor-reference: the credit's KID or RF equals the receivable's (exact);
//   2. amount-customer-date: no reference, but the amount (within the tolerances), the payer's
//      name (alike enough) and the booking date (within the due-date window) agree.
// Credits are taken in booking-date order, so several credits to one receivable are its
// instalments: a partial payment leaves the rest open, an over-payment is reported. Each credit
// matches at most one receivable. A match scoring below the threshold is a proposal a person
// confirms or rejects; a rejected pair is never proposed again.
import type { LocalDate } from '../local-date.js';
import { addDays, daysBetween } from '../local-date.js';
import { formatAmount, type Money } from '../money.js';
import { amountFigure, currencyFigure, dateFigure, recorded, type RecordedText } from '../recorded-text.js';
import { creditReferenceOf, referenceText } from './credit-reference.js';
import { weighEvidence, type Evidence, type Identity } from './evidence.js';
import { findingOf, type ExceptionReason, type Finding, type FindingType } from './findings.js';
import type { BookedTransaction } from './inputs.js';
import { nameSimilarity } from './names.js';
import { abs, allowedDifferenceMinor, decimalToMinor, type Tolerances } from './tolerances.js';

export const CREDIT_RULES = ['creditor-reference', 'amount-customer-date'] as const;
export type CreditRule = (typeof CREDIT_RULES)[number];

/** One receivable as the ERP's file lists it. */
export interface ReceivableLine {
  /** The ERP's invoice number: the receivable's identity. */
  invoice: string;
  customer: string;
  /** Positive: what the customer owes. */
  amount: Money;
  /** KID or RF as banks exchange it (spaces removed, upper case), when the invoice carries one. */
  reference?: string;
  dueDate: LocalDate;
  /** Line of the file it was read from. */
  line: number;
}

/** One open receivable of a company, as matching sees it. */
export interface OpenReceivable extends Omit<ReceivableLine, 'line'> {
  company: string;
  /**
   * The day (company time zone) the ERP's next open-items file no longer listed it: paid or
   * withdrawn there. A credit booked up to that day may still have paid it; a later one is not matched to it.
   */
  closedOn?: LocalDate;
}

/** A name at least this alike is a candidate for the amount-customer-date rule (0–1). */
export const MIN_NAME_SIMILARITY = 0.5;

export interface CreditMatchOptions {
  tolerances: Tolerances;
  /** Pairs a person rejected, as proposalKey(invoice, transactionId): never proposed again. */
  rejected?: ReadonlySet<string>;
  /** Only credits booked on days for which this is true become findings; the others still pay receivables. */
  inScope?: (date: LocalDate) => boolean;
  /** Whether a credit matching no receivable needs a person (the company keeps its receivables in settle). */
  unmatchedNeedsPerson: boolean;
}

/** The key of a proposed pair: what was expected (payment id or invoice) and the booking. */
export function proposalKey(expected: string, transactionId: string): string {
  return `${expected}\u0000${transactionId}`;
}

interface Allocation {
  receivable: number;
  rule: CreditRule;
  evidence: Evidence;
  /** What was still open on the receivable before this credit. */
  openBefore: bigint;
}

export function creditFindings(
  transactions: readonly BookedTransaction[],
  receivables: readonly OpenReceivable[],
  options: CreditMatchOptions,
): Finding[] {
  const t = options.tolerances;
  const open = receivables.map((r) => r.amount.minor);
  const credits = transactions
    .map((tx, i) => ({ tx, i }))
    .filter(({ tx }) => tx.amount.minor > 0n)
    .sort((a, b) => (a.tx.bookingDate < b.tx.bookingDate ? -1 : a.tx.bookingDate > b.tx.bookingDate ? 1 : a.i - b.i))
    .map(({ tx }) => tx);
  const byReference = new Map<string, number[]>();
  receivables.forEach((r, i) => {
    if (!r.reference) return;
    const list = byReference.get(r.reference);
    if (list) list.push(i);
    else byReference.set(r.reference, [i]);
  });
  // The receivables by due date: a credit without a reference is weighed against those due within
  // its window only, found by binary search, where it was weighed against every receivable
  // (100,000 such credits × 200,000 receivables: 2e10 steps). Taken in the receivables' own order,
  // so the best is the one a scan of them all finds.
  const byDue = receivables
    .map((_, r) => r)
    .sort((a, b) => compareDates(receivables[a]!.dueDate, receivables[b]!.dueDate) || a - b);
  const dues = byDue.map((r) => receivables[r]!.dueDate);
  /** The receivables due from `from` to `to` (inclusive), in their own order. */
  const dueBetween = (from: LocalDate, to: LocalDate): number[] =>
    byDue
      .slice(
        firstWhere(dues, (d) => d >= from),
        firstWhere(dues, (d) => d > to),
      )
      .sort((a, b) => a - b);
  const feeOf = new Map<string, bigint>();
  const fee = (currency: string): bigint => {
    let minor = feeOf.get(currency);
    if (minor === undefined) feeOf.set(currency, (minor = decimalToMinor(t.fee, currency)));
    return minor;
  };
  /** A pair a person rejected, or a receivable the ERP closed before this credit was booked. */
  const excluded = (r: number, tx: BookedTransaction): boolean => {
    const closedOn = receivables[r]!.closedOn;
    if (closedOn !== undefined && tx.bookingDate > closedOn) return true;
    return options.rejected?.has(proposalKey(receivables[r]!.invoice, tx.id)) ?? false;
  };

  const weigh = (r: number, tx: BookedTransaction, identity: Identity): Evidence => {
    const receivable = receivables[r]!;
    const expected: Money = { minor: open[r]!, currency: receivable.amount.currency };
    return weighEvidence({
      identity,
      currency: receivable.amount.currency,
      amountDifferenceMinor:
        tx.amount.currency === receivable.amount.currency ? tx.amount.minor - expected.minor : undefined,
      allowedMinor: allowedDifferenceMinor(t, expected, tx.amount),
      feeMinor: decimalToMinor(t.fee, receivable.amount.currency),
      feeSign: -1,
      days: daysBetween(receivable.dueDate, tx.bookingDate),
      window: t.dueDateWindow,
    });
  };

  const findings: Finding[] = [];
  for (const tx of credits) {
    const allocation = byReferenceRule(tx) ?? byAmountCustomerDate(tx);
    if (allocation) open[allocation.receivable] = open[allocation.receivable]! - tx.amount.minor;
    if (options.inScope && !options.inScope(tx.bookingDate)) continue;
    findings.push(allocation ? matchedCredit(tx, allocation) : unmatchedCredit(tx));
  }
  return findings;

  function byReferenceRule(tx: BookedTransaction): Allocation | undefined {
    const ref = creditReferenceOf(tx);
    const candidates = ref ? (byReference.get(ref.value) ?? []) : [];
    // An instalment goes to the first receivable with this reference that is still open; a
    // payment to one already paid is an over-payment of that one.
    let chosen = -1;
    for (const r of candidates) {
      if (receivables[r]!.amount.currency !== tx.amount.currency || excluded(r, tx)) continue;
      if (chosen === -1) chosen = r;
      if (open[r]! > 0n) {
        chosen = r;
        break;
      }
    }
    if (chosen === -1) return undefined;
    return {
      receivable: chosen,
      rule: 'creditor-reference',
      evidence: weigh(chosen, tx, { kind: 'reference', what: 'creditor reference' }),
      openBefore: open[chosen]!,
    };
  }

  function byAmountCustomerDate(tx: BookedTransaction): Allocation | undefined {
    if (!tx.counterpartyName) return undefined;
    let best: Allocation | undefined;
    // Due at most `before` days after the booking and at most `after` days before it.
    const window = dueBetween(
      addDays(tx.bookingDate, -t.dueDateWindow.after),
      addDays(tx.bookingDate, t.dueDateWindow.before),
    );
    for (const r of window) {
      const receivable = receivables[r]!;
      if (open[r]! <= 0n || receivable.amount.currency !== tx.amount.currency) continue;
      const diff = tx.amount.minor - open[r]!;
      const allowed = allowedDifferenceMinor(t, { minor: open[r]!, currency: receivable.amount.currency }, tx.amount);
      if (abs(diff) > allowed && !(diff < 0n && -diff <= fee(receivable.amount.currency))) continue;
      const days = daysBetween(receivable.dueDate, tx.bookingDate);
      if (days < -t.dueDateWindow.before || days > t.dueDateWindow.after || excluded(r, tx)) continue;
      const similarity = nameSimilarity(tx.counterpartyName, receivable.customer);
      if (similarity < MIN_NAME_SIMILARITY) continue;
      const evidence = weigh(r, tx, { kind: 'name', similarity });
      if (!best || evidence.score > best.evidence.score)
        best = { receivable: r, rule: 'amount-customer-date', evidence, openBefore: open[r]! };
    }
    return best;
  }

  function matchedCredit(tx: BookedTransaction, a: Allocation): Finding {
    const receivable = receivables[a.receivable]!;
    const currency = receivable.amount.currency;
    const diff = tx.amount.minor - a.openBefore;
    const allowed = allowedDifferenceMinor(t, { minor: a.openBefore, currency }, tx.amount);
    const settled = diff === 0n || abs(diff) <= allowed || a.evidence.fee;
    const paid = formatAmount(tx.amount);
    const owed = formatAmount({ minor: a.openBefore, currency });
    const paidSaid = amountFigure(tx.amount);
    const owedSaid = amountFigure({ minor: a.openBefore, currency });
    const currencySaid = currencyFigure(currency);
    let type: FindingType;
    let exception: ExceptionReason | undefined;
    let message: string;
    let said: RecordedText;
    const how = a.rule === 'creditor-reference' ? 'its reference' : "amount, the customer's name and the date";
    const howSaid = recorded(
      a.rule === 'creditor-reference' ? 'findingText.byReference' : 'findingText.byAmountNameDate',
    );
    const { invoice, customer } = receivable;
    if (a.openBefore <= 0n) {
      type = 'credit_over';
      exception = 'over_amount';
      message = `Paid ${paid} ${currency} to invoice ${receivable.invoice}, which was already paid: the whole amount is an over-payment.`;
      said = recorded('findingText.creditAlreadyPaid', { paid: paidSaid, currency: currencySaid, invoice });
    } else if (settled && a.evidence.score < t.autoConfirmScore) {
      type = 'match_proposed';
      exception = 'data_mismatch';
      message = `Proposed for invoice ${receivable.invoice} of ${receivable.customer} by ${how}, but the evidence is weak (score ${a.evidence.score} < ${t.autoConfirmScore}): confirm or reject.`;
      said = recorded('findingText.creditProposed', {
        invoice,
        customer,
        how: howSaid,
        score: String(a.evidence.score),
        threshold: String(t.autoConfirmScore),
      });
    } else if (settled) {
      type = 'credit_matched';
      message = `Paid invoice ${receivable.invoice} of ${receivable.customer} (${owed} ${currency} open), matched by ${how}${diff !== 0n ? `, difference ${formatAmount({ minor: diff, currency })}${a.evidence.fee ? ' as a bank fee' : ' within the tolerance'}` : ''}.`;
      const difference =
        diff !== 0n
          ? recorded(a.evidence.fee ? 'findingText.creditFee' : 'findingText.creditTolerance', {
              difference: amountFigure({ minor: diff, currency }),
            })
          : '';
      said = recorded('findingText.creditMatched', {
        invoice,
        customer,
        owed: owedSaid,
        currency: currencySaid,
        how: howSaid,
        difference,
      });
    } else if (diff < 0n) {
      type = 'credit_partial';
      exception = 'under_amount';
      message = `Part payment of ${paid} of ${owed} ${currency} open on invoice ${receivable.invoice}; ${formatAmount({ minor: -diff, currency })} stays open (provisional: more payments may come).`;
      said = recorded('findingText.creditPartial', {
        paid: paidSaid,
        owed: owedSaid,
        currency: currencySaid,
        invoice,
        open: amountFigure({ minor: -diff, currency }),
      });
    } else {
      type = 'credit_over';
      exception = 'over_amount';
      message = `Paid ${paid} where ${owed} ${currency} was open on invoice ${receivable.invoice}: over-paid by ${formatAmount({ minor: diff, currency })}.`;
      said = recorded('findingText.creditOver', {
        paid: paidSaid,
        owed: owedSaid,
        currency: currencySaid,
        invoice,
        over: amountFigure({ minor: diff, currency }),
      });
    }
    return findingOf(type, {
      ...creditFields(tx),
      rule: a.rule,
      amountDifference: { minor: diff, currency },
      due: receivable.dueDate,
      dateDifferenceDays: daysBetween(receivable.dueDate, tx.bookingDate),
      invoice: receivable.invoice,
      evidence: a.evidence.text,
      score: a.evidence.score,
      exception,
      message,
      said,
    });
  }

  function unmatchedCredit(tx: BookedTransaction): Finding {
    const ref = creditReferenceOf(tx);
    return findingOf(
      'unmatched_credit',
      {
        ...creditFields(tx),
        message: `A credit of ${formatAmount(tx.amount)} ${tx.amount.currency} booked on ${tx.bookingDate}${ref ? ` with ${referenceText(ref)}` : ''} matches no open receivable.`,
        said: recorded('findingText.unmatchedCredit', {
          amount: amountFigure(tx.amount),
          currency: currencyFigure(tx.amount.currency),
          date: dateFigure(tx.bookingDate),
          reference: ref ? recorded('findingText.withReference', { reference: referenceText(ref) }) : '',
        }),
      },
      options.unmatchedNeedsPerson,
    );
  }
}

function creditFields(tx: BookedTransaction) {
  const name = tx.counterpartyName;
  const iban = tx.counterpartyIban;
  return {
    company: tx.company,
    accountIban: tx.accountIban,
    paymentIds: [] as string[],
    transactionId: tx.id,
    amount: tx.amount,
    bookedAmount: tx.amount,
    bookingDate: tx.bookingDate,
    counterparty: name && iban ? `${name} (${iban})` : (name ?? iban),
    creditorReference: referenceText(creditReferenceOf(tx)),
    remittance: tx.remittance,
  };
}

function compareDates(a: LocalDate, b: LocalDate): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first position in the sorted `dates` from which `holds` is true (it is false before it, true after). */
function firstWhere(dates: readonly LocalDate[], holds: (date: LocalDate) => boolean): number {
  let [lo, hi] = [0, dates.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(dates[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
