// The continuity rule for one account and booking day (docs/statements.md): the day opens at
// the bank's closing balance of the day before and closes at opening + Σ booked entries, which
// must equal the bank's closing balance of the day. Pure: figures in, verdict out.
/** Whether an account's day holds: chained to the day before and adding up. */
export type Continuity = 'ok' | 'gap' | 'mismatch' | 'unchecked';

export interface DayFigures {
  /** Σ of the booked entries of the day, signed minor units. */
  entrySum: bigint;
  entryCount: number;
  /** The bank's closingBooked of the day; undefined = the day is not complete yet. */
  bankClosing?: bigint;
  /** The bank's openingBooked of the day, when it reports one. */
  bankOpening?: bigint;
  /** The bank's closingBooked of the day before. */
  previousClosing?: bigint;
  /** True when the bank reported a closing balance for some earlier day (so a missing previous closing is a gap, not the start of history). */
  earlierClosingKnown: boolean;
}

export interface DayVerdict {
  continuity: Continuity;
  openingMinor?: bigint;
  closingMinor: bigint;
  finding?: string;
}

/** undefined when the day is not complete (no closing balance from the bank yet). */
export function checkDay(f: DayFigures, format: (minor: bigint) => string): DayVerdict | undefined {
  if (f.bankClosing === undefined) return undefined;
  const closing = f.bankClosing;
  if (f.previousClosing === undefined) {
    if (f.earlierClosingKnown) {
      const verdict: DayVerdict = {
        continuity: 'gap',
        closingMinor: closing,
        finding: 'the bank reported no closing balance for the day before, so the opening balance is unknown',
      };
      if (f.bankOpening !== undefined) verdict.openingMinor = f.bankOpening;
      return verdict;
    }
    // The first day of the account's history at the bank: nothing before it to chain to.
    if (f.bankOpening !== undefined) return against(f.bankOpening, closing, f, format, 'ok');
    return {
      continuity: 'unchecked',
      openingMinor: closing - f.entrySum,
      closingMinor: closing,
      finding: 'first day of the history: opening balance derived as closing − entries',
    };
  }
  const opening = f.previousClosing;
  if (f.bankOpening !== undefined && f.bankOpening !== opening) {
    return {
      continuity: 'mismatch',
      openingMinor: opening,
      closingMinor: closing,
      finding: `the bank's opening balance ${format(f.bankOpening)} differs from its closing balance of the day before ${format(opening)}`,
    };
  }
  return against(opening, closing, f, format, 'ok');
}

function against(
  opening: bigint,
  closing: bigint,
  f: DayFigures,
  format: (minor: bigint) => string,
  ok: Continuity,
): DayVerdict {
  const expected = opening + f.entrySum;
  if (expected === closing) return { continuity: ok, openingMinor: opening, closingMinor: closing };
  return {
    continuity: 'mismatch',
    openingMinor: opening,
    closingMinor: closing,
    finding: `opening ${format(opening)} + ${f.entryCount} entries ${format(f.entrySum)} = ${format(expected)}, but the bank's closing balance is ${format(closing)} (difference ${format(closing - expected)})`,
  };
}
