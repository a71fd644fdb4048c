// Who a person is, across every way of signing in: the one rule every four-eyes comparison uses
// (docs/security.md). A person is an explicit person id from the configuration (`person:` on a
// local user or a people entry), else their e-mail address trimmed and case-folded. So the local
// users `kari` and `kari2` with `kari@x` and `KARI@x`, or an OIDC login and a local login with
// the same address, are one person; and an OIDC address and a local one that differ are one
// person only when both name the same person id. A name without a configured e-mail (the actor
// the command line records) is itself, trimmed and case-folded: `Kari` and `kari` are one.

/** The part of the configuration that says who is who. */
export interface PersonDirectory {
  /** console.localUsers: the login `local:<username>`. */
  localUsers: readonly { username: string; email: string; person?: string | undefined }[];
  /** Every companies[].people entry, of every company. */
  people: readonly { email: string; person?: string | undefined }[];
}

/** Who signed in: a login id (`local:<username>`, `oidc:<issuer>#<sub>`, or a command-line actor) and its e-mail. */
export interface Login {
  id: string;
  email?: string | undefined;
}

/** An explicit person id: lower case, no `@`, so it never reads as someone's e-mail address. */
export const PERSON_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** An address or a name as a person: trimmed and case-folded (`KARI@Acme.example ` → `kari@acme.example`). */
export function normaliseIdentity(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

/** The person behind a login; see the file comment. */
export function personOf(login: Login, directory: PersonDirectory): string {
  const local = login.id.startsWith('local:')
    ? directory.localUsers.find((u) => u.username === login.id.slice('local:'.length))
    : undefined;
  if (local?.person) return local.person;
  const email = local?.email ?? login.email ?? (login.id.includes('@') ? login.id : undefined);
  if (email === undefined) return normaliseIdentity(login.id);
  const wanted = normaliseIdentity(email);
  const named = directory.people.find((p) => p.person && normaliseIdentity(p.email) === wanted);
  return named?.person ?? wanted;
}

/** Whether two persons (personOf's answers) are the same one. */
export function samePerson(a: string, b: string): boolean {
  return normaliseIdentity(a) === normaliseIdentity(b);
}

/** Where two logins of the configuration are one person by address but name different person ids, or none. */
export interface PersonClash {
  /** Index into directory.localUsers of the later login, and the earlier one's. */
  index: number;
  other: number;
  message: string;
}

/**
 * Local users that are one person (the same address, case and spaces aside) without saying so:
 * two logins of one person are allowed only when both carry the same `person` id, on purpose.
 * Also a login whose `person` id contradicts the people entry of its address.
 */
export function personClashes(directory: PersonDirectory): PersonClash[] {
  const clashes: PersonClash[] = [];
  const users = directory.localUsers;
  users.forEach((u, index) => {
    const email = normaliseIdentity(u.email);
    const other = users.findIndex((o, j) => j < index && normaliseIdentity(o.email) === email);
    if (other >= 0 && (u.person === undefined || u.person !== users[other]!.person))
      clashes.push({
        index,
        other,
        message: `"${u.username}" and "${users[other]!.username}" are one person (${email}); four eyes would take them for two. Remove one, or give both the same person id if one person has two logins on purpose`,
      });
    const entry = directory.people.find((p) => p.person && normaliseIdentity(p.email) === email);
    if (u.person && entry?.person && entry.person !== u.person)
      clashes.push({
        index,
        other: index,
        message: `"${u.username}" names person "${u.person}", but companies[].people gives ${email} the person "${entry.person}"`,
      });
  });
  return clashes;
}
