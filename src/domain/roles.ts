// Who a person of a company is to settle: the configuration lists each company's people with
// their roles (companies[].people). The approval notices read the list; what each role may open
// and do in the console is the one table of src/server/console/access.ts. The three middle
// roles (approver, finance, payroll) stand side by side: none includes another.
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
