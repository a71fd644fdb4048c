// The reports settle wrote for people, recorded with their content as they are written (pickup's
// error report of a refused or partly accepted file, reconcile's CSV and HTML). The console
// links a report by the id recorded here and always within the signed-in person's company:
// a name or path from a request never selects one.
//
// The content is recorded in parts of at most 1 MB of UTF-8 (table report_parts, migration
// 0765): a reconciliation CSV of a big period is tens of MB, and one row of it passed MariaDB's
// max_allowed_packet (16 MB by default), failing the night's job after its files were written.
// A report recorded before the parts has its content in the row (`parts` null) and reads from it.
import type { Clock } from '../domain/clock.js';
import { decodeCursor, keysetPage, afterKey, type PageQuery, type Paged } from './keyset-paging.js';
import type { Knex } from 'knex';
import type { Database } from './database.js';
import { newId } from './ids.js';
import { instant, toInt, toOptInt, toStr, type Row } from './rows.js';

/**
 * UTF-16 code units in a part. A code unit is at most 3 bytes of UTF-8 (a surrogate pair is two
 * units and 4 bytes), so a part is at most 768 KiB: under 1 MB, and one insert of it stays far
 * below any max_allowed_packet a server is left with (MariaDB's least default is 1 MB, 10.x 16 MB).
 */
export const REPORT_PART_UNITS = 256 * 1024;

/** Parts read per query: at most 8 × 768 KiB come back at once, whatever the report's size. */
const PARTS_PER_READ = 8;

/**
 * The content cut into parts of at most REPORT_PART_UNITS code units, each between two
 * characters: a part never ends with the high half of a surrogate pair (an emoji), which alone
 * is no UTF-8 and would be stored as U+FFFD. An empty content has no parts.
 */
export function reportParts(content: string): string[] {
  const parts: string[] = [];
  for (let start = 0; start < content.length;) {
    let end = Math.min(start + REPORT_PART_UNITS, content.length);
    const last = content.charCodeAt(end - 1);
    if (end < content.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(content.slice(start, end));
    start = end;
  }
  return parts;
}

export type ReportKind = 'error' | 'reconciliation';

export interface ReportInput {
  company: string;
  kind: ReportKind;
  subject: { type: 'payment_file' | 'reconcile_run'; id: string };
  /** The name it has in the company's folder, for people to find it there. */
  name: string;
  mediaType: 'text/plain' | 'text/csv' | 'text/html';
  content: string;
}

/** A report without its content, for lists and links. */
export interface ReportEntry extends Omit<ReportInput, 'content'> {
  id: string;
  createdAt: Date;
}

const ENTRY_COLUMNS = ['id', 'company', 'kind', 'subject_type', 'subject_id', 'name', 'media_type', 'created_at'];

export class ReportRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  async record(input: ReportInput): Promise<ReportEntry> {
    const id = newId(this.clock);
    const createdAt = this.clock.now();
    const parts = reportParts(input.content);
    // One transaction: a reader sees the report with all its parts or not at all. The parts go
    // one insert each, so no statement carries more than one part to the server.
    await this.db.transaction(async (trx) => {
      await trx('reports').insert({
        id,
        company: input.company,
        kind: input.kind,
        subject_type: input.subject.type,
        subject_id: input.subject.id,
        name: input.name,
        media_type: input.mediaType,
        content: '',
        parts: parts.length,
        size_bytes: Buffer.byteLength(input.content, 'utf8'),
        created_at: instant(createdAt),
      });
      for (const [part, content] of parts.entries()) await trx('report_parts').insert({ report_id: id, part, content });
    });
    const { content: _content, ...entry } = input;
    return { ...entry, id, createdAt };
  }

  /** One report of the company with its content; undefined for an unknown id or another company's. */
  async find(company: string, id: string): Promise<(ReportEntry & { content: string }) | undefined> {
    const report = await this.open(company, id);
    if (!report) return undefined;
    const { content } = report;
    if (typeof content === 'string') return { ...report, content };
    const parts: string[] = [];
    for await (const part of content) parts.push(part);
    return { ...report, content: parts.join('') };
  }

  /**
   * One report of the company, its content to be read as it is sent: the parts in order, read a
   * few per query when iterated, not before (the console streams a report of tens of MB instead
   * of holding it). No connection is held between the queries, so a slow reader keeps none from
   * the pool. A report recorded before the parts has its content from the row, whole. The
   * iteration throws, naming the report, when a part is missing: a ReportGoneError when the
   * report itself was deleted meanwhile (retention), a plain error when only parts are missing.
   * `sizeBytes` is the parts' size in UTF-8 where it was recorded (not for the reports recorded
   * with parts before migration 0767; a content from the row is whole, its size its own).
   */
  async open(
    company: string,
    id: string,
  ): Promise<(ReportEntry & { content: string | AsyncIterable<string>; sizeBytes?: number }) | undefined> {
    const row = await this.db.knex<Row>('reports').where({ company, id }).first();
    if (!row) return undefined;
    if (row.parts === null || row.parts === undefined) return { ...toEntry(row), content: toStr(row.content) };
    const sizeBytes = toOptInt(row.size_bytes);
    return { ...toEntry(row), content: readParts(this.db.knex, id, toInt(row.parts)), sizeBytes };
  }

  /** The reports about one subject (a file's error reports), oldest first, at most 20. */
  async about(company: string, subject: ReportInput['subject']): Promise<ReportEntry[]> {
    const rows = (await this.db
      .knex<Row>('reports')
      .select(ENTRY_COLUMNS)
      .where({ company, subject_type: subject.type, subject_id: subject.id })
      .orderBy('id', 'asc')
      .limit(20)) as Row[];
    return rows.map(toEntry);
  }

  /** The company's reports of a kind, newest first, keyset paged. */
  async list(company: string, kind: ReportKind, query: PageQuery = {}): Promise<Paged<ReportEntry>> {
    const keys = ['created_at', 'id'];
    const q = this.db
      .knex<Row>('reports')
      .select(ENTRY_COLUMNS)
      .where({ company, kind })
      .orderBy(keys.map((column) => ({ column, order: 'desc' })));
    if (query.after !== undefined) afterKey(q, keys, decodeCursor(query.after, 2), 'desc');
    return keysetPage(q, query, toEntry, (r) => [toStr(r.created_at), toStr(r.id)]);
  }
}

/** The report was deleted while it was being read (retention purged it): as if never found. */
export class ReportGoneError extends Error {
  constructor(id: string) {
    super(`report ${id} was deleted while it was read`);
    this.name = 'ReportGoneError';
  }
}

/**
 * A report's parts in order, a few per query. Throws, naming the report, when a part is missing
 * or there are more than recorded: a report is never served short or out of order.
 */
async function* readParts(knex: Knex, id: string, count: number): AsyncGenerator<string> {
  try {
    yield* partsInOrder(knex, id, count);
  } catch (error) {
    // A missing part with its report gone too is a deletion that came between the report's row
    // and its parts, not a damaged report.
    if (!(error instanceof MissingPartError)) throw error;
    const still = await knex<Row>('reports').select('id').where({ id }).first();
    throw still === undefined ? new ReportGoneError(id) : error;
  }
}

class MissingPartError extends Error {}

async function* partsInOrder(knex: Knex, id: string, count: number): AsyncGenerator<string> {
  let next = 0;
  for (;;) {
    const rows = (await knex<Row>('report_parts')
      .select('part', 'content')
      .where({ report_id: id })
      .where('part', '>=', next)
      .orderBy('part', 'asc')
      .limit(PARTS_PER_READ)) as Row[];
    for (const r of rows) {
      if (next >= count) throw new Error(`report ${id} has more parts than the ${count} recorded with it`);
      if (toInt(r.part) !== next)
        throw new MissingPartError(`report ${id} is missing its parts: part ${next} of ${count} is not recorded`);
      next++;
      yield toStr(r.content);
    }
    if (rows.length < PARTS_PER_READ) break;
  }
  if (next !== count)
    throw new MissingPartError(`report ${id} is missing its parts: part ${next} of ${count} is not recorded`);
}

function toEntry(r: Row): ReportEntry {
  return {
    id: toStr(r.id),
    company: toStr(r.company),
    kind: toStr(r.kind) as ReportKind,
    subject: { type: toStr(r.subject_type) as ReportInput['subject']['type'], id: toStr(r.subject_id) },
    name: toStr(r.name),
    mediaType: toStr(r.media_type) as ReportInput['mediaType'],
    createdAt: new Date(toStr(r.created_at)),
  };
}
