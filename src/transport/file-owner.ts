// Who owns a file in an inbox, as the inbox's server names them: on SFTP the account that
// uploaded it (the owner column of the server's long listing, as `ls -l` writes it), locally the
// user of its uid. Pickup records it as who dropped the file (payment_files.dropped_by); a name
// the server does not give stays unknown rather than guessed.
import { readFileSync } from 'node:fs';

/** The owner column of an SFTP long name ("-rw-r--r--  1 erp  erp  120 Jan 5 08:00 a.xml"). */
export function ownerFromLongname(longname: string | undefined): string | undefined {
  const owner = longname?.trim().split(/\s+/)[2];
  // A server that writes no long name, or a bare number (a uid it could not name), says nothing.
  return owner && !/^\d+$/.test(owner) ? owner.slice(0, 100) : undefined;
}

let users: ReadonlyMap<number, string> | undefined;

/** The local user name of a uid, from /etc/passwd (read once); undefined when it is not listed. */
export function localOwner(uid: number): string | undefined {
  if (!users) {
    const found = new Map<number, string>();
    try {
      for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
        const [name, , id] = line.split(':');
        if (name && id && /^\d+$/.test(id) && !found.has(Number(id))) found.set(Number(id), name);
      }
    } catch {
      // No passwd file (another system): owners stay unknown.
    }
    users = found;
  }
  return users.get(uid);
}
