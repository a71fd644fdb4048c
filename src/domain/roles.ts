// What a person of a company may see and do. The configuration lists each company's people with
// their roles (companies[].people); approval notices use them today, the console's access
// rules will use the same list.
export const ROLES = ['approver', 'payroll', 'finance', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface Person {
  name: string;
  email: string;
  roles: readonly Role[];
}
