// Whose money a person may see (issue #50, Must 7): the one rule every place that shows or sums
// money applies — a line, a booking, a total of lines, a statement's daily sums. Payroll is a
// line with the category purpose SALA or one paid from a payroll account (the company's
// payments.payrollAccounts), and a booking on a payroll account; only a person with the payroll
// role sees its amount, or any sum that contains it. A sum over lines of which some are payroll
// is shown to the others as the sum of the lines they see, with a note that payroll lines were
// left out, never as the whole: the whole minus the visible lines would give the salaries. The
// store leaves the same lines out in SQL where it sums or searches (`withoutPayroll`).
import { normalizeIban } from './account-id.js';

/** Who looks at money, as far as payroll goes. */
export interface PayrollViewer {
  /** Has the payroll role in the company. */
  seesPayroll: boolean;
  /** The company's payroll accounts, normalised IBANs. */
  payrollAccounts: readonly string[];
}

/** Money as the rule reads it: a line (its category purpose and debtor account) or a booking (its account). */
export interface MoneyAt {
  categoryPurpose?: string | undefined;
  /** The account the money leaves or is booked on: a line's debtor account, a booking's account. */
  account?: string | undefined;
}

/** Whether this money is payroll: SALA, or on one of the payroll accounts. */
export function isPayrollMoney(payrollAccounts: readonly string[], money: MoneyAt): boolean {
  return (
    money.categoryPurpose === 'SALA' ||
    (money.account !== undefined && payrollAccounts.includes(normalizeIban(money.account)))
  );
}

/** The rule: whether the viewer may see this money's amount, or a sum that contains it. */
export function mayShowMoney(viewer: PayrollViewer, money: MoneyAt): boolean {
  return viewer.seesPayroll || !isPayrollMoney(viewer.payrollAccounts, money);
}

/** Payroll lines inside a total: how many, and their sums per currency in minor units. */
export interface PayrollPart {
  lines: number;
  totals: Readonly<Record<string, bigint>>;
}

/**
 * A total of lines as the viewer may see it: the whole for a viewer who sees payroll, else the
 * total of the other lines, with how many payroll lines it leaves out (0: the whole).
 */
export function visibleTotals(
  viewer: PayrollViewer,
  totals: Readonly<Record<string, bigint | string>>,
  payroll: PayrollPart | undefined,
): { totals: Record<string, bigint>; leftOut: number } {
  const whole = Object.fromEntries(Object.entries(totals).map(([c, v]) => [c, BigInt(v)]));
  if (viewer.seesPayroll || !payroll || payroll.lines === 0) return { totals: whole, leftOut: 0 };
  const shown: Record<string, bigint> = {};
  for (const [currency, minor] of Object.entries(whole)) {
    const rest = minor - (payroll.totals[currency] ?? 0n);
    // A currency of payroll lines only is not named: its presence alone says little, its zero nothing.
    if (rest !== 0n || payroll.totals[currency] === undefined) shown[currency] = rest;
  }
  return { totals: shown, leftOut: payroll.lines };
}
