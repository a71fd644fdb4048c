// What a CSV profile says about each column of its files beyond the payment fields it maps
// (`columns`): a rule (a value settle accepts only as listed, a column that must agree with a
// payment field, a control total every row repeats), or ignored with why it does not change
// what is paid. A column of a file that the profile does not name at all is refused, located at
// the header: settle cannot tell whether it changes what is paid. docs/formats/csv-profiles.md
// shows each shipped profile's columns, generated from the profiles.
import type { PaymentField } from '../../domain/validation/raw-line.js';

/** A column settle reads besides the payment fields. */
export type ColumnRule =
  /** Accepted only with one of these values ("" for an empty cell); any other is refused, located. */
  | { allowed: string[]; code?: 'PAYMENT_METHOD_UNSUPPORTED' | 'ELEMENT_UNSUPPORTED'; why: string }
  /** Must hold the same value as the payment field (compared ignoring case and surrounding spaces). */
  | { sameAs: PaymentField; why: string }
  /** A control total of the whole file that every row repeats: the number of payments, or their sum. */
  | { control: 'nbOfTxs' | 'ctrlSum' };

export interface ColumnPolicy {
  /** Header name → its rule. */
  rules: Readonly<Record<string, ColumnRule>>;
  /** Header name → why the column does not change what is paid. */
  ignored: Readonly<Record<string, string>>;
}

export const CONTROLS = ['nbOfTxs', 'ctrlSum'] as const;
export const RULE_CODES = ['PAYMENT_METHOD_UNSUPPORTED', 'ELEMENT_UNSUPPORTED'] as const;

/** The header names a profile names (columns, rules, ignored), lower-cased as the header is matched. */
export function namedHeaders(profile: {
  columns: Readonly<Partial<Record<PaymentField, string>>>;
  rules: Readonly<Record<string, ColumnRule>>;
  ignored: Readonly<Record<string, string>>;
}): string[] {
  return [...Object.values(profile.columns), ...Object.keys(profile.rules), ...Object.keys(profile.ignored)].map((h) =>
    h.trim().toLowerCase(),
  );
}
