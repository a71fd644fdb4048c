// The reasons settle itself gives in the audit trail (a load of the payment controls, a sign-in
// lockout, refused console actions counted in a minute): the English kept in `audit_trail.reason`,
// as it always was, and the same sentence as recorded text (`reason_text`, migration 0763, area
// `auditEntry`), so the console's audit trail reads it in the reader's language. A person's own
// reason is their words and has none. The English of each is byte for byte what settle wrote
// before (test/i18n/history-cause.test.ts).
import { recorded, type RecordedText } from './recorded-text.js';

/** A reason settle gives: its English and its recorded text. */
export interface AuditReason {
  readonly reason: string;
  readonly said: RecordedText;
}

export const auditReason = {
  controlsFirstLoad: (): AuditReason => ({
    reason: 'first load of the payment controls',
    said: recorded('auditEntry.reason.controlsFirstLoad'),
  }),
  controlsChanged: (): AuditReason => ({
    reason: 'the payment controls changed since the last load',
    said: recorded('auditEntry.reason.controlsChanged'),
  }),
  signInLockout: (by: 'user' | 'address'): AuditReason => ({
    reason: `too many failed sign-ins for this ${by === 'user' ? 'user name' : 'address'}`,
    said: recorded('auditEntry.reason.signInLockout', { by }),
  }),
  /** Refused console actions of one person, route, company and minute (`2026-01-05T08:00Z`). */
  refusedInMinute: (count: number, minute: string, needed: string): AuditReason => ({
    reason: `refused ${count} time${count === 1 ? '' : 's'} in the minute from ${minute}: needs the role ${needed}`,
    said: recorded('auditEntry.reason.refusedInMinute', { count, minute, needed }),
  }),
} as const;
