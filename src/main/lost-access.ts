// Who a configuration change takes something from: a person who had a role in a company and
// no longer has it (removed from its people, a role taken away, or the company removed), and a
// local login that was removed or now stands for another person. Their console sessions end at
// the reload (reload.ts), so nobody keeps for the rest of a session what the configuration
// took away. Persons are told apart as the console tells them (src/domain/person.ts).
import { personDirectory, type Config } from '../config/index.js';
import { personOf } from '../domain/person.js';

type Who = Pick<Config, 'companies' | 'console' | 'people'>;

export function whoLostAccess(before: Who, after: Who): { persons: string[]; logins: string[] } {
  const had = grants(before);
  const has = grants(after);
  const persons = [...had]
    .filter(([person, roles]) => [...roles].some((role) => !has.get(person)?.has(role)))
    .map(([person]) => person);
  const [dirBefore, dirAfter] = [personDirectory(before), personDirectory(after)];
  const logins = before.console.localUsers
    .filter((u) => {
      const login = { id: `local:${u.username}` };
      const now = after.console.localUsers.some((v) => v.username === u.username);
      return !now || personOf(login, dirBefore) !== personOf(login, dirAfter);
    })
    .map((u) => `local:${u.username}`);
  return { persons, logins };
}

/** Each person's roles as "company:role". */
function grants(config: Who): Map<string, Set<string>> {
  const directory = personDirectory(config);
  const result = new Map<string, Set<string>>();
  for (const company of config.companies)
    for (const entry of company.people) {
      const person = entry.person ?? personOf({ id: entry.email, email: entry.email }, directory);
      const roles = result.get(person) ?? new Set<string>();
      for (const role of entry.roles) roles.add(`${company.id}:${role}`);
      result.set(person, roles);
    }
  return result;
}
