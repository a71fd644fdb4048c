// pain.001 control values (NbOfTxs, CtrlSum at group and PmtInf level). Computing the totals
// and checking them are separate steps: ControlTotals only counts what the reader saw, and
// checkControl compares one declaration with what was counted. CtrlSum is a plain decimal sum
// over all currencies (that is how ISO 20022 defines it), kept as a scaled bigint, never a float.
import type { Issue, IssueLocation } from '../issue.js';
import { IssueCode } from './codes.js';
import type { RawField } from './raw-line.js';

/** A decimal as digits and scale: 12.50 → { digits: 1250n, scale: 2 }. */
export interface Decimal {
  digits: bigint;
  scale: number;
}

const DECIMAL = /^\s*(\d{1,30})(?:\.(\d{1,18}))?\s*$/;

export function parseDecimal(text: string): Decimal | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  return { digits: BigInt((m[1] ?? '0') + fraction), scale: fraction.length };
}

function rescale(d: Decimal, scale: number): bigint {
  return d.digits * 10n ** BigInt(scale - d.scale);
}

export function addDecimal(a: Decimal, b: Decimal): Decimal {
  if (a.scale === b.scale) return { digits: a.digits + b.digits, scale: a.scale };
  const scale = Math.max(a.scale, b.scale);
  return { digits: rescale(a, scale) + rescale(b, scale), scale };
}

export function equalDecimal(a: Decimal, b: Decimal): boolean {
  const scale = Math.max(a.scale, b.scale);
  return rescale(a, scale) === rescale(b, scale);
}

export function formatDecimal(d: Decimal): string {
  if (d.scale === 0) return d.digits.toString();
  const s = d.digits.toString().padStart(d.scale + 1, '0');
  return `${s.slice(0, -d.scale)}.${s.slice(-d.scale)}`;
}

export interface ComputedControl {
  count: number;
  /** undefined when an amount could not be read: its own issue says so, the sum is not checked. */
  sum: Decimal | undefined;
}

export interface ControlDeclaration {
  level: 'group' | 'payment-info';
  /** The block's key: "" for the group, the PmtInf path otherwise. */
  block: string;
  /** What declares it, in messages ("column nb_of_txs" of a CSV file); default: the group header or block. */
  label?: string;
  location: IssueLocation;
  nbOfTxs?: RawField;
  ctrlSum?: RawField;
}

/** Counts payments and sums amounts per block and for the whole file. Memory: one entry per open block. */
export class ControlTotals {
  private readonly blocks = new Map<string, ComputedControl>();

  add(block: string | undefined, amountText: string | undefined): void {
    this.addAmount(block, amountText === undefined ? undefined : parseDecimal(amountText));
  }

  /** Counts one payment with its amount (undefined: unreadable, so the sum is not checked). */
  addAmount(block: string | undefined, amount: Decimal | undefined): void {
    this.addTo('', amount);
    if (block !== undefined && block !== '') this.addTo(block, amount);
  }

  computed(block: string): ComputedControl {
    return this.blocks.get(block) ?? { count: 0, sum: { digits: 0n, scale: 0 } };
  }

  /** Forgets a block once it has been checked. */
  release(block: string): void {
    if (block !== '') this.blocks.delete(block);
  }

  private addTo(block: string, amount: Decimal | undefined): void {
    let c = this.blocks.get(block);
    if (!c) this.blocks.set(block, (c = { count: 0, sum: { digits: 0n, scale: 0 } }));
    c.count++;
    const sum = c.sum;
    if (!sum || !amount) c.sum = undefined;
    // In place when the scales agree (one currency, the usual case): no object per line.
    else if (sum.scale === amount.scale) sum.digits += amount.digits;
    else c.sum = addDecimal(sum, amount);
  }
}

export function checkControl(declaration: ControlDeclaration, computed: ComputedControl): Issue[] {
  const issues: Issue[] = [];
  const where = declaration.label ?? (declaration.level === 'group' ? 'group header' : 'payment information block');
  const { nbOfTxs, ctrlSum } = declaration;
  if (nbOfTxs) {
    const declared = /^\s*\d{1,15}\s*$/.test(nbOfTxs.value) ? Number(nbOfTxs.value) : undefined;
    if (declared === undefined) {
      issues.push({
        code: IssueCode.CONTROL_VALUE_INVALID,
        severity: 'error',
        location: nbOfTxs.location,
        message: `NbOfTxs "${nbOfTxs.value}" of the ${where} is not a whole number`,
      });
    } else if (declared !== computed.count) {
      issues.push({
        code: IssueCode.NBOFTXS_MISMATCH,
        severity: 'error',
        location: nbOfTxs.location,
        message: `NbOfTxs of the ${where} says ${declared} payments; the file holds ${computed.count}`,
      });
    }
  }
  if (ctrlSum) {
    const declared = parseDecimal(ctrlSum.value);
    if (declared === undefined) {
      issues.push({
        code: IssueCode.CONTROL_VALUE_INVALID,
        severity: 'error',
        location: ctrlSum.location,
        message: `CtrlSum "${ctrlSum.value}" of the ${where} is not a decimal amount`,
      });
    } else if (computed.sum && !equalDecimal(declared, computed.sum)) {
      issues.push({
        code: IssueCode.CTRLSUM_MISMATCH,
        severity: 'error',
        location: ctrlSum.location,
        message: `CtrlSum of the ${where} says ${ctrlSum.value.trim()}; the amounts add up to ${formatDecimal(computed.sum)}`,
      });
    }
  }
  return issues;
}
