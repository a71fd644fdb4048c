// Reconciliation findings that need a person, per company, and what a person decided about
// each. The reconcile job records every run's findings (`recordRun`) after honouring the
// decisions (`decisions`); `settle findings` lists them and decides (`decide`), each decision
// written to the audit trail in the same transaction.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import type { Money } from '../domain/money.js';
import type { RecordedText } from '../domain/recorded-text.js';
import type { AuditTrail } from './audit-trail.js';
import type { Database } from './database.js';
import type { FindingChange, PeriodSignoffRepository } from './period-signoffs.js';
import {
  chunks,
  forUpdate,
  instant,
  throughIndex,
  toBigInt,
  toBool,
  toOptDate,
  toOptRecordedText,
  toOptStr,
  toStr,
  type Row,
} from './rows.js';

/** Findings written a statement (a run's new ones, or its known ones refreshed). */
const ROWS_A_STATEMENT = 500;
/** What a run leaves of a finding it knows: its key, when it was first seen, and the decision on it. */
const KEPT_ON_REFRESH = new Set(['company', 'id', 'first_seen_at', 'decision']);

export type FindingDecisionKind = 'open' | 'acknowledged' | 'confirmed' | 'rejected';

/** A finding as one run saw it. */
export interface FindingSeen {
  id: string;
  type: string;
  factHash: string;
  /** What the finding is about, in a few words (e.g. "payment ACME-2026-0003 to Nordic Supplies"). */
  subject: string;
  summary: string;
  /** `summary` as recorded text (catalogue key and values), for a reader of another language; old rows have none. */
  summaryText?: RecordedText;
  /** The account it is about (debtor account, booked account, statement account). */
  accountIban?: string;
  /** The money it is about, as a positive amount. */
  amount?: Money;
  /** The day it is about (src/domain/reconcile/signoff-period.ts, findingDay): its period. */
  factDate?: string;
}

export interface StoredFinding extends FindingSeen {
  company: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  lastRunId: string;
  /** In the company's latest reconciliation run. */
  present: boolean;
  decision: FindingDecisionKind;
  decidedHash?: string;
  decidedBy?: string;
  decidedAt?: Date;
  decidedReason?: string;
  /** The person (src/domain/person.ts) it is assigned to, by whom and when. */
  assignedTo?: string;
  assignedBy?: string;
  assignedAt?: Date;
}

const VERB: Record<FindingDecisionKind, string> = {
  open: 'reopen',
  acknowledged: 'acknowledge',
  confirmed: 'confirm',
  rejected: 'reject',
};

export interface Decision {
  decision: FindingDecisionKind;
  actor: string;
  origin: string;
  reason: string;
}

/** Who assigns a finding to whom; `to` undefined takes the assignment away. */
export interface Assignment {
  to?: string;
  actor: string;
  origin: string;
}

export class FindingRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
    private readonly signoffs: PeriodSignoffRepository,
  ) {}

  /**
   * Of these findings of the company, the ones a person decided about (not reopened), by id. By
   * id, through the key: a run asks about the findings it has, never every decision the company
   * has made in its years.
   */
  async decisions(company: string, ids: readonly string[]): Promise<Map<string, StoredFinding>> {
    const out = new Map<string, StoredFinding>();
    for (const part of chunks([...new Set(ids)]))
      for (const r of await this.db
        .knex<Row>('findings')
        .where({ company })
        .whereIn('id', part)
        .whereNot({ decision: 'open' }))
        out.set(toStr(r.id), toStoredFinding(r));
    return out;
  }

  /**
   * The English sentence and its recorded text of these findings of the company, by id (for a
   * report's CSV a person opens in their language). By id, through the key, as `decisions`.
   */
  async sentences(
    company: string,
    ids: readonly string[],
  ): Promise<Map<string, { summary: string; summaryText?: RecordedText }>> {
    const out = new Map<string, { summary: string; summaryText?: RecordedText }>();
    for (const part of chunks([...new Set(ids)]))
      for (const r of await this.db
        .knex<Row>('findings')
        .select('id', 'summary', 'summary_text')
        .where({ company })
        .whereIn('id', part)) {
        const summaryText = toOptRecordedText(r.summary_text);
        out.set(toStr(r.id), { summary: toStr(r.summary), ...(summaryText ? { summaryText } : {}) });
      }
    return out;
  }

  /**
   * Records one run's findings: new ones are added, known ones refreshed, the rest marked absent.
   * Reads and writes what the run touches — its findings by key, and the ones present before —
   * not every finding the company ever had, which grows with the years.
   */
  async recordRun(company: string, runId: string, seen: readonly FindingSeen[]): Promise<void> {
    const at = instant(this.clock.now());
    const seenIds = new Set(seen.map((f) => f.id));
    // A run that found nothing where nothing was present before (most companies, most nights)
    // has nothing to write: one read, no transaction, whose BEGIN and COMMIT would be two more
    // round trips for every company of a bureau's night.
    if (seenIds.size === 0 && (await presentIds(this.db.knex, company)).length === 0) return;
    await this.db.transaction(async (trx) => {
      // Each known finding's facts as recorded: a new one, or one whose facts changed, reopens a signed period.
      const known = new Map<string, string>();
      for (const part of chunks([...seenIds]))
        for (const r of await trx<Row>('findings').select('id', 'fact_hash').where({ company }).whereIn('id', part))
          known.set(toStr(r.id), toStr(r.fact_hash));
      // The ones present before and not seen now, marked by key (the seen ones are written below).
      const gone = (await presentIds(trx, company)).filter((id) => !seenIds.has(id));
      for (const part of chunks(gone))
        await trx('findings').where({ company }).whereIn('id', part).update({ present: false });
      const fresh: Row[] = [];
      const refreshed: Row[] = [];
      const changes: FindingChange[] = [];
      for (const f of seen) {
        const fields = {
          type: f.type,
          fact_hash: f.factHash,
          subject: f.subject.slice(0, 255),
          summary: f.summary,
          summary_text: f.summaryText ? JSON.stringify(f.summaryText) : null,
          last_seen_at: at,
          last_run_id: runId,
          present: true,
          account_iban: f.accountIban?.slice(0, 34) ?? null,
          amount_minor: f.amount ? (f.amount.minor < 0n ? -f.amount.minor : f.amount.minor).toString() : null,
          currency: f.amount?.currency ?? null,
          fact_date: f.factDate ?? null,
        };
        const before = known.get(f.id);
        if (before === undefined || before !== f.factHash)
          changes.push({
            id: f.id,
            type: f.type,
            factDate: f.factDate ?? '',
            what: before === undefined ? 'new since the sign-off' : 'with changed facts since the sign-off',
          });
        const row = { company, id: f.id, ...fields, first_seen_at: at, decision: 'open' };
        (before === undefined ? fresh : refreshed).push(row);
      }
      for (let i = 0; i < fresh.length; i += ROWS_A_STATEMENT)
        await trx('findings').insert(fresh.slice(i, i + ROWS_A_STATEMENT));
      // The known ones refreshed 500 to a statement, not one UPDATE each: a company's open findings
      // are thousands, every night. All of a row is refreshed but what only the stored one knows.
      const refreshedColumns = Object.keys(refreshed[0] ?? {}).filter((column) => !KEPT_ON_REFRESH.has(column));
      for (let i = 0; i < refreshed.length; i += ROWS_A_STATEMENT)
        await trx('findings')
          .insert(refreshed.slice(i, i + ROWS_A_STATEMENT))
          .onConflict(['company', 'id'])
          .merge(refreshedColumns);
      await this.signoffs.reopenFor(trx, company, changes, { actor: 'settle', origin: `reconcile@${runId}` });
    });
  }

  /** Findings of the latest runs (or every one ever recorded with `all`), newest first. */
  async list(filter: { company?: string; all?: boolean } = {}): Promise<StoredFinding[]> {
    let query = this.db
      .knex<Row>('findings')
      .select('*')
      .orderBy([
        { column: 'company', order: 'asc' },
        { column: 'first_seen_at', order: 'desc' },
        { column: 'id', order: 'asc' },
      ]);
    if (filter.company) query = query.where({ company: filter.company });
    if (!filter.all) query = query.where({ present: true });
    return (await query).map(toStoredFinding);
  }

  /** The findings with this id (one per company that has it). */
  async find(id: string, company?: string): Promise<StoredFinding[]> {
    const rows = await this.db
      .knex<Row>('findings')
      .where({ id, ...(company ? { company } : {}) })
      .orderBy('company');
    return rows.map(toStoredFinding);
  }

  /**
   * Records a person's decision on the finding as it stands now (its current facts), and the
   * audit entry that says who, why and from where, in one transaction.
   */
  async decide(company: string, id: string, decision: Decision): Promise<StoredFinding> {
    return this.db.transaction((trx) => this.decideIn(trx, company, id, decision));
  }

  /**
   * One decision on several findings (the console's checkboxes): each one decided as `decide`
   * does, with its own audit entry, all in one transaction, so either every one is decided or,
   * when one is unknown, none.
   */
  async decideMany(company: string, ids: readonly string[], decision: Decision): Promise<StoredFinding[]> {
    return this.db.transaction(async (trx) => {
      const out: StoredFinding[] = [];
      for (const id of [...new Set(ids)]) out.push(await this.decideIn(trx, company, id, decision));
      return out;
    });
  }

  /** Assigns the finding to a person (or takes the assignment away), with an audit entry, in one transaction. */
  async assign(company: string, id: string, assignment: Assignment): Promise<StoredFinding> {
    return this.db.transaction(async (trx) => {
      const row = await this.locked(trx, company, id);
      const update = {
        assigned_to: assignment.to ?? null,
        assigned_by: assignment.to === undefined ? null : assignment.actor,
        assigned_at: assignment.to === undefined ? null : instant(this.clock.now()),
      };
      await trx('findings').where({ company, id }).update(update);
      await this.audit.append(
        {
          actor: assignment.actor,
          action: assignment.to === undefined ? 'finding.unassign' : 'finding.assign',
          subject: { type: 'finding', id: `${company}/${id}` },
          origin: assignment.origin,
          details: {
            company,
            finding: id,
            type: toStr(row.type),
            before: toOptStr(row.assigned_to) ?? null,
            after: assignment.to ?? null,
          },
        },
        trx,
      );
      return toStoredFinding({ ...row, ...update });
    });
  }

  private async locked(trx: Knex.Transaction, company: string, id: string): Promise<Row> {
    const row = await forUpdate(trx, trx<Row>('findings').where({ company, id })).first();
    if (!row)
      throw new SettleError(
        'ERR_FINDING_UNKNOWN',
        `no finding ${id} for company ${company}; see settle findings list`,
        {
          values: { id, company },
        },
      );
    return row;
  }

  private async decideIn(trx: Knex.Transaction, company: string, id: string, decision: Decision) {
    const row = await this.locked(trx, company, id);
    const before = toStoredFinding(row);
    const at = instant(this.clock.now());
    const update = {
      decision: decision.decision,
      decided_hash: decision.decision === 'open' ? null : before.factHash,
      decided_by: decision.actor,
      decided_at: at,
      decided_reason: decision.reason,
    };
    await trx('findings').where({ company, id }).update(update);
    await this.audit.append(
      {
        actor: decision.actor,
        action: `finding.${VERB[decision.decision]}`,
        subject: { type: 'finding', id: `${company}/${id}` },
        reason: decision.reason,
        origin: decision.origin,
        details: {
          company,
          finding: id,
          type: before.type,
          subject: before.subject,
          factHash: before.factHash,
          before: before.decision,
          after: decision.decision,
        },
      },
      trx,
    );
    // A finding a person reopens needs a person again: so does the signed period it is about.
    if (decision.decision === 'open' && before.factDate !== undefined)
      await this.signoffs.reopenFor(
        trx,
        company,
        [
          {
            id,
            type: before.type,
            factDate: before.factDate,
            what: `reopened by ${decision.actor}: ${decision.reason}`,
          },
        ],
        decision,
      );
    return toStoredFinding({ ...row, ...update });
  }
}

export function toStoredFinding(row: Row): StoredFinding {
  const opt = <T>(key: string, value: T | undefined): Partial<Record<string, T>> =>
    value === undefined ? {} : { [key]: value };
  return {
    company: toStr(row.company),
    id: toStr(row.id),
    type: toStr(row.type),
    factHash: toStr(row.fact_hash),
    subject: toStr(row.subject),
    summary: toStr(row.summary),
    ...opt('summaryText', toOptRecordedText(row.summary_text)),
    firstSeenAt: new Date(toStr(row.first_seen_at)),
    lastSeenAt: new Date(toStr(row.last_seen_at)),
    lastRunId: toStr(row.last_run_id),
    present: toBool(row.present),
    decision: toStr(row.decision) as FindingDecisionKind,
    ...opt('decidedHash', toOptStr(row.decided_hash)),
    ...opt('decidedBy', toOptStr(row.decided_by)),
    ...opt('decidedAt', toOptDate(row.decided_at)),
    ...opt('decidedReason', toOptStr(row.decided_reason)),
    ...opt('accountIban', toOptStr(row.account_iban)),
    ...(row.amount_minor !== null && row.amount_minor !== undefined && row.currency
      ? { amount: { minor: toBigInt(row.amount_minor), currency: toStr(row.currency) } }
      : {}),
    ...opt('factDate', toOptStr(row.fact_date)),
    ...opt('assignedTo', toOptStr(row.assigned_to)),
    ...opt('assignedBy', toOptStr(row.assigned_by)),
    ...opt('assignedAt', toOptDate(row.assigned_at)),
  };
}

/** The ids of the company's findings present in its latest run, read through (company, present). */
async function presentIds(knex: Knex | Knex.Transaction, company: string): Promise<string[]> {
  const rows = await knex
    .from<Row>(throughIndex(knex, 'findings', 'findings_company_present_index'))
    .select('id')
    .where({ company, present: true });
  return (rows as Row[]).map((r) => toStr(r.id));
}
