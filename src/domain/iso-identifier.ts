// How an id of any length goes into an ISO 20022 identifier field (Max35Text and the like): as is
// when it fits, otherwise a short stable stand-in. A cut id matches nothing (issue #47), so ids
// are never cut. Every writer asks this one function; the stand-in is a function of the id alone,
// so the same id gets the same stand-in in every file and every run, and the caller stores the
// pair (short_identifiers, migration 0630) so a later file or a lookup can map it back. The
// writers put the full id where their schema has room (docs/formats/identifiers.md).
import { createHash } from 'node:crypto';

/** The prefix that marks a stand-in: no bank or ERP id settle writes starts with it and a hash. */
export const SHORT_ID_PREFIX = 'STL-';
const HASH_DIGITS = 20;

export interface FittedIdentifier {
  /** What the field holds: the id itself, or its stand-in. */
  value: string;
  /** The id the stand-in stands for; absent when `value` is the id itself. */
  full?: string;
}

/** A stand-in and the id it stands for, as stored. */
export interface ShortIdentifier {
  short: string;
  full: string;
}

/**
 * The id as is when it has at most `max` characters (code points, as XSD counts) and nothing an
 * identifier field cannot hold (line breaks, leading or trailing spaces); otherwise `STL-` and the
 * first hex digits of its SHA-256 (upper case, 24 characters, or fewer when `max` is smaller).
 */
export function fitIdentifier(id: string, max = 35): FittedIdentifier {
  if (codePoints(id) <= max && UNCHANGED.test(id)) return { value: id };
  return { value: shortIdentifier(id, max), full: id };
}

/** The stand-in of `id`, whatever its length (e.g. a CSV bulk's OrgnlPmtInfId). */
export function shortIdentifier(id: string, max = 35): string {
  const digits = Math.max(1, Math.min(HASH_DIGITS, max - SHORT_ID_PREFIX.length));
  return `${SHORT_ID_PREFIX}${createHash('sha256').update(id, 'utf8').digest('hex').slice(0, digits).toUpperCase()}`;
}

// One line, no leading or trailing white space, no control characters: what an XML writer would
// otherwise have to change (and so cut the match with the id the ERP or the bank knows).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNCHANGED = /^(?!\s)[^\u0000-\u001f\u007f\ufffe\uffff]*(?<!\s)$/u;

function codePoints(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}
