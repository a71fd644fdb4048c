// Inbox entries that are not regular files (links, folders, FIFOs, devices) are never opened:
// a link could lead to a secret or to a payment file somewhere else. Each is reported once,
// "not a regular file: left in place", and again only when it changes (a new link has a new
// time), so an entry nobody removes does not fill every night's log.
import type { Logger } from '../../src/log/index.js';
import { isTemporaryName, type OtherEntry } from '../../src/transport/index.js';

export interface OthersDeps {
  logger: Logger;
  firstSighting?(key: string): Promise<boolean>;
}

export async function reportOthers(deps: OthersDeps, company: string, others: readonly OtherEntry[]): Promise<void> {
  for (const other of others) {
    // Hidden entries are not meant for pickup at all; a folder's time changes with its content.
    if (isTemporaryName(other.name)) continue;
    const version = other.kind === 'directory' ? '' : `:${other.mtimeMs}`;
    const key = `inbox-not-regular:${company}:${other.kind}:${other.name}${version}`;
    if (deps.firstSighting && !(await deps.firstSighting(key))) continue;
    deps.logger.warn('inbox entry is not a regular file: left in place', {
      company,
      file: other.name,
      kind: other.kind,
      code: 'ERR_FILE_NOT_REGULAR',
    });
  }
}
