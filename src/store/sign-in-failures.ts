// Failed password sign-ins of the console, counted per user name and per client address over a
// window, for the limit in src/server/console/sign-in.tsx. Counting and checking are one atomic
// step, shared by every instance on the database: `reserve` locks the guard rows of the name
// and the address, counts their failures in the window and, when both are under their limit,
// writes the attempt as a failure before the password is checked; a right password takes it
// back (`succeeded`). So however many attempts arrive at once, at most the limit are checked.
// Each reservation deletes the expired failures of its name and address, so the table stays as
// small as the window. Never a password.
import { createHash } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, isUniqueViolation, toInt, toStr, type Row } from './rows.js';

export interface FailureCounts {
  byUser: number;
  byAddress: number;
  /** When the oldest failure that counts leaves the window (undefined when none counts). */
  oldestAt?: Date;
}

export interface SignInLimits {
  perUser: number;
  perAddress: number;
  windowMs: number;
}

export type Reservation =
  /** Counted: check the password, then call `succeeded` if it was right. */
  | { allowed: true; attemptId: string }
  /** The name or the address used up its failures in the window: refused unchecked. */
  | { allowed: false; by: 'user' | 'address'; counts: FailureCounts };

export class SignInFailures {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Counts and, when under both limits, reserves one attempt as a failure; see the file comment. */
  async reserve(username: string, address: string, limits: SignInLimits): Promise<Reservation> {
    const now = this.clock.now();
    const since = instant(new Date(now.getTime() - limits.windowMs));
    const guards = [`user:${username}`, `address:${address}`].map((k) => k.slice(0, 80)).sort();
    // Outside the transaction: creating a missing guard row takes no lock another attempt waits on.
    await this.db
      .knex('sign_in_guards')
      .insert(guards.map((guard_key) => ({ guard_key, touched_at: instant(now) })))
      .onConflict('guard_key')
      .ignore();
    return this.db.transaction(async (trx) => {
      // The lock: one UPDATE takes both rows in key order, so two attempts never wait on each other in a circle.
      await trx('sign_in_guards')
        .whereIn('guard_key', guards)
        .update({ touched_at: instant(now) });
      await trx('sign_in_failures').where('username', username).where('at', '<', since).delete();
      await trx('sign_in_failures').where('address', address).where('at', '<', since).delete();
      const counts = await countIn(trx, username, address, since);
      if (counts.byUser >= limits.perUser) return { allowed: false, by: 'user', counts };
      if (counts.byAddress >= limits.perAddress) return { allowed: false, by: 'address', counts };
      // Both engines answer a plain INSERT with the new row's id.
      const [id] = await trx('sign_in_failures').insert({ username, address, at: instant(now) });
      return { allowed: true, attemptId: String(id) };
    });
  }

  /**
   * The password was right: the reserved attempt was no failure, and the name's failures are
   * cleared — never another name's, never the address's.
   */
  async succeeded(username: string, attemptId: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('sign_in_failures').where('id', attemptId).delete();
      await trx('sign_in_failures').where('username', username).delete();
    });
  }

  /** Failures of this name and from this address within `windowMs` of now (for pages and tests). */
  async count(username: string, address: string, windowMs: number): Promise<FailureCounts> {
    return countIn(this.db.knex, username, address, instant(new Date(this.clock.now().getTime() - windowMs)));
  }

  /**
   * Uses a sign-in form's token once: true the first time, false whenever it comes again.
   * Tokens older than `keepMs` (the form's own lifetime) are forgotten as new ones arrive.
   */
  async useFormToken(token: string, keepMs: number): Promise<boolean> {
    const now = this.clock.now();
    await this.db
      .knex('sign_in_form_tokens')
      .where('used_at', '<', instant(new Date(now.getTime() - keepMs)))
      .delete();
    try {
      await this.db.knex('sign_in_form_tokens').insert({
        token_sha256: createHash('sha256').update(token).digest('hex'),
        used_at: instant(now),
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}

async function countIn(
  knex: Database['knex'],
  username: string,
  address: string,
  since: string,
): Promise<FailureCounts> {
  const of = (column: 'username' | 'address', value: string) =>
    knex<Row>('sign_in_failures')
      .where(column, value)
      .where('at', '>=', since)
      .count({ n: '*' })
      .min({ oldest: 'at' })
      .first();
  const user = await of('username', username);
  const from = await of('address', address);
  const oldest = [user?.oldest, from?.oldest]
    .filter((v) => v !== null && v !== undefined)
    .map(toStr)
    .sort()[0];
  return {
    byUser: toInt(user?.n ?? 0),
    byAddress: toInt(from?.n ?? 0),
    ...(oldest ? { oldestAt: new Date(oldest) } : {}),
  };
}
