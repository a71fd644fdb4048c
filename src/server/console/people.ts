// Who the signed-in person is to each company: the roles of every people entry that is the same
// person (src/domain/person.ts: the same explicit person id, else the same e-mail without case
// or spaces), from the configuration's companies[].people, the same list the approval notices
// use. Read on every request, so a reloaded configuration (src/main/reload.ts) takes effect at once
// without anyone signing in again.
import { personOf, samePerson, type Login, type PersonDirectory } from '../../domain/person.js';
import type { Person, Role } from '../../domain/roles.js';
import type { ConsoleOptions } from './options.js';

/** The console's part of who is who: its local users and every company's people. */
export function directoryOf(options: Pick<ConsoleOptions, 'people' | 'localUsers'>): PersonDirectory {
  return { localUsers: options.localUsers, people: [...options.people.values()].flat() };
}

/** The person a login is (personOf over the console's directory). */
export function consolePersonOf(options: Pick<ConsoleOptions, 'people' | 'localUsers'>, login: Login): string {
  return personOf(login, directoryOf(options));
}

export function rolesByCompany(
  options: Pick<ConsoleOptions, 'people' | 'localUsers'>,
  person: string | undefined,
): Map<string, Set<Role>> {
  const result = new Map<string, Set<Role>>();
  if (!person) return result;
  for (const [company, list] of options.people) {
    for (const entry of list) {
      if (!samePerson(personOfEntry(options, entry), person)) continue;
      const roles = result.get(company) ?? new Set<Role>();
      for (const role of entry.roles) roles.add(role);
      result.set(company, roles);
    }
  }
  return result;
}

/** The language the person chose in a people entry (the first entry that names one). */
export function personLocale(
  options: Pick<ConsoleOptions, 'people' | 'localUsers'>,
  person: string,
): string | undefined {
  for (const list of options.people.values())
    for (const p of list) if (p.locale && samePerson(personOfEntry(options, p), person)) return p.locale;
  return undefined;
}

/**
 * Whether the person is one of console.auditors: install-wide, they read every company's audit
 * entries (and those of no company). Each auditor is an e-mail address or a person id, taken
 * as a person the same way a login is.
 */
export function isAuditor(
  options: Pick<ConsoleOptions, 'people' | 'localUsers' | 'auditors'>,
  person: string,
): boolean {
  return (options.auditors ?? []).some((a) =>
    samePerson(a.includes('@') ? consolePersonOf(options, { id: a, email: a }) : a, person),
  );
}

/** The person's name as the configuration spells it, for the page header. */
export function personName(options: Pick<ConsoleOptions, 'people' | 'localUsers'>, person: string): string | undefined {
  for (const list of options.people.values())
    for (const p of list) if (samePerson(personOfEntry(options, p), person)) return p.name;
  return undefined;
}

function personOfEntry(options: Pick<ConsoleOptions, 'people' | 'localUsers'>, entry: Person): string {
  return entry.person ?? consolePersonOf(options, { id: entry.email, email: entry.email });
}
