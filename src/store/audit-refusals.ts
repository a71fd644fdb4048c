// Refused console actions in the audit trail, coalesced (issue #50, Must 5): each refusal of a
// POST for a missing role is counted per person, route, company and minute (migration 0691), one
// atomic upsert, on both engines, however many instances share the database. A minute that is
// over becomes one audit entry (`console.refused`) with its count, and its row goes: hammering a
// form adds at most one entry per person, route, company and minute to the trail, which is never
// purged. Closed minutes are written at the next refusal, whenever the trail is read (`flush`:
// the console's Audit page, `settle audit list|verify`) and by the console's timer, so a burst
// is in the trail within about a minute even if nothing else happens; a console that closes
// writes its open minute as well (`flush({ open: true })`).
import type { Clock } from '../domain/clock.js';
import type { AuditTrail } from './audit-trail.js';
import type { Database } from './database.js';
import { forUpdate, toInt, toStr, type Row } from './rows.js';
import { auditReason } from '../domain/audit-reason.js';

export interface Refusal {
  /** The person refused (src/domain/person.ts), and the login they used. */
  person: string;
  actor: string;
  /** The action's route pattern. */
  route: string;
  /** A configured company the request named, if any. */
  company?: string;
  /** `console@ADDRESS`. */
  origin: string;
  /** The role the action needs. */
  needed: string;
}

/** Closed minutes written per flush; the rest wait for the next one. */
const FLUSH_BATCH = 100;

export const REFUSED_ACTION = 'console.refused';

export class AuditRefusals {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  /** Counts one refusal in its minute, then writes the minutes already over. */
  async record(refusal: Refusal): Promise<void> {
    await this.db
      .knex('audit_refusals')
      .insert({
        person: refusal.person,
        route: refusal.route,
        company: refusal.company ?? '',
        minute: minuteOf(this.clock.now()),
        count: 1,
        actor: refusal.actor,
        origin: refusal.origin,
        needed: refusal.needed,
      })
      .onConflict(['person', 'route', 'company', 'minute'])
      .merge({ count: this.db.knex.raw('?? + 1', ['count']) });
    await this.flush();
  }

  /**
   * Writes each minute that is over as one audit entry with its count, and deletes its row, in
   * one transaction: two instances flushing at once write each minute once (the second waits on
   * the rows' locks and then finds them gone). `open` writes the minute still running too (a
   * console that closes): refusals counted after it in the same minute, by another instance, make
   * a second entry for that minute, never a lost count. Returns the entries written.
   */
  async flush(options: { open?: boolean } = {}): Promise<number> {
    const now = minuteOf(this.clock.now());
    const over = <Q extends { where: (column: string, op: string, value: string) => Q }>(query: Q): Q =>
      options.open ? query : query.where('minute', '<', now);
    const waiting = await over(this.db.knex<Row>('audit_refusals').select('minute')).first();
    if (!waiting) return 0;
    return this.db.transaction(async (trx) => {
      const rows = await forUpdate(
        trx,
        over(trx<Row>('audit_refusals').select('*'))
          .orderBy(['minute', 'person', 'route', 'company'])
          .limit(FLUSH_BATCH),
      );
      for (const row of rows) {
        const company = toStr(row.company);
        const count = toInt(row.count);
        const route = toStr(row.route);
        await this.audit.append(
          {
            actor: toStr(row.actor),
            action: REFUSED_ACTION,
            subject: { type: 'console', id: route },
            ...auditReason.refusedInMinute(count, toStr(row.minute), toStr(row.needed)),
            origin: toStr(row.origin),
            details: {
              ...(company === '' ? {} : { company }),
              person: toStr(row.person),
              route,
              minute: toStr(row.minute),
              count,
              needed: toStr(row.needed),
            },
          },
          trx,
        );
        await trx('audit_refusals')
          .where({ person: row.person, route: row.route, company: row.company, minute: row.minute })
          .delete();
      }
      return rows.length;
    });
  }
}

/** The minute an instant falls in, `2026-01-05T08:00Z`: sorts as text like the instants do. */
function minuteOf(at: Date): string {
  return `${at.toISOString().slice(0, 16)}Z`;
}
