import { describe, expect, it } from 'vitest';
import { roleAllows, ROLES, type Role } from '../../src/domain/roles.js';

describe('roleAllows', () => {
  it('orders viewer < approver | finance | payroll < operator', () => {
    const table: [Role[], Role, boolean][] = [
      [['viewer'], 'viewer', true],
      [['viewer'], 'approver', false],
      [['viewer'], 'operator', false],
      [['approver'], 'viewer', true],
      [['approver'], 'approver', true],
      [['approver'], 'finance', false],
      [['finance'], 'payroll', false],
      [['payroll'], 'payroll', true],
      [['finance', 'payroll'], 'payroll', true],
      [['finance'], 'operator', false],
      [['operator'], 'finance', true],
      [['operator'], 'operator', true],
      [[], 'viewer', false],
    ];
    for (const [roles, needed, allowed] of table)
      expect([roles, needed, roleAllows(roles, needed)]).toEqual([roles, needed, allowed]);
  });

  it('lets an operator do what every role may', () => {
    for (const role of ROLES) expect(roleAllows(['operator'], role)).toBe(true);
  });
});
