// The likely-duplicate holds of pickup (src/domain/likely-duplicate.ts): a line like a payment the
// company accepted from another file within the window, or like an earlier line of its own file, is
// held for a person with the line it repeats and the reason in words. Decided here from the facts
// the store reads (src/domain/hold.ts, `PickupFacts`); pickup-holds.ts combines them with the
// payment controls, and `settle controls test` asks the same classes.
import type { EarlierPayment, HoldInput, PickupFacts, StoredLine } from '../hold.js';
import { likelyDuplicateKey } from '../likely-duplicate.js';
import type { PaymentInstruction } from '../payment.js';
import { recorded } from '../recorded-text.js';
import { FirstLines, type KeyHash } from './first-lines.js';

/**
 * A company's payments accepted since a time, by likely-duplicate key, loaded per creditor
 * account as lines with new creditors come: a file received in batches asks for each creditor
 * once (through payments_company_creditor_ix), not once per batch; the first payment of a key is
 * the one a line is matched to.
 */
export class OtherFileDuplicates {
  private readonly byKey = new Map<string, EarlierPayment>();
  private readonly creditors = new Set<string>();

  constructor(private readonly since: Date) {}

  /** Reads the earlier payments to the creditors of `payments` not asked for yet. */
  async load(facts: Pick<PickupFacts, 'earlierPayments'>, payments: readonly PaymentInstruction[]): Promise<void> {
    const fresh = [...new Set(payments.map((p) => p.creditorIban))].filter((iban) => !this.creditors.has(iban));
    for (const iban of fresh) this.creditors.add(iban);
    if (fresh.length === 0) return;
    for (const earlier of await facts.earlierPayments(fresh, this.since)) {
      const key = likelyDuplicateKey(earlier);
      if (!this.byKey.has(key)) this.byKey.set(key, earlier);
    }
  }

  /** The holds for `payments`, whose creditors must have been loaded. */
  holds(payments: readonly PaymentInstruction[]): HoldInput[] {
    const holds: HoldInput[] = [];
    if (this.byKey.size === 0) return holds;
    for (const p of payments) {
      const match = this.byKey.get(likelyDuplicateKey(p));
      if (!match) continue;
      const when = match.receivedAt.toISOString().slice(0, 16).replace('T', ' ');
      holds.push({
        endToEndId: p.endToEndId,
        matchedPaymentId: match.id,
        reason: `likely duplicate: same creditor account, amount and reference as line ${match.lineNumber} (end-to-end id ${match.endToEndId}) of "${match.fileName}", accepted ${when} UTC`,
        reasonText: recorded('held.reason.otherFile', {
          line: match.lineNumber,
          e2e: match.endToEndId,
          file: match.fileName,
          at: when,
        }),
      });
    }
    return holds;
  }
}

/** A line of this file held as a duplicate of an earlier line of it: the line it repeats, by number. */
export interface SameFileRepeat {
  payment: PaymentInstruction;
  firstLine: number;
}

/** The likely-duplicate keys of lines kept from earlier batches, by line number, read when a batch needs them. */
export type EarlierKeys = (lineNumbers: readonly number[]) => Promise<ReadonlyMap<number, string>>;

/** For a file read as one batch, or a first batch: no line was kept before it. */
export const NO_EARLIER_LINES: EarlierKeys = () => Promise.resolve(new Map());

/**
 * The lines of one file as they come, the first line of each likely-duplicate key kept: a later
 * line with the same creditor account, amount and reference is a repeat, whatever its end-to-end
 * id (an ERP that lists one invoice twice in a payment run). Only a hash of each key and its line
 * are kept (first-lines.ts): about 12 bytes a line, against about 30 for its end-to-end ids; a
 * line whose hash matches is a repeat only when the key of the line kept is the same,
 * compared in full (read back from the store for a line of an earlier batch).
 */
export class SameFileLines {
  private readonly firsts: FirstLines;

  constructor(options?: { hash?: KeyHash }) {
    this.firsts = new FirstLines(options);
  }

  /** Bytes the kept lines cost: the table's, the same for a key of any length. */
  get byteLength(): number {
    return this.firsts.byteLength;
  }

  /**
   * The lines of `batch` (in file order) whose key an earlier line of the file had; `earlierKeys`
   * is asked, once, for the keys of lines of earlier batches whose hash a line of `batch` has.
   */
  async repeats(batch: readonly PaymentInstruction[], earlierKeys: EarlierKeys): Promise<SameFileRepeat[]> {
    const keys = batch.map(likelyDuplicateKey);
    const hashes = keys.map((key) => this.firsts.hashOf(key));
    const candidates = new Set<number>();
    for (const hash of hashes) for (const line of this.firsts.linesWith(hash)) candidates.add(line);
    const earlier = candidates.size === 0 ? new Map<number, string>() : await earlierKeys([...candidates]);
    // This batch's first lines, whose keys are at hand: a repeat within the batch needs no read.
    const kept = new Map<number, string>();
    const repeats: SameFileRepeat[] = [];
    batch.forEach((payment, i) => {
      const key = keys[i]!;
      const firstLine = this.firsts.linesWith(hashes[i]!).find((line) => (kept.get(line) ?? earlier.get(line)) === key);
      if (firstLine !== undefined) repeats.push({ payment, firstLine });
      else {
        this.firsts.add(hashes[i]!, payment.lineNumber);
        kept.set(payment.lineNumber, key);
      }
    });
    return repeats;
  }
}

/** The hold of a line that repeats an earlier line of its own file, with the reason in words. */
export function sameFileHold(repeat: SameFileRepeat, first: { id: string; endToEndId: string }): HoldInput {
  return {
    endToEndId: repeat.payment.endToEndId,
    matchedPaymentId: first.id,
    reason: `likely duplicate: same creditor account, amount and reference as line ${repeat.firstLine} (end-to-end id ${first.endToEndId}) of this file`,
    reasonText: recorded('held.reason.sameFile', { line: repeat.firstLine, e2e: first.endToEndId }),
  };
}

/**
 * One file's likely-duplicate holds as its batches come: a line like a payment of another file
 * is held as its duplicate; else a line like an earlier line of this file (in this batch, or in
 * one already stored) is held as a duplicate of that line, so that a file listing one invoice
 * twice pays it once.
 */
export class FileDuplicates {
  private readonly other: OtherFileDuplicates;
  private readonly sameFile = new SameFileLines();

  constructor(since: Date) {
    this.other = new OtherFileDuplicates(since);
  }

  /** The holds of `batch` (whose rows get `ids`), in file order. */
  async holds(batch: readonly PaymentInstruction[], ids: readonly string[], facts: PickupFacts): Promise<HoldInput[]> {
    await this.other.load(facts, batch);
    const holds = this.other.holds(batch);
    let stored: ReadonlyMap<number, StoredLine> = new Map();
    const repeats = await this.sameFile.repeats(batch, async (lines) => {
      stored = await facts.storedLines(lines);
      return new Map([...stored].map(([line, s]) => [line, likelyDuplicateKey(s)]));
    });
    if (repeats.length === 0) return holds;
    const heldAlready = new Set(holds.map((h) => h.endToEndId));
    const inBatch = new Map(batch.map((p, i) => [p.lineNumber, { id: ids[i]!, endToEndId: p.endToEndId }]));
    for (const repeat of repeats) {
      const first = inBatch.get(repeat.firstLine) ?? stored.get(repeat.firstLine);
      if (first && !heldAlready.has(repeat.payment.endToEndId)) holds.push(sameFileHold(repeat, first));
    }
    // In file order, as the file's report lists them.
    const order = new Map(batch.map((p, i) => [p.endToEndId, i]));
    return holds.sort((a, b) => order.get(a.endToEndId)! - order.get(b.endToEndId)!);
  }
}
