// Who receives a company's approval notices: the people with the approver role
// (companies[].people), plus the short form payments.approvers (e-mail addresses of approvers
// without other roles). Split by the payroll role, because payroll lines are shown only to it.
import type { CompanyConfig } from '../../src/config/index.js';
import type { Person } from '../../src/domain/roles.js';

export interface ApprovalAudience {
  /** E-mail addresses of approvers who may see payroll lines. */
  withPayroll: string[];
  /** E-mail addresses of the other approvers. */
  withoutPayroll: string[];
}

export function approvers(company: CompanyConfig): Person[] {
  const people: Person[] = company.people.filter((p) => p.roles.includes('approver'));
  for (const email of company.payments.approvers)
    if (!people.some((p) => p.email.toLowerCase() === email.toLowerCase()))
      people.push({ name: email, email, roles: ['approver'] });
  return people;
}

export function approvalAudience(company: CompanyConfig): ApprovalAudience {
  const all = approvers(company);
  return {
    withPayroll: all.filter((p) => p.roles.includes('payroll')).map((p) => p.email),
    withoutPayroll: all.filter((p) => !p.roles.includes('payroll')).map((p) => p.email),
  };
}
