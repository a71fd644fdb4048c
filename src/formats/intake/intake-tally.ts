// What validateFile does with each item a reader hands out: issues reported, control totals
// checked, each line validated and counted, a valid payment handed to `onPayment`. Synchronous
// as long as nothing has to wait (the common case), so the per-line work is a small function of
// its own: inside validateFile, an async function resumed once a batch, the optimising compiler
// compiled it whole, twice in a 20,000-payment file, for more instructions than the lines
// themselves cost (docs/decisions/0017-intake-cost-in-instructions.md).
import type { Issue } from '../../domain/issue.js';
import type { PaymentInstruction } from '../../domain/payment.js';
import type { LineResult } from '../../domain/validation/line-rules.js';
import type { PaymentValidator } from '../../domain/validation/payment-validator.js';
import type { RawPaymentLine } from '../../domain/validation/raw-line.js';
import type { ReaderItem } from '../../domain/validation/reader-item.js';
import type { LinePlaces } from './line-places.js';

export interface TallyOptions {
  report: (issue: Issue) => void;
  /** The encoding issues of a line (none unless the file's encoding is in doubt). */
  encodingIssues: (line: RawPaymentLine) => Issue[];
  onPayment?: (payment: PaymentInstruction) => void | Promise<void>;
  places?: LinePlaces;
}

export class IntakeTally {
  /** Payments read (valid or not), and the valid ones. */
  payments = 0;
  validPayments = 0;
  /** Sum per currency of every amount that could be read, in first-seen order. */
  readonly totals = new Map<string, bigint>();
  // pain.001 payments inherit PmtInf fields: a bad debtor IBAN is reported once per block, not per line.
  private block: string | undefined;
  private reportedInBlock = new Set<string>();

  constructor(
    private readonly validator: PaymentValidator,
    private readonly options: TallyOptions,
  ) {}

  /** The batch's items from `from` on, in order; a promise when one of them has to wait (then the rest follow it). */
  take(batch: readonly ReaderItem[], from = 0): Promise<void> | undefined {
    for (let i = from; i < batch.length; i++) {
      const item = batch[i]!;
      if (item.kind === 'issue') this.options.report(item.issue);
      else if (item.kind === 'control') this.validator.control(item.declaration).forEach(this.options.report);
      else {
        const waiting = this.line(item.line);
        if (waiting) return waiting.then(() => this.take(batch, i + 1));
      }
    }
    return undefined;
  }

  private line(line: RawPaymentLine): Promise<void> | undefined {
    this.payments++;
    const encodingIssues = this.options.encodingIssues(line);
    encodingIssues.forEach(this.options.report);
    const pending = this.validator.line(line);
    if (pending instanceof Promise) return pending.then((result) => this.counted(line, result, encodingIssues));
    return this.counted(line, pending, encodingIssues);
  }

  private counted(line: RawPaymentLine, result: LineResult, encodingIssues: Issue[]): Promise<void> | undefined {
    if (encodingIssues.length > 0) delete result.payment;
    if (line.block !== this.block) {
      this.block = line.block;
      this.reportedInBlock = new Set();
      if (line.block !== undefined) this.options.places?.noteBlock(line.block, line.lineNumber);
    }
    const own = line.location.path;
    for (const issue of result.issues) {
      const inherited = own !== undefined && issue.location.path !== undefined && !issue.location.path.startsWith(own);
      const key = `${issue.code} ${issue.location.path}`;
      if (inherited && this.reportedInBlock.has(key)) continue;
      if (inherited) this.reportedInBlock.add(key);
      this.options.report(issue);
    }
    const amount = result.amount;
    if (amount) this.totals.set(amount.currency, (this.totals.get(amount.currency) ?? 0n) + amount.minor);
    if (result.payment) {
      this.validPayments++;
      const stored = this.options.onPayment?.(result.payment);
      if (stored instanceof Promise) return stored;
    }
    return undefined;
  }
}
