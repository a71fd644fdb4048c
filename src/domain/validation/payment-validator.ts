// Validation of a whole file, one line at a time: the line rules, plus the rules that need
// memory of the file (end-to-end ids seen so far) or the outside world (ids accepted before,
// injected by the caller as a lookup). Memory: the distinct end-to-end ids, as UTF-8 bytes in a
// compact set (about 35 bytes an id) — the only thing that grows with the file — and one
// control-total entry per open block.
import type { Issue, IssueLocation } from '../issue.js';
import { IssueCode } from './codes.js';
import { EndToEndIdSet } from './end-to-end-id-set.js';
import { currencyExponent } from '../currency.js';
import { checkControl, ControlTotals, parseDecimal, type ControlDeclaration, type Decimal } from './control-totals.js';
import {
  compileLineRules,
  type LineFormat,
  type LineResult,
  type LineRuleOptions,
  type LineRules,
} from './line-rules.js';
import type { RawPaymentLine } from './raw-line.js';

export interface ValidationOptions extends LineRuleOptions {
  /** True when a payment with this end-to-end id was accepted before (the pickup job asks the DB). */
  alreadyAccepted?: (endToEndId: string) => boolean | Promise<boolean>;
}

/** At most this many ids are made room for ahead (a table of about 40 MB); more grow it as they come. */
const MAX_EXPECTED_IDS = 4_000_000;

export class PaymentValidator {
  private readonly rules: LineRules;
  /** Each end-to-end id of the file with the line that used it first. */
  private readonly seen = new EndToEndIdSet();
  private readonly totals = new ControlTotals();
  private readonly exponents = new Map<string, number>();

  constructor(
    private readonly options: ValidationOptions,
    format: LineFormat,
  ) {
    this.rules = compileLineRules(options, format);
  }

  /**
   * The number of lines the file is expected to hold, estimated from the part read so far: the
   * end-to-end id set makes room for that many ids at once (at most MAX_EXPECTED_IDS, so a
   * misleading start of a file cannot reserve much more than it needs).
   */
  expectLines(lines: number): void {
    this.seen.expect(Math.min(lines, MAX_EXPECTED_IDS));
  }

  /**
   * Validates one line; the payment is returned only when the line has no error. Synchronous
   * unless the injected `alreadyAccepted` lookup returns a promise (a DB query).
   */
  line(raw: RawPaymentLine): LineResult | Promise<LineResult> {
    const result = this.rules(raw);
    // Only pain.001 lines belong to control blocks; CSV has no control totals to compute.
    if (raw.block !== undefined) this.totals.addAmount(raw.block, this.controlAmount(raw, result));
    if (raw.issues && raw.issues.length > 0) {
      result.issues.unshift(...raw.issues);
      if (raw.issues.some((i) => i.severity === 'error')) delete result.payment;
    }
    // A valid line's payment holds the id already trimmed: no second trim on the common path.
    const e2e = result.payment?.endToEndId ?? raw.fields.endToEndId?.value.trim();
    if (!e2e) return result;
    // The set copies the id's bytes: a parser's value can be a slice of its whole input chunk,
    // and a million kept slices would keep the chunks (hundreds of bytes per line) alive.
    const first = this.seen.addIfAbsent(e2e, raw.lineNumber);
    if (first !== undefined) {
      result.issues.push({
        code: IssueCode.E2E_DUPLICATE_IN_FILE,
        severity: 'error',
        location: e2eLocation(raw),
        field: 'endToEndId',
        message: `end-to-end id "${e2e}" is also used by line ${first} of this file`,
      });
      delete result.payment;
      return result;
    }
    const accepted = this.options.alreadyAccepted?.(e2e);
    if (accepted instanceof Promise) return accepted.then((known) => acceptedBefore(result, known, e2e, raw));
    return acceptedBefore(result, accepted, e2e, raw);
  }

  /**
   * The line's amount as CtrlSum counts it: the amount the rules already read (in minor units,
   * scaled by the currency's exponent), or the text read as a plain decimal when the rules
   * could not read it (too many decimals, unknown currency): CtrlSum adds what the ERP wrote.
   */
  private controlAmount(raw: RawPaymentLine, result: LineResult): Decimal | undefined {
    const money = result.amount;
    if (money && money.minor >= 0n) {
      let scale = this.exponents.get(money.currency);
      if (scale === undefined) this.exponents.set(money.currency, (scale = currencyExponent(money.currency) ?? 0));
      return { digits: money.minor, scale };
    }
    const text = raw.fields.amount?.value;
    return text === undefined ? undefined : parseDecimal(text);
  }

  /** Checks a control declaration (NbOfTxs/CtrlSum) against what was counted for its block. */
  control(declaration: ControlDeclaration): Issue[] {
    const issues = checkControl(declaration, this.totals.computed(declaration.block));
    this.totals.release(declaration.block);
    return issues;
  }
}

/**
 * Where the line's end-to-end id is: asked only for an issue, because a CSV field builds its
 * location when asked (one object per line saved on the common path).
 */
function e2eLocation(raw: RawPaymentLine): IssueLocation {
  return raw.fields.endToEndId?.location ?? raw.location;
}

function acceptedBefore(result: LineResult, known: boolean | undefined, e2e: string, raw: RawPaymentLine): LineResult {
  if (known) {
    result.issues.push({
      code: IssueCode.E2E_ALREADY_ACCEPTED,
      severity: 'error',
      location: e2eLocation(raw),
      field: 'endToEndId',
      message: `end-to-end id "${e2e}" was already accepted in an earlier file`,
    });
    delete result.payment;
  }
  return result;
}
