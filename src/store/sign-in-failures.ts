// Failed password sign-ins of the console, counted per user name and per client address over a
// window, for the limit in src/server/console/sign-in.tsx. Each failure deletes the expired
// failures of its name and address, so the table stays as small as the window. Never a password.
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, toInt, type Row } from './rows.js';

export interface FailureCounts {
  byUser: number;
  byAddress: number;
  /** When the oldest failure that counts leaves the window (undefined when none counts). */
  oldestAt?: Date;
}

export class SignInFailures {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Failures of this name and from this address within `windowMs` of now. */
  async count(username: string, address: string, windowMs: number): Promise<FailureCounts> {
    const since = instant(new Date(this.clock.now().getTime() - windowMs));
    const of = (column: 'username' | 'address', value: string) =>
      this.db
        .knex<Row>('sign_in_failures')
        .where(column, value)
        .where('at', '>=', since)
        .count({ n: '*' })
        .min({ oldest: 'at' })
        .first();
    const [user, from] = await Promise.all([of('username', username), of('address', address)]);
    const oldest = [user?.oldest, from?.oldest].filter((v): v is string => typeof v === 'string').sort()[0];
    return {
      byUser: toInt(user?.n ?? 0),
      byAddress: toInt(from?.n ?? 0),
      ...(oldest ? { oldestAt: new Date(oldest) } : {}),
    };
  }

  async recordFailure(username: string, address: string, windowMs: number): Promise<void> {
    const now = this.clock.now();
    const expired = instant(new Date(now.getTime() - windowMs));
    await this.db.transaction(async (trx) => {
      await trx('sign_in_failures').where('username', username).where('at', '<', expired).delete();
      await trx('sign_in_failures').where('address', address).where('at', '<', expired).delete();
      await trx('sign_in_failures').insert({ username, address, at: instant(now) });
    });
  }

  /** A success clears the failures of its own name only: never another name's, never the address's. */
  async clearUser(username: string): Promise<void> {
    await this.db.knex('sign_in_failures').where('username', username).delete();
  }
}
