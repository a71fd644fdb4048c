// The reports settle wrote for people, recorded with their content as they are written (pickup's
// error report of a refused or partly accepted file, reconcile's CSV and HTML). The console
// links a report by the id recorded here and always within the signed-in person's company:
// a name or path from a request never selects one.
import type { Clock } from '../domain/clock.js';
import { decodeCursor, keysetPage, afterKey, type PageQuery, type Paged } from './keyset-paging.js';
import type { Database } from './database.js';
import { newId } from './ids.js';
import { instant, toStr, type Row } from './rows.js';

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
    await this.db.knex('reports').insert({
      id,
      company: input.company,
      kind: input.kind,
      subject_type: input.subject.type,
      subject_id: input.subject.id,
      name: input.name,
      media_type: input.mediaType,
      content: input.content,
      created_at: instant(createdAt),
    });
    const { content: _content, ...entry } = input;
    return { ...entry, id, createdAt };
  }

  /** One report of the company with its content; undefined for an unknown id or another company's. */
  async find(company: string, id: string): Promise<(ReportEntry & { content: string }) | undefined> {
    const row = await this.db.knex<Row>('reports').where({ company, id }).first();
    return row ? { ...toEntry(row), content: toStr(row.content) } : undefined;
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
