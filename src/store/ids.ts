// Identifiers. Row ids are UUIDv7 (time-ordered, so "ORDER BY id" is oldest first and InnoDB
// inserts stay at the end of the index). Idempotency keys are UUIDv5, derived from what the
// request is (file hash + bulk position), so a re-run after a crash derives the same key.
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';
import { randomFillSync, randomInt } from 'node:crypto';
import { systemClock, type Clock } from '../domain/clock.js';

/** Fixed namespace for settle's derived keys. Never change it: stored keys depend on it. */
const SETTLE_NAMESPACE = '2f6b2a0e-5d43-4c4e-9a57-3a1f5d0c8e11';

// The uuid library keeps ids monotonic only when it reads the system clock itself; with an
// injected clock we keep the same state here: within one millisecond (or when the clock
// steps back) the 31-bit counter counts up, so ids made later in this process sort later.
const state = { msecs: -Infinity, seq: 0 };

export function newId(clock?: Clock): string {
  const now = (clock ?? systemClock).now().getTime();
  if (now > state.msecs) {
    state.msecs = now;
    state.seq = randomInt(0, 2 ** 31);
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return uuidv7({ msecs: state.msecs, seq: state.seq, random: randomBytes16() });
}

// uuid's v7 asks the system's generator for 16 fresh bytes for every id it makes, a call each
// (about 6 % of the CPU of picking up a large file, which makes an id per line). The bytes are
// drawn 4 KiB at a time instead, as Node's own randomUUID does; ids are not secrets.
const pool = new Uint8Array(4096);
let poolAt = pool.length;
const random16 = new Uint8Array(16);

function randomBytes16(): Uint8Array {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  for (let i = 0; i < 16; i++) random16[i] = pool[poolAt + i]!;
  poolAt += 16;
  return random16;
}

/** The Idempotency-Key of the bulk at `position` (0-based) of the file with this SHA-256. */
export function bulkIdempotencyKey(fileSha256: string, position: number): string {
  return uuidv5(`bulk:${fileSha256.toLowerCase()}:${position}`, SETTLE_NAMESPACE);
}

/**
 * The key of that bulk for one company, when another company's bulk already holds the file's
 * key: two companies of a bureau can drop byte-identical files (a debtor account taken from the
 * company's settings, the same fee to the same creditor), and they share the bureau's
 * subscription, where one key is one payment.
 */
export function companyBulkIdempotencyKey(company: string, fileSha256: string, position: number): string {
  return uuidv5(`bulk:${company}:${fileSha256.toLowerCase()}:${position}`, SETTLE_NAMESPACE);
}

/** The idempotency key of a signing basket, from the ids of the bulks it holds. */
export function basketIdempotencyKey(bulkIds: readonly string[]): string {
  return uuidv5(`basket:${[...bulkIds].sort().join(',')}`, SETTLE_NAMESPACE);
}
