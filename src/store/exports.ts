// What was written to the outbox, per format, subject (account or payment file) and period,
// so an export job does not write the same day twice, and a deliberate re-export gets the
// next version number instead of silently replacing what the ledger already imported.
import type { Clock } from '../domain/clock.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Database } from './database.js';
import { insertAll } from './insert-all.js';
import { newId } from './ids.js';
import { chunks, instant, isUniqueViolation, readAsked, toDate, toInt, toOptStr, toStr, type Row } from './rows.js';

export interface ExportInput {
  company: string;
  /** e.g. camt.053.001.02, csv-statement, pain.002.001.03, csv-status */
  format: string;
  /** Account id, or payment file id for status files. */
  subjectId: string;
  /** The day (YYYY-MM-DD) or another stable key of what was exported. */
  period: string;
  fileName: string;
  sha256?: string;
  entryCount: number;
}

export interface StoredExport extends ExportInput {
  id: string;
  version: number;
  exportedAt: Date;
}

/** A period's ElctrncSeqNb, and the SHA-256 of its file when it was numbered with its content. */
export interface NumberedPeriod {
  number: number;
  sha256?: string;
}

/**
 * The last day of a statement period ("2026-01-02", or "2026-01-02..2026-01-04" for a run of
 * days), kept beside it so the periods reaching into a window are read by an index range;
 * null for the other exports' keys (payment status files).
 */
export function periodLastDay(period: string): string | null {
  const match = /^\d{4}-\d{2}-\d{2}(?:\.\.(\d{4}-\d{2}-\d{2}))?$/.exec(period);
  return match === null ? null : (match[1] ?? period);
}

/** The highest number given; numbering goes on after it (0 when none was given). */
export function highestSequenceNumber(numbers: Iterable<number>): number {
  let highest = 0;
  for (const n of numbers) highest = Math.max(highest, n);
  return highest;
}

export class ExportRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * The periods already exported for a format, per account (any version); with `from`, those
   * whose last day is on or after it. One read for several accounts (an export reads a
   * company's together).
   */
  async exportedPeriodsOf(
    format: string,
    accountIds: readonly string[],
    from?: LocalDate,
  ): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(accountIds.map((id) => [id, []]));
    for (const part of chunks(accountIds)) {
      const q = this.db
        .knex<Row>('exports')
        .distinct('subject_id', 'period')
        .where({ format })
        .whereIn('subject_id', part);
      if (from !== undefined) void q.where('last_day', '>=', from);
      for (const r of await q) out.get(toStr(r.subject_id))?.push(toStr(r.period));
    }
    return out;
  }

  /** The electronic sequence numbers (ElctrncSeqNb) given to an account's periods in a format. */
  async sequenceNumbers(format: string, accountId: string): Promise<Map<string, number>> {
    return new Map([...(await this.numberedPeriods(format, accountId))].map(([p, n]) => [p, n.number]));
  }

  /**
   * The account's numbered periods in a format: each one's ElctrncSeqNb and, when it was numbered
   * with its content, the SHA-256 of the file about to be written then.
   */
  async numberedPeriods(format: string, accountId: string, from?: LocalDate): Promise<Map<string, NumberedPeriod>> {
    return (await this.numberedPeriodsOf(format, [accountId], from)).get(accountId) ?? new Map();
  }

  /** `numberedPeriods` of several accounts in one read (an export reads a company's together). */
  async numberedPeriodsOf(
    format: string,
    accountIds: readonly string[],
    from?: LocalDate,
  ): Promise<Map<string, Map<string, NumberedPeriod>>> {
    const knex = this.db.knex;
    const out = new Map<string, Map<string, NumberedPeriod>>(accountIds.map((id) => [id, new Map()]));
    for (const part of chunks(accountIds)) {
      const q = knex<Row>('electronic_sequence_numbers')
        .select('account_id', 'period', 'number', 'sha256')
        .where({ format })
        .whereIn('account_id', part);
      // From a day on: the periods reaching into it, and each account's highest-numbered one of
      // all, which its next number follows (an explicit export of an old period may hold it).
      if (from !== undefined) {
        const highest = knex('electronic_sequence_numbers')
          .select('account_id')
          .max('number as top')
          .where({ format })
          .whereIn('account_id', part)
          .groupBy('account_id')
          .as('h');
        void q.where('last_day', '>=', from).unionAll(
          knex('electronic_sequence_numbers as e')
            .select('e.account_id', 'e.period', 'e.number', 'e.sha256')
            .join(highest, (on) => on.on('h.account_id', '=', 'e.account_id').andOn('h.top', '=', 'e.number'))
            .where('e.format', format),
        );
      }
      for (const r of (await q) as Row[]) {
        const sha256 = toOptStr(r.sha256);
        out
          .get(toStr(r.account_id))
          ?.set(
            toStr(r.period),
            sha256 === undefined ? { number: toInt(r.number) } : { number: toInt(r.number), sha256 },
          );
      }
    }
    return out;
  }

  /**
   * Gives periods the numbers the caller chose (each the next after the highest given) with
   * the SHA-256 of the file each will be written as, in one insert: the record a run that stops
   * before recording its files leaves, so the next run can tell whether what it would write again
   * is still what may have been delivered. False, with nothing inserted, when another export took
   * one of the numbers meanwhile: read again and retry.
   */
  async numberPeriods(
    format: string,
    accountId: string,
    periods: readonly { period: string; number: number; sha256?: string }[],
  ): Promise<boolean> {
    const assignedAt = instant(this.clock.now());
    const rows = periods.map((p) => ({
      account_id: accountId,
      format,
      period: p.period,
      last_day: periodLastDay(p.period),
      number: p.number,
      sha256: p.sha256 ?? null,
      assigned_at: assignedAt,
    }));
    try {
      await insertAll(this.db, 'electronic_sequence_numbers', rows);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  /**
   * The periods' electronic sequence numbers: the one a period was given, else the next after
   * the highest given for the account and format, in the order listed, as one insert. A number
   * is never given twice (unique key; when another export took one meanwhile, read and try
   * again) and never changes, so a late day gets a new number instead of one a file carries.
   */
  async assignSequenceNumbers(
    format: string,
    accountId: string,
    periods: readonly string[],
  ): Promise<Map<string, number>> {
    for (let attempt = 0; ; attempt++) {
      const numbers = await this.sequenceNumbers(format, accountId);
      let highest = highestSequenceNumber(numbers.values());
      const rows: { period: string; number: number }[] = [];
      for (const period of new Set(periods)) {
        if (numbers.has(period)) continue;
        numbers.set(period, ++highest);
        rows.push({ period, number: highest });
      }
      if (await this.numberPeriods(format, accountId, rows)) return numbers;
      if (attempt >= 20) throw new Error(`could not number ${format} periods of ${accountId}: taken each time`);
    }
  }

  /** The exports already written for this format, subject and period, oldest version first. */
  async find(format: string, subjectId: string, period: string): Promise<StoredExport[]> {
    return (await this.db.knex<Row>('exports').where({ format, subject_id: subjectId, period }).orderBy('version')).map(
      toExport,
    );
  }

  /** Which of `formats` hold a record of the subject's period (one read for all of them). */
  async formatsWith(formats: readonly string[], subjectId: string, period: string): Promise<Set<string>> {
    if (formats.length === 0) return new Set();
    const rows = await this.db
      .knex<Row>('exports')
      .distinct('format')
      .whereIn('format', [...formats])
      .where({ subject_id: subjectId, period });
    return new Set(rows.map((r) => toStr(r.format)));
  }

  /**
   * The latest version of each of its periods recorded for each subject in a format: one read
   * for several subjects while they are few (an export checks a company's accounts together;
   * their periods are mostly the same).
   */
  async latestOfAll(
    format: string,
    wanted: ReadonlyMap<string, readonly string[]>,
  ): Promise<Map<string, Map<string, StoredExport>>> {
    const out = new Map<string, Map<string, StoredExport>>([...wanted.keys()].map((id) => [id, new Map()]));
    const rows = await readAsked(
      wanted,
      (subjects, periods) =>
        this.db
          .knex<Row>('exports')
          .where({ format })
          .whereIn('subject_id', subjects)
          .whereIn('period', periods)
          .orderBy('version'),
      (r) => [toStr(r.subject_id), toStr(r.period)],
    );
    // In version order, so each period keeps its latest.
    for (const stored of rows.map(toExport)) out.get(stored.subjectId)?.set(stored.period, stored);
    return out;
  }

  /** Records an export as the next version for its format, subject and period. */
  async record(input: ExportInput): Promise<StoredExport> {
    for (let attempt = 0; ; attempt++) {
      const existing = await this.find(input.format, input.subjectId, input.period);
      const version = (existing.at(-1)?.version ?? 0) + 1;
      const row = {
        id: newId(this.clock),
        company: input.company,
        format: input.format,
        subject_id: input.subjectId,
        period: input.period,
        last_day: periodLastDay(input.period),
        version,
        file_name: input.fileName,
        sha256: input.sha256 ?? null,
        entry_count: input.entryCount,
        exported_at: instant(this.clock.now()),
      };
      try {
        await this.db.knex('exports').insert(row);
        return toExport(row);
      } catch (error) {
        // Another instance recorded the same version first: take the next one.
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
  }

  /**
   * Records exports of periods never exported before as their first versions, in one insert
   * and one commit (an export of a month of history). When another instance recorded any of
   * them meanwhile, the insert fails as a whole and each is recorded on its own as `record` does.
   */
  async recordFirsts(inputs: readonly ExportInput[]): Promise<StoredExport[]> {
    const exportedAt = instant(this.clock.now());
    const rows = inputs.map((input) => ({
      id: newId(this.clock),
      company: input.company,
      format: input.format,
      subject_id: input.subjectId,
      period: input.period,
      last_day: periodLastDay(input.period),
      version: 1,
      file_name: input.fileName,
      sha256: input.sha256 ?? null,
      entry_count: input.entryCount,
      exported_at: exportedAt,
    }));
    try {
      await insertAll(this.db, 'exports', rows);
      return rows.map(toExport);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const stored: StoredExport[] = [];
      for (const input of inputs) stored.push(await this.record(input));
      return stored;
    }
  }
}

function toExport(r: Row): StoredExport {
  const sha256 = toOptStr(r.sha256);
  return {
    id: toStr(r.id),
    company: toStr(r.company),
    format: toStr(r.format),
    subjectId: toStr(r.subject_id),
    period: toStr(r.period),
    version: toInt(r.version),
    fileName: toStr(r.file_name),
    ...(sha256 === undefined ? {} : { sha256 }),
    entryCount: toInt(r.entry_count),
    exportedAt: toDate(r.exported_at),
  };
}
