// How a file's accepted payments become bulk credit transfers: one bulk per debtor account,
// execution date and batch-booking choice, at most `maxLines` lines each. Deterministic — the
// same payments always give the same bulks in the same positions — because a bulk's position
// fixes its Idempotency-Key (architecture §2.2).
import type { LocalDate } from '../local-date.js';
import type { LineSpan } from './plan.js';

export type { LineSpan };

export interface PlannablePayment {
  id: string;
  debtorIban: string;
  requestedExecutionDate: LocalDate;
  /** The file's own batch-booking request; undefined = the company default. */
  batchBooking?: boolean;
  lineNumber: number;
}

export interface PlannedBulk {
  position: number;
  debtorIban: string;
  executionDate: LocalDate;
  batchBooking: boolean;
  paymentIds: string[];
  /**
   * The first and last line numbers of its lines in their file: the store moves the lines into
   * their bulk through the file's lines in that span, not through every line of the file.
   */
  lineSpan: LineSpan;
}

export function planBulks(
  payments: readonly PlannablePayment[],
  options: { maxLines: number; defaultBatchBooking: boolean },
): PlannedBulk[] {
  if (!Number.isInteger(options.maxLines) || options.maxLines < 1)
    throw new RangeError('maxLines must be a positive integer');
  const groups = new Map<
    string,
    { debtorIban: string; executionDate: LocalDate; batchBooking: boolean; lines: PlannablePayment[] }
  >();
  for (const p of payments) {
    const batchBooking = p.batchBooking ?? options.defaultBatchBooking;
    const key = `${p.debtorIban}\u0000${p.requestedExecutionDate}\u0000${batchBooking ? 1 : 0}`;
    let group = groups.get(key);
    if (!group)
      groups.set(
        key,
        (group = { debtorIban: p.debtorIban, executionDate: p.requestedExecutionDate, batchBooking, lines: [] }),
      );
    group.lines.push(p);
  }
  const plans: PlannedBulk[] = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key)!;
    const lines = [...group.lines].sort((a, b) => a.lineNumber - b.lineNumber || (a.id < b.id ? -1 : 1));
    for (let i = 0; i < lines.length; i += options.maxLines) {
      const slice = lines.slice(i, i + options.maxLines);
      plans.push({
        position: plans.length,
        debtorIban: group.debtorIban,
        executionDate: group.executionDate,
        batchBooking: group.batchBooking,
        paymentIds: slice.map((l) => l.id),
        lineSpan: { first: slice[0]!.lineNumber, last: slice.at(-1)!.lineNumber },
      });
    }
  }
  return plans;
}
