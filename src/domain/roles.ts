// What a person of a company may see and do. The configuration lists each company's people with
// their roles (companies[].people); approval notices use them today, the console's access
// rules will use the same list.
export const ROLES = ['approver', 'payroll', 'finance', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export interface Person {
  name: string;
  email: string;
  /** The explicit person id every login of this person maps to (src/domain/person.ts). */
  person?: string | undefined;
  roles: readonly Role[];
  /** The language this person reads the console in, before the browser's (src/i18n). */
  locale?: string | undefined;
}

/**
 * The console's role order: `viewer` < `approver` | `finance` | `payroll` < `operator`.
 * The three middle roles are side by side, not above one another: each adds its own rights, so
 * a finance person does not see payroll lines and an approver does not acknowledge findings.
 * `operator` runs the install and may do what any other role may. Every role may view.
 */
export function roleAllows(userRoles: Iterable<Role>, needed: Role): boolean {
  for (const role of userRoles) {
    if (role === needed || role === 'operator' || needed === 'viewer') return true;
  }
  return false;
}
