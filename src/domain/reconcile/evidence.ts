// The evidence of a match, and the confidence score computed from it. Every match names what
// agreed (a reference, an account, a name, the amount, the date) and by how much amount and
// date differ; the score starts at 100 and loses points for every piece of evidence that is
// missing or weaker, so two matches by the same rule score differently when their evidence
// differs. docs/reconciliation.md ("Evidence and score") gives the same table.
import { formatMinor } from '../money.js';
import { currencyExponent } from '../currency.js';
import { abs, withinWindow, type DayWindow } from './tolerances.js';

export type Identity =
  /** An end-to-end id or structured creditor reference agreed exactly. */
  | { kind: 'reference'; what: 'end-to-end id' | 'creditor reference' }
  /** The counterparty's account agreed (and the own account). */
  | { kind: 'account' }
  /** Only the counterparty's name, this alike (0–1). */
  | { kind: 'name'; similarity: number };

export interface EvidenceInput {
  identity: Identity;
  /** Further fields that agreed, e.g. "debtor account". */
  alsoAgreed?: readonly string[];
  currency: string;
  /** Booked minus expected, in minor units, signed from the expected side (more booked = positive); undefined when the currencies differ. */
  amountDifferenceMinor: bigint | undefined;
  /** The tolerated difference for this pair of amounts. */
  allowedMinor: bigint;
  /** The tolerated bank fee (see Tolerances.fee), in minor units. */
  feeMinor: bigint;
  /** Which sign of difference a fee explains: +1 a debit larger than sent, -1 a credit smaller than invoiced. */
  feeSign: 1 | -1;
  /** Booking date minus expected date, in days. */
  days: number;
  window: DayWindow;
}

export interface Evidence {
  readonly agreed: readonly string[];
  readonly differed: readonly string[];
  /** 0–100, from the evidence: at or above the threshold a match confirms itself. */
  readonly score: number;
  /** The difference is within the fee tolerance and named as a fee. */
  readonly fee: boolean;
  /** One line for the report: "agreed: …; differed: …; 1 day after; score 90". */
  readonly text: string;
}

/** Points lost per missing or weaker piece of evidence (documented in docs/reconciliation.md). */
export const SCORE_PENALTY = {
  /** No reference, but the counterparty account agreed. */
  accountOnly: 10,
  /** No reference and no account, only a name: this much plus up to `nameUnlike` for a name less than identical. */
  nameOnly: 15,
  nameUnlike: 40,
  /** The difference is a bank fee within the fee tolerance. */
  fee: 10,
  /** A difference within the amount tolerance: this much, plus up to `amountScaled` in proportion to the difference. */
  amountWithin: 10,
  amountScaled: 20,
  /** A difference beyond every tolerance, or another currency. */
  amountBeyond: 40,
  /** Up to this much in proportion to the days away inside the window. */
  dateScaled: 5,
  /** Booked outside the window. */
  dateBeyond: 20,
} as const;

export function weighEvidence(input: EvidenceInput): Evidence {
  const agreed: string[] = [];
  const differed: string[] = [];
  const P = SCORE_PENALTY;
  let penalty = 0;
  const id = input.identity;
  if (id.kind === 'reference') agreed.push(id.what);
  else if (id.kind === 'account') {
    agreed.push('counterparty account');
    penalty += P.accountOnly;
  } else {
    (id.similarity === 1 ? agreed : differed).push(`name (${Math.round(id.similarity * 100)} % alike)`);
    penalty += P.nameOnly + Math.round((1 - id.similarity) * P.nameUnlike);
  }
  agreed.push(...(input.alsoAgreed ?? []));

  const diff = input.amountDifferenceMinor;
  let fee = false;
  const amount = (minor: bigint): string => formatMinor(minor, currencyExponent(input.currency) ?? 2);
  if (diff === undefined) {
    differed.push('currency');
    penalty += P.amountBeyond;
  } else if (diff === 0n) agreed.push('amount');
  else {
    const size = abs(diff);
    const sign = diff > 0n ? 1 : -1;
    if (sign === input.feeSign && size <= input.feeMinor) {
      fee = true;
      differed.push(`amount by ${amount(diff)} (a bank fee within the fee tolerance)`);
      penalty += P.fee;
    } else if (size <= input.allowedMinor) {
      differed.push(`amount by ${amount(diff)} (within the tolerance of ${amount(input.allowedMinor)})`);
      penalty += P.amountWithin + Number((BigInt(P.amountScaled) * size) / (input.allowedMinor || 1n));
    } else {
      differed.push(`amount by ${amount(diff)}`);
      penalty += P.amountBeyond;
    }
  }

  const days = input.days;
  const when =
    days === 0
      ? 'same day'
      : `${Math.abs(days)} day${Math.abs(days) === 1 ? '' : 's'} ${days > 0 ? 'after' : 'before'}`;
  if (withinWindow(input.window, days)) {
    if (days === 0) agreed.push('date');
    else {
      differed.push(`date, ${when}`);
      const side = days > 0 ? input.window.after : input.window.before;
      penalty += Math.round((P.dateScaled * Math.abs(days)) / Math.max(1, side));
    }
  } else {
    differed.push(`date, ${when}, outside the window`);
    penalty += P.dateBeyond;
  }
  const score = Math.max(0, 100 - penalty);
  const text = `agreed: ${agreed.join(', ') || 'nothing'}${differed.length > 0 ? `; differed: ${differed.join(', ')}` : ''}; score ${score}`;
  return { agreed, differed, score, fee, text };
}
