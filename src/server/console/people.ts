// Who the signed-in person is to each company: the roles of every people entry with the same
// e-mail (compared without case), from the configuration's companies[].people, the same list the
// approval notices use. Read on every request, so a changed configuration takes effect at the
// next restart without anyone signing in again.
import type { Person, Role } from '../../domain/roles.js';

export function rolesByCompany(
  people: ReadonlyMap<string, readonly Person[]>,
  email: string | undefined,
): Map<string, Set<Role>> {
  const result = new Map<string, Set<Role>>();
  if (!email) return result;
  const wanted = email.toLowerCase();
  for (const [company, list] of people) {
    for (const person of list) {
      if (person.email.toLowerCase() !== wanted) continue;
      const roles = result.get(company) ?? new Set<Role>();
      for (const role of person.roles) roles.add(role);
      result.set(company, roles);
    }
  }
  return result;
}

/** The person's name as the configuration spells it, for the page header. */
export function personName(people: ReadonlyMap<string, readonly Person[]>, email: string): string | undefined {
  const wanted = email.toLowerCase();
  for (const list of people.values()) for (const p of list) if (p.email.toLowerCase() === wanted) return p.name;
  return undefined;
}
