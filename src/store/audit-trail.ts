// The audit trail: one append-only record of every decision a person takes in settle
// (acknowledging a finding, confirming or rejecting a proposal, resolving an unknown bulk,
// cancelling, releasing a held duplicate). Each entry carries the SHA-256 of the entry before it
// and its own hash over its content, so `verify()` finds the first entry that was changed,
// removed or slipped in. The API is generic: an action name, a subject (type and id), a reason
// and free details; callers name their actions (`finding.acknowledge`, `bulk.resolve`, …).
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import type { RecordedText } from '../domain/recorded-text.js';
import type { Database } from './database.js';
import { forUpdate, instant, isUniqueViolation, toInt, toOptRecordedText, toOptStr, toStr, type Row } from './rows.js';

/** The previous hash of the first entry. */
export const AUDIT_GENESIS = '0'.repeat(64);

export interface AuditEntryInput {
  /** Who decided: the signed-in person, `SETTLE_ACTOR` or the OS user. */
  actor: string;
  /** What was decided, as `subject.verb` (e.g. `finding.acknowledge`, `bulk.resolve`). */
  action: string;
  subject: { type: string; id: string };
  /** Why, in the person's words (or settle's own English, with `said`). */
  reason?: string;
  /**
   * The reason as recorded text when settle gave it (src/domain/audit-reason.ts, migration 0763),
   * so it reads in the reader's language; absent for a person's own words and older entries.
   */
  said?: RecordedText;
  /** From where: `cli@HOST`, `console`, … */
  origin: string;
  /** What the decision was about and its outcome; no secrets. */
  details?: Record<string, unknown>;
}

export interface AuditEntry extends AuditEntryInput {
  seq: number;
  /** The company the entry is about (auditCompanyOf), or undefined for an install-wide one. */
  company?: string;
  at: Date;
  prevHash: string;
  hash: string;
}

/** A point up to which a verification found the chain whole: entry `seq` with its `hash`. */
export interface AuditCheckpoint {
  seq: number;
  hash: string;
  /** Entries from the start up to and including `seq`. */
  entries: number;
  verifiedAt: Date;
}

export type AuditCheck = (
  { ok: true; entries: number; headHash: string } | { ok: false; entries: number; brokenAt: number; problem: string }
) & {
  /** The checkpoint the walk started after; absent for a walk from the first entry. */
  from?: AuditCheckpoint;
};

/**
 * The company an entry is about, from its hashed content: `details.company`, or the company a
 * `controls` entry names as its subject. Kept in the `company` column too (migration 0690), which
 * every check compares with this, so the column cannot move an entry unnoticed.
 */
export function auditCompanyOf(entry: Pick<AuditEntryInput, 'subject' | 'details'>): string | undefined {
  const named = entry.details?.company;
  if (typeof named === 'string') return named;
  return entry.subject.type === 'controls' ? entry.subject.id : undefined;
}

/** Which entries a reader may see: those of these companies, or every entry (the install-wide auditor). */
export type AuditScope = { companies: readonly string[] } | 'all';

/** Entries read per query of a walk; a checkpoint is recorded after each such page found intact. */
const VERIFY_PAGE = 1000;

const APPEND_ATTEMPTS = 5;

export class AuditTrail {
  private readonly headListeners: ((head: { seq: number; hash: string }) => void)[] = [];

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Called with the new head after each entry commits. The app logs it (journald keeps it), so
   * the newest entries cannot be deleted unnoticed: `settle audit verify --head HASH` checks a
   * head kept outside the database.
   */
  onAppend(listener: (head: { seq: number; hash: string }) => void): void {
    this.headListeners.push(listener);
  }

  /** Appends an entry after the current last one; inside `trx` when given, so it commits with the decision. */
  async append(input: AuditEntryInput, trx?: Knex.Transaction): Promise<AuditEntry> {
    if (trx) {
      const entry = await this.appendIn(trx, input);
      // The head is told once the caller's transaction commits, never for one rolled back.
      trx.executionPromise.then(
        () => this.told(entry),
        () => undefined,
      );
      return entry;
    }
    for (let attempt = 1; ; attempt++) {
      try {
        const entry = await this.db.transaction((t) => this.appendIn(t, input));
        this.told(entry);
        return entry;
      } catch (error) {
        // Another writer extended the same entry first (unique previous hash): take the new last one.
        if (!isUniqueViolation(error) || attempt >= APPEND_ATTEMPTS) throw error;
      }
    }
  }

  private told(entry: AuditEntry): void {
    // A dry run's entries are rolled back with everything else: their heads never existed.
    if (!this.db.durable) return;
    for (const listener of this.headListeners) listener({ seq: entry.seq, hash: entry.hash });
  }

  /**
   * Whether a head kept outside the database (the log, `settle audit verify`'s output) is still
   * an entry of the trail: when the newest entries were deleted, it is not, while the rest of the
   * chain still holds.
   */
  async holdsHead(head: string): Promise<boolean> {
    return (
      (await this.db.knex<Row>('audit_trail').select('seq').where({ hash: head.trim().toLowerCase() }).first()) !==
      undefined
    );
  }

  /** Entries oldest first, optionally of one subject. */
  async list(filter: { subject?: { type: string; id: string }; limit?: number } = {}): Promise<AuditEntry[]> {
    let query = this.db.knex<Row>('audit_trail').select('*').orderBy('seq', 'asc');
    if (filter.subject) query = query.where({ subject_type: filter.subject.type, subject_id: filter.subject.id });
    if (filter.limit !== undefined) query = query.limit(filter.limit);
    return (await query).map(toEntry);
  }

  /**
   * One page of entries in the scope, newest first: those before `before` (a seq), keyset-paged
   * on seq (on the company's index for a company's people).
   */
  async page(options: { before?: number; limit: number; scope: AuditScope }): Promise<AuditEntry[]> {
    let query = this.db.knex<Row>('audit_trail').select('*').orderBy('seq', 'desc').limit(options.limit);
    if (options.scope !== 'all') query = query.whereIn('company', [...options.scope.companies]);
    if (options.before !== undefined) query = query.where('seq', '<', options.before);
    return (await query).map(toEntry);
  }

  /**
   * Checks the entries a reader is shown, wherever they are in the chain (before the last
   * checkpoint too): each one's content still gives its hash, its company column agrees with
   * that content, the entry before it in the whole chain is still there, and so is the one after
   * it (that names its hash), unless it is the newest. An entry edited in place, or rehashed
   * without rewriting every entry after it, is found; the first problem is returned.
   */
  async checkShown(shown: readonly { seq: number }[]): Promise<{ brokenAt: number; problem: string } | undefined> {
    if (shown.length === 0) return undefined;
    const seqs = shown.map((e) => e.seq);
    const rows = await this.db.knex<Row>('audit_trail').select('*').whereIn('seq', seqs);
    const hashes = rows.map((r) => toStr(r.hash));
    const prevs = rows.map((r) => toStr(r.prev_hash)).filter((h) => h !== AUDIT_GENESIS);
    // The newest entry first: every entry before it had its successor committed by then (appends
    // take turns on the last entry), so one appended meanwhile never reads as a break.
    const newest = await this.db.knex<Row>('audit_trail').max({ seq: 'seq' }).first();
    const [followed, preceding] = await Promise.all([
      this.db.knex<Row>('audit_trail').select('prev_hash').whereIn('prev_hash', hashes),
      prevs.length ? this.db.knex<Row>('audit_trail').select('hash').whereIn('hash', prevs) : Promise.resolve([]),
    ]);
    const hasNext = new Set(followed.map((r) => toStr(r.prev_hash)));
    const hasPrev = new Set(preceding.map((r) => toStr(r.hash)));
    const newestSeq = newest?.seq === null || newest?.seq === undefined ? -1 : toInt(newest.seq);
    for (const seq of [...seqs].sort((a, b) => a - b)) {
      const row = rows.find((r) => toInt(r.seq) === seq);
      const problem = !row
        ? `entry ${seq} was removed while the page was read`
        : (rowProblem(row) ??
          (toStr(row.prev_hash) !== AUDIT_GENESIS && !hasPrev.has(toStr(row.prev_hash))
            ? `the entry before entry ${seq} was removed or changed`
            : seq !== newestSeq && !hasNext.has(toStr(row.hash))
              ? `entry ${seq} is no longer followed by the entry after it: it or its successor was changed or removed`
              : undefined));
      if (problem) return { brokenAt: seq, problem };
    }
    return undefined;
  }

  /**
   * Walks the chain and names the first entry that does not hold, recording a checkpoint after
   * each page found intact. From `genesis` (the default) it walks every entry and trusts no
   * checkpoint; from `checkpoint` it starts after the last checkpoint, once that entry is still
   * there with its recorded hash, so a change before it is found only by a walk from genesis.
   */
  async verify(options: { from?: 'genesis' | 'checkpoint' } = {}): Promise<AuditCheck> {
    let prev = AUDIT_GENESIS;
    let entries = 0;
    let after = -1;
    const from = options.from === 'checkpoint' ? await this.lastCheckpoint() : undefined;
    if (from) {
      const row = await this.db.knex<Row>('audit_trail').where('seq', from.seq).first();
      if (!row || toStr(row.hash) !== from.hash || hashOf(row) !== from.hash)
        return {
          ok: false,
          entries: from.entries - 1,
          brokenAt: from.seq,
          problem: `entry ${from.seq}, the last checkpoint, was changed or removed since it was verified`,
          from,
        };
      ({ seq: after, hash: prev, entries } = from);
    }
    const started = from ? { from } : {};
    for (;;) {
      const rows = await this.db
        .knex<Row>('audit_trail')
        .select('*')
        .where('seq', '>', after)
        .orderBy('seq', 'asc')
        .limit(VERIFY_PAGE);
      for (const row of rows) {
        const entry = toEntry(row);
        const problem =
          entry.prevHash !== prev
            ? `entry ${entry.seq} does not follow the entry before it: an entry was removed, inserted or changed there`
            : rowProblem(row);
        if (problem) return { ok: false, entries, brokenAt: entry.seq, problem, ...started };
        prev = entry.hash;
        entries++;
        after = entry.seq;
      }
      if (rows.length > 0) await this.recordCheckpoint({ seq: after, hash: prev, entries });
      if (rows.length < VERIFY_PAGE) return { ok: true, entries, headHash: prev, ...started };
    }
  }

  /** The checkpoint furthest along the chain, if any verification recorded one. */
  async lastCheckpoint(): Promise<AuditCheckpoint | undefined> {
    const row = await this.db.knex<Row>('audit_checkpoints').orderBy('seq', 'desc').first();
    return row
      ? {
          seq: toInt(row.seq),
          hash: toStr(row.hash),
          entries: toInt(row.entries),
          verifiedAt: new Date(toStr(row.verified_at)),
        }
      : undefined;
  }

  private async recordCheckpoint(c: Omit<AuditCheckpoint, 'verifiedAt'>): Promise<void> {
    await this.db
      .knex('audit_checkpoints')
      .insert({ seq: c.seq, hash: c.hash, entries: c.entries, verified_at: instant(this.clock.now()) })
      .onConflict('seq')
      .ignore();
  }

  private async appendIn(trx: Knex.Transaction, input: AuditEntryInput): Promise<AuditEntry> {
    const last = await forUpdate(trx, trx<Row>('audit_trail').select('hash').orderBy('seq', 'desc').limit(1)).first();
    const row: Row = {
      company: auditCompanyOf(input) ?? null,
      at: instant(this.clock.now()),
      actor: input.actor,
      action: input.action,
      subject_type: input.subject.type,
      subject_id: input.subject.id,
      reason: input.reason ?? null,
      ...(input.said === undefined ? {} : { reason_text: JSON.stringify(input.said) }),
      origin: input.origin,
      details_json: JSON.stringify(input.details ?? {}, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
      prev_hash: last ? toStr(last.hash) : AUDIT_GENESIS,
    };
    row.hash = hashOf(row);
    const [seq] = (await trx('audit_trail').insert(row)) as unknown[];
    return toEntry({ ...row, seq });
  }
}

/** What is wrong with one stored entry on its own: content that no longer gives its hash, or a moved company. */
function rowProblem(row: Row): string | undefined {
  const seq = toInt(row.seq);
  if (hashOf(row) !== toStr(row.hash))
    return `entry ${seq} was changed after it was written: its content no longer gives its hash`;
  const entry = toEntry(row);
  if ((toOptStr(row.company) ?? null) !== (auditCompanyOf(entry) ?? null))
    return `entry ${seq} was moved to another company: its company column no longer says what its content does`;
  return undefined;
}

/**
 * The hash of an entry: every column but its sequence number and company (which repeats details), in a fixed order, as JSON.
 * The reason's recorded text (migration 0763) is hashed after them when the entry has one, so
 * entries written before it keep their hashes and an edit of a later one's text is found.
 */
function hashOf(row: Row): string {
  const said = row.reason_text === null || row.reason_text === undefined ? [] : [row.reason_text];
  const content = [
    row.prev_hash,
    row.at,
    row.actor,
    row.action,
    row.subject_type,
    row.subject_id,
    row.reason ?? null,
    row.origin,
    row.details_json,
    ...said,
  ].map((v) => (v === null || v === undefined ? null : toStr(v)));
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

function toEntry(row: Row): AuditEntry {
  const reason = toOptStr(row.reason);
  const company = toOptStr(row.company);
  const said = toOptRecordedText(row.reason_text);
  let details: Record<string, unknown>;
  try {
    details = JSON.parse(toStr(row.details_json)) as Record<string, unknown>;
  } catch {
    // An edit that left no JSON: the hash check names the entry; shown as it stands.
    details = { unreadable: toStr(row.details_json) };
  }
  return {
    seq: toInt(row.seq),
    ...(company === undefined ? {} : { company }),
    at: new Date(toStr(row.at)),
    actor: toStr(row.actor),
    action: toStr(row.action),
    subject: { type: toStr(row.subject_type), id: toStr(row.subject_id) },
    ...(reason === undefined ? {} : { reason }),
    ...(said === undefined ? {} : { said }),
    origin: toStr(row.origin),
    details,
    prevHash: toStr(row.prev_hash),
    hash: toStr(row.hash),
  };
}
