// A hold at pickup as the store writes it, and the facts the rule that decides it reads. The rule
// (src/domain/controls/pickup-holds.ts: likely duplicates, payment controls) is the domain's; the
// store only reads these facts inside the file's transaction and writes the holds it is handed
// (src/store/file-receiver.ts), so that what holds a line is decided in one place and the store
// decides nothing (docs/architecture.md, "Plans"). Types and one constant only: the store may
// import this file, and no rule (.dependency-cruiser.cjs, "store-holds-no-hold-rule").
import type { LocalDate } from './local-date.js';
import type { Money } from './money.js';
import type { PaymentInstruction } from './payment.js';
import type { RecordedText } from './recorded-text.js';

/** The rule id of the likely-duplicate hold (src/domain/likely-duplicate.ts), stored beside the controls' ids. */
export const DUPLICATE_RULE = 'duplicate';

/**
 * A line to store held: which accepted payment it looks like (the line itself for a control
 * hold), the reason in words, and for a control hold the rules, their evidence and how many
 * releases by different people it needs.
 */
export interface HoldInput {
  endToEndId: string;
  matchedPaymentId: string;
  reason: string;
  /** `reason` as a catalogue sentence, for the status file in the company's language. */
  reasonText?: RecordedText;
  /** Rule ids; absent means ['duplicate']. */
  rules?: string[];
  evidence?: string;
  /** `evidence` as recorded text (`heldEvidence.seen`), for a reader of another language. */
  evidenceText?: RecordedText;
  releases?: 1 | 2;
}

/** A message kept on a held line for the ERP's status file: a reason code, the words with the first. */
export interface HoldMessage extends Partial<RecordedText> {
  category: 'INFO';
  code: string;
  message: string;
}

/** A hold as the rule decided it: the line's hold and the messages its line keeps. */
export interface DecidedHold extends HoldInput {
  messages: HoldMessage[];
}

/** A payment the company accepted earlier, as the likely-duplicate rule compares a line with it. */
export interface EarlierPayment {
  id: string;
  lineNumber: number;
  endToEndId: string;
  fileName: string;
  /** When its file was received. */
  receivedAt: Date;
  creditorIban: string;
  amount: Money;
  creditorReference?: string | undefined;
  remittanceInformation?: string | undefined;
}

/**
 * A line of the file being received, already stored: its ids, and what its likely-duplicate key
 * is made of, so that a line whose key hashes alike is compared with it in full.
 */
export interface StoredLine extends Pick<
  PaymentInstruction,
  'creditorIban' | 'amount' | 'creditorReference' | 'remittanceInformation'
> {
  id: string;
  endToEndId: string;
}

/** Payments the company made to one creditor account under one name and ids: how many, since when. */
export interface PaidCreditor {
  account: string;
  name: string;
  orgId?: string | undefined;
  creditorId?: string | undefined;
  count: number;
  /** When the first of them was stored ("YYYY-MM-DD…"). */
  first: string;
}

/** What one debtor account already sends in one currency on one execution day, in minor units. */
export interface DayTotal {
  debtorIban: string;
  currency: string;
  /** "YYYY-MM-DD". */
  day: string;
  total: bigint;
}

/**
 * What the hold rule reads, inside the file's transaction. Held, rejected and cancelled lines are
 * no history for the controls (they were not paid); rejected and cancelled ones are no earlier
 * payment for the likely-duplicate rule.
 */
export interface PickupFacts {
  /**
   * The company's payments to `creditorIbans` stored at or after `since` (not rejected or
   * cancelled), oldest first, in line order; never the lines of the file being received.
   */
  earlierPayments(creditorIbans: readonly string[], since: Date): Promise<EarlierPayment[]>;
  /** Lines of the file being received already stored, by line number. */
  storedLines(lineNumbers: readonly number[]): Promise<Map<number, StoredLine>>;
  /** The company's paid creditors, and its day totals from `today` on. */
  controlHistory(today: LocalDate): Promise<{ paid: PaidCreditor[]; days: DayTotal[] }>;
}

/** The holds of one file as its batches come (a new one each time the file's transaction starts). */
export interface FileHoldRule {
  /** The holds of `batch` (whose rows get `ids`), in file order. */
  holds(batch: readonly PaymentInstruction[], ids: readonly string[], facts: PickupFacts): Promise<DecidedHold[]>;
}

/** The hold rule of a company's pickup: one `FileHoldRule` per receiving of a file. */
export interface PickupHoldRule {
  /** A fresh rule for one attempt at storing a file received at `receivedAt`. */
  forFile(receivedAt: Date): FileHoldRule;
}
