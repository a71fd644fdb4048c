// People shared by companies are written once: the top-level `people` list names each person
// (`person` id, name, e-mail), and a company's people entry may say only `{ person: kari, roles:
// [...] }`. Before the schema reads the companies, each such entry gets the name and e-mail of
// its person, so everything after the loader sees full entries as before (a company may still
// write its people out in full, as older configurations do).
import type { ConfigProblem } from './problem.js';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Fills in the shared people's name and e-mail in `raw.companies[].people` (in place). Returns
 * the key paths of entries that name an unknown person: the schema's "name/email missing" for
 * them would only repeat the problem pushed here.
 */
export function expandSharedPeople(raw: Record<string, unknown>, problems: ConfigProblem[]): string[] {
  const shared = new Map<string, Record<string, unknown>>();
  if (Array.isArray(raw.people))
    raw.people.forEach((p: unknown, i) => {
      if (!isRecord(p) || typeof p.person !== 'string') return;
      if (shared.has(p.person))
        problems.push({ path: `people.${i}.person`, message: `person "${p.person}" is listed twice in people` });
      else shared.set(p.person, p);
    });
  const unknown: string[] = [];
  if (!Array.isArray(raw.companies)) return unknown;
  raw.companies.forEach((company: unknown, i) => {
    if (!isRecord(company) || !Array.isArray(company.people)) return;
    company.people = company.people.map((entry: unknown, j) => {
      if (!isRecord(entry) || typeof entry.person !== 'string') return entry;
      if (entry.name !== undefined && entry.email !== undefined) return entry;
      const person = shared.get(entry.person);
      if (!person) {
        const path = `companies.${i}.people.${j}`;
        unknown.push(path);
        problems.push({
          path: `${path}.person`,
          message: `no person "${entry.person}" in the top-level people list; add { person: ${entry.person}, name, email } there, or give this entry its name and email`,
        });
        return entry;
      }
      return {
        name: person.name,
        email: person.email,
        ...(person.locale === undefined ? {} : { locale: person.locale }),
        ...entry,
      };
    });
  });
  return unknown;
}
