// The one payroll rule (src/domain/payroll.ts): which money a person may see, and a total of
// lines as they may see it — never the whole when payroll lines are in it.
import { describe, expect, it } from 'vitest';
import { isPayrollMoney, mayShowMoney, visibleTotals } from '../../src/domain/payroll.js';

const accounts = ['NO6512345678903'];
const without = { seesPayroll: false, payrollAccounts: accounts };
const withRole = { seesPayroll: true, payrollAccounts: accounts };

describe('the payroll rule', () => {
  it('takes SALA lines and money on a payroll account (any spacing) as payroll', () => {
    expect(isPayrollMoney(accounts, { categoryPurpose: 'SALA', account: 'NO9386011117947' })).toBe(true);
    expect(isPayrollMoney(accounts, { account: 'NO65 1234 5678 903' })).toBe(true);
    expect(isPayrollMoney(accounts, { categoryPurpose: 'SUPP', account: 'NO9386011117947' })).toBe(false);
    expect(isPayrollMoney(accounts, {})).toBe(false);
  });

  it('shows payroll money only to the payroll role', () => {
    expect(mayShowMoney(without, { categoryPurpose: 'SALA' })).toBe(false);
    expect(mayShowMoney(withRole, { categoryPurpose: 'SALA' })).toBe(true);
    expect(mayShowMoney(without, { account: 'NO9386011117947' })).toBe(true);
  });

  it('gives a total without its payroll lines, and how many it left out', () => {
    const payroll = { lines: 2, totals: { NOK: 61_725n, EUR: 1_000n } };
    expect(visibleTotals(without, { NOK: '197520', EUR: '1000' }, payroll)).toEqual({
      totals: { NOK: 135_795n },
      leftOut: 2,
    });
    expect(visibleTotals(withRole, { NOK: '197520' }, payroll)).toEqual({ totals: { NOK: 197_520n }, leftOut: 0 });
    expect(visibleTotals(without, { NOK: 5n }, undefined)).toEqual({ totals: { NOK: 5n }, leftOut: 0 });
  });
});
