// The status reason codes the ERP's status files (pain.002, status CSV) give a line a rule held
// (status PDNG) or a person dropped after a hold (CANC), one code per rule (docs/formats/pain002.md).
// An ISO 20022 ExternalStatusReason1Code where one means what the rule saw (DUPL, "duplicate
// payment"), else a proprietary code (StsRsnInf/Rsn/Prtry) starting with SETTLE-: no bank sends
// those, so an ERP tells settle's holds and drops apart from a bank's rejection even where
// pain.002.001.03 must write CANC as RJCT. The drop codes are all proprietary for the same reason:
// a bank may reject a payment as DUPL itself.
import type { RecordedText } from '../recorded-text.js';
import { DUPLICATE_RULE, type ControlRule } from './settings.js';

export interface RuleReasonCodes {
  /** While the line waits for a person: TxSts PDNG. */
  held: string;
  /** After a person dropped it: TxSts CANC (RJCT in pain.002.001.03). */
  dropped: string;
  /** What the code means, in the accountant's words. */
  words: string;
}

export const RULE_REASON_CODES: Readonly<Record<ControlRule | typeof DUPLICATE_RULE, RuleReasonCodes>> = {
  [DUPLICATE_RULE]: {
    held: 'DUPL',
    dropped: 'SETTLE-DROPPED-DUPLICATE',
    words: 'a likely duplicate of another payment',
  },
  'changed-account': {
    held: 'SETTLE-HELD-CHANGED-ACCOUNT',
    dropped: 'SETTLE-DROPPED-CHANGED-ACCOUNT',
    words: 'a creditor paid before, to an account it was never paid to',
  },
  'new-account': {
    held: 'SETTLE-HELD-NEW-ACCOUNT',
    dropped: 'SETTLE-DROPPED-NEW-ACCOUNT',
    words: 'an account the company never paid',
  },
  'limit-line': {
    held: 'SETTLE-HELD-LIMIT-LINE',
    dropped: 'SETTLE-DROPPED-LIMIT-LINE',
    words: 'above the limit a line',
  },
  'limit-file': {
    held: 'SETTLE-HELD-LIMIT-FILE',
    dropped: 'SETTLE-DROPPED-LIMIT-FILE',
    words: 'passes the limit a file',
  },
  'limit-debtor-day': {
    held: 'SETTLE-HELD-LIMIT-DEBTOR-DAY',
    dropped: 'SETTLE-DROPPED-LIMIT-DEBTOR-DAY',
    words: 'passes the limit of its debtor account a day',
  },
  'unusual-time': {
    held: 'SETTLE-HELD-UNUSUAL-TIME',
    dropped: 'SETTLE-DROPPED-UNUSUAL-TIME',
    words: 'its file arrived outside the expected hours',
  },
};

const codesOf = (rule: string): RuleReasonCodes | undefined =>
  (RULE_REASON_CODES as Readonly<Record<string, RuleReasonCodes>>)[rule];

/** The codes of a line held by `rules`, one per rule, in the rules' order. */
export function heldReasonCodes(rules: readonly string[]): string[] {
  return [...new Set(rules.map((r) => codesOf(r)?.held ?? RULE_REASON_CODES[DUPLICATE_RULE].held))];
}

/** The codes of a line a person dropped after a hold by `rules`, one per rule. */
export function droppedReasonCodes(rules: readonly string[]): string[] {
  return [...new Set(rules.map((r) => codesOf(r)?.dropped ?? RULE_REASON_CODES[DUPLICATE_RULE].dropped))];
}

const HOLD_CODES: ReadonlySet<string> = new Set(Object.values(RULE_REASON_CODES).flatMap((c) => [c.held, c.dropped]));

/** Whether `code` is one settle gives a held or dropped line (kept as it is in the status files). */
export function isHoldReasonCode(code: string): boolean {
  return HOLD_CODES.has(code);
}

/**
 * The messages stored with a held or dropped line for its status file: one per rule with its
 * code, the words (`text`) with the first, so the file reads "CODE1,CODE2: text". The words are
 * English; `words`, the same sentence as a catalogue key and values, goes beside them so that the
 * file is written in the company's language (docs/formats/pain002.md).
 */
export function holdMessages(
  codes: readonly string[],
  text: string,
  words?: RecordedText,
): { category: 'INFO'; code: string; message: string; key?: string; values?: RecordedText['values'] }[] {
  return codes.map((code, i) => ({
    category: 'INFO',
    code,
    message: i === 0 ? text : '',
    ...(i === 0 && words ? words : {}),
  }));
}
