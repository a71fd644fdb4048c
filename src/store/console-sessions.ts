// The console's sessions, server-side (migration 0622), so that one can be ended: on sign-out,
// when the password it was opened with changes, and when a person loses their roles
// (`revokeOf`). The browser holds a random id in a signed cookie; only its SHA-256 is stored.
// Expired rows are deleted as new sessions open, so the table holds the sessions of one TTL.
import { createHash } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, toOptStr, toStr, type Row } from './rows.js';

export interface NewConsoleSession {
  id: string;
  /** `local:<username>` or `oidc:<issuer>#<sub>`. */
  login: string;
  /** src/domain/person.ts's personOf the login. */
  person: string;
  /** A fingerprint of the password hash it was opened with (local logins); absent for OIDC. */
  credential?: string;
  expiresAt: Date;
}

export interface ActiveConsoleSession {
  login: string;
  person: string;
  credential?: string;
}

const digest = (id: string) => createHash('sha256').update(id).digest('hex');

export class ConsoleSessions {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async open(session: NewConsoleSession): Promise<void> {
    const now = instant(this.clock.now());
    await this.db.knex('console_sessions').where('expires_at', '<', now).delete();
    await this.db.knex('console_sessions').insert({
      id_sha256: digest(session.id),
      login: session.login,
      person: session.person,
      credential: session.credential ?? null,
      created_at: now,
      expires_at: instant(session.expiresAt),
    });
  }

  /** The session of this id, while it was neither ended nor expired. */
  async active(id: string): Promise<ActiveConsoleSession | undefined> {
    const row = await this.db
      .knex<Row>('console_sessions')
      .where('id_sha256', digest(id))
      .whereNull('revoked_at')
      .where('expires_at', '>', instant(this.clock.now()))
      .first();
    if (!row) return undefined;
    const credential = toOptStr(row.credential);
    return { login: toStr(row.login), person: toStr(row.person), ...(credential ? { credential } : {}) };
  }

  /** Ends one session (sign-out, or a session found invalid); true when it was still open. */
  async revoke(id: string): Promise<boolean> {
    return (await this.endWhere({ id_sha256: digest(id) })) > 0;
  }

  /** Ends every open session of a person or a login; returns how many. */
  async revokeOf(who: { person: string } | { login: string }): Promise<number> {
    return this.endWhere('person' in who ? { person: who.person } : { login: who.login });
  }

  private async endWhere(where: Record<string, string>): Promise<number> {
    return this.db
      .knex('console_sessions')
      .where(where)
      .whereNull('revoked_at')
      .update({ revoked_at: instant(this.clock.now()) });
  }
}
