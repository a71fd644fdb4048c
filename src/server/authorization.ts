// Checks the webhook's Authorization header against the configured value in constant time.
// Both sides are hashed first so the comparison is over equal-length buffers and takes the
// same time whatever the length or the first differing byte of the guess.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Secret } from '../log/index.js';

export function authorizationMatches(expected: Secret | undefined, presented: string | string[] | undefined): boolean {
  if (!expected || typeof presented !== 'string' || presented.length === 0) return false;
  const a = createHash('sha256').update(expected.reveal(), 'utf8').digest();
  const b = createHash('sha256').update(presented, 'utf8').digest();
  return timingSafeEqual(a, b);
}
