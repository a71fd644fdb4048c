// Period sign-off (issue #48): finance closes a month or a day of a company once no finding about
// its days needs a person. The row keeps what the period was closed on — the balances per
// account from the statements, the totals by finding type — and who signed; a finding that
// later appears in the period or changes there reopens it (`reopenFor`, called by the findings
// repository in the transaction that records the change), visibly and with the reason. Signing,
// refusing and reopening each write their audit entry in the same transaction.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import { SettleError } from '../domain/errors.js';
import { instantFigure } from '../domain/recorded-text.js';
import type { LocalDate } from '../domain/local-date.js';
import type { Money } from '../domain/money.js';
import type { AuditTrail } from './audit-trail.js';
import type { Database } from './database.js';
import { forUpdate, instant, toBigInt, toDate, toInt, toJson, toOptDate, toOptStr, toStr, type Row } from './rows.js';

export type SignoffState = 'signed' | 'reopened';

/** One account's balances over the period, as the reconciliation report computes them (minor units). */
export interface PeriodBalance {
  accountIban: string;
  currency: string;
  opening?: bigint;
  sent: bigint;
  bookedOut: bigint;
  bookedIn: bigint;
  closing?: bigint;
  /** The bank's closing balance of the period's last statement day. */
  reported?: bigint;
  difference?: bigint;
}

/** The period's findings of one type: how many, how many a person decided, and their money. */
export interface PeriodTypeTotal {
  type: string;
  findings: number;
  decided: number;
  amounts: Money[];
}

export interface StoredSignoff {
  company: string;
  period: string;
  from: LocalDate;
  to: LocalDate;
  state: SignoffState;
  signedBy: string;
  signedPerson: string;
  signedAt: Date;
  note?: string;
  balances: PeriodBalance[];
  totals: PeriodTypeTotal[];
  reopenedAt?: Date;
  reopenedReason?: string;
}

export interface SignoffInput {
  company: string;
  period: string;
  from: LocalDate;
  to: LocalDate;
  /** The login (`local:kari`, `oidc:…`, a command-line actor) and the person behind it. */
  actor: string;
  person: string;
  origin: string;
  note?: string;
  balances: readonly PeriodBalance[];
}

/** A finding recorded anew, or with new facts, or reopened by a person: it may reopen a signed period. */
export interface FindingChange {
  id: string;
  type: string;
  factDate: string;
  /** What happened to it, in words: "new since the sign-off", "its facts changed", "reopened by kari: …". */
  what: string;
}

/** A finding that keeps a period from being signed off, as the refusal names it. */
export interface OpenFinding {
  id: string;
  type: string;
  subject: string;
  factDate: string;
}

/** How many open findings a refusal names before "and N more". */
const LISTED = 20;

export class PeriodSignoffRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async get(company: string, period: string): Promise<StoredSignoff | undefined> {
    const row = await this.db.knex<Row>('period_signoffs').where({ company, period }).first();
    return row ? toSignoff(row) : undefined;
  }

  /** The company's signed (and reopened) periods, latest first. */
  async list(company?: string): Promise<StoredSignoff[]> {
    const q = this.db.knex<Row>('period_signoffs').orderBy([
      { column: 'company', order: 'asc' },
      { column: 'to_date', order: 'desc' },
      { column: 'period', order: 'asc' },
    ]);
    if (company !== undefined) void q.where({ company });
    return (await q).map(toSignoff);
  }

  /** The findings of the company's latest run about a day of the period that need a person. */
  async needingPerson(
    company: string,
    from: LocalDate,
    to: LocalDate,
    knex?: Knex | Knex.Transaction,
  ): Promise<OpenFinding[]> {
    const rows = await (knex ?? this.db.knex)<Row>('findings')
      .where({ company, present: true })
      .whereBetween('fact_date', [from, to])
      .andWhere(
        (q) =>
          // Decided on facts that have changed since: it needs a person again (src/domain/reconcile/decisions.ts).
          void q.where({ decision: 'open' }).orWhereNull('decided_hash').orWhereRaw('decided_hash <> fact_hash'),
      )
      .select('id', 'type', 'subject', 'fact_date')
      .orderBy([
        { column: 'fact_date', order: 'asc' },
        { column: 'id', order: 'asc' },
      ]);
    return rows.map((r): OpenFinding => ({
      id: toStr(r.id),
      type: toStr(r.type),
      subject: toStr(r.subject),
      factDate: toStr(r.fact_date),
    }));
  }

  /** Per finding type of the period (present in the latest run): how many, decided, and the money per currency. */
  async totals(company: string, from: LocalDate, to: LocalDate, knex?: Knex | Knex.Transaction) {
    const k = knex ?? this.db.knex;
    const rows = (await k<Row>('findings')
      .where({ company, present: true })
      .whereBetween('fact_date', [from, to])
      .groupBy('type', 'currency')
      .select('type', 'currency')
      .select(k.raw('count(*) as n'))
      .select(k.raw("sum(case when decision <> 'open' and decided_hash = fact_hash then 1 else 0 end) as decided"))
      .select(k.raw('sum(amount_minor) as total'))
      .orderBy('type')) as Row[];
    const byType = new Map<string, PeriodTypeTotal>();
    for (const r of rows) {
      const type = toStr(r.type);
      const t = byType.get(type) ?? { type, findings: 0, decided: 0, amounts: [] };
      t.findings += toInt(r.n);
      t.decided += toInt(r.decided);
      const currency = toOptStr(r.currency);
      if (currency !== undefined && r.total !== null) t.amounts.push({ currency, minor: toBigInt(r.total) });
      byType.set(type, t);
    }
    return [...byType.values()];
  }

  /**
   * Signs the period off: refused while a finding about its days needs a person (the list in
   * the error) or while it stands signed; else the balances, the totals by finding type and the
   * signer are recorded with an audit entry, in one transaction.
   */
  async sign(input: SignoffInput): Promise<StoredSignoff> {
    return this.db.transaction(async (trx) => {
      const { company, period, from, to } = input;
      const existing = await forUpdate(trx, trx<Row>('period_signoffs').where({ company, period })).first();
      if (existing && toStr(existing.state) === 'signed')
        throw new SettleError(
          'ERR_PERIOD_SIGNED',
          `${company} ${period} was signed off by ${toStr(existing.signed_by)} at ${toStr(existing.signed_at)}; nothing reopened it since`,
          { values: { company, period, by: toStr(existing.signed_by), at: instantFigure(toDate(existing.signed_at)) } },
        );
      const open = await this.needingPerson(company, from, to, trx);
      if (open.length > 0) {
        const listed = open.slice(0, LISTED).map((f) => `${f.id} ${f.type} (${f.subject})`);
        const more = open.length > LISTED ? `, and ${open.length - LISTED} more` : '';
        throw new SettleError(
          'ERR_PERIOD_NEEDS_PERSON',
          `${company} ${period} cannot be signed off: ${open.length} finding(s) still need a person: ${listed.join('; ')}${more}`,
          {
            values: {
              company,
              period,
              count: open.length,
              listed: listed.join('; '),
              more: Math.max(0, open.length - LISTED),
            },
          },
        );
      }
      const totals = await this.totals(company, from, to, trx);
      const row: Row = {
        company,
        period,
        from_date: from,
        to_date: to,
        state: 'signed',
        signed_by: input.actor,
        signed_person: input.person,
        signed_at: instant(this.clock.now()),
        note: input.note ?? null,
        balances: JSON.stringify(input.balances, bigintText),
        totals: JSON.stringify(totals, bigintText),
        reopened_at: null,
        reopened_reason: null,
      };
      if (existing) await trx('period_signoffs').where({ company, period }).update(row);
      else await trx('period_signoffs').insert(row);
      await this.audit.append(
        {
          actor: input.actor,
          action: 'period.signoff',
          subject: { type: 'period', id: `${company}/${period}` },
          ...(input.note ? { reason: input.note } : {}),
          origin: input.origin,
          details: {
            company,
            period,
            from,
            to,
            person: input.person,
            again: existing !== undefined,
            accounts: input.balances.length,
            totals: totals.map((t) => ({ type: t.type, findings: t.findings, decided: t.decided })),
          },
        },
        trx,
      );
      return toSignoff(row);
    });
  }

  /**
   * Reopens each signed period of the company that one of these changed findings is about, with
   * the reason and an audit entry, in the caller's transaction. Reads only the periods that
   * can hold the changes' days.
   */
  async reopenFor(
    trx: Knex.Transaction,
    company: string,
    changes: readonly FindingChange[],
    who: { actor: string; origin: string },
  ): Promise<void> {
    const dated = changes.filter((c) => c.factDate !== '');
    if (dated.length === 0) return;
    const days = dated.map((c) => c.factDate).sort();
    const periods = await forUpdate(
      trx,
      trx<Row>('period_signoffs')
        .where({ company, state: 'signed' })
        .where('from_date', '<=', days[days.length - 1]!)
        .where('to_date', '>=', days[0]!),
    );
    for (const p of periods) {
      const inside = dated.filter((c) => c.factDate >= toStr(p.from_date) && c.factDate <= toStr(p.to_date));
      if (inside.length === 0) continue;
      const reason = inside
        .slice(0, LISTED)
        .map((c) => `finding ${c.id} (${c.type}, ${c.factDate}) ${c.what}`)
        .join('; ');
      const period = toStr(p.period);
      await trx('period_signoffs')
        .where({ company, period })
        .update({ state: 'reopened', reopened_at: instant(this.clock.now()), reopened_reason: reason });
      await this.audit.append(
        {
          actor: who.actor,
          action: 'period.reopen',
          subject: { type: 'period', id: `${company}/${period}` },
          reason,
          origin: who.origin,
          details: { company, period, signedBy: toStr(p.signed_by), findings: inside.map((c) => c.id) },
        },
        trx,
      );
    }
  }
}

function bigintText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

const MINOR_KEYS = ['opening', 'sent', 'bookedOut', 'bookedIn', 'closing', 'reported', 'difference'] as const;

function toSignoff(row: Row): StoredSignoff {
  const balances = (toJson<Record<string, unknown>[]>(row.balances) ?? []).map((b) => {
    const out: Record<string, unknown> = { accountIban: b.accountIban, currency: b.currency };
    for (const k of MINOR_KEYS) if (b[k] !== undefined && b[k] !== null) out[k] = toBigInt(b[k]);
    return out as unknown as PeriodBalance;
  });
  const totals = (toJson<{ type: string; findings: number; decided: number; amounts: Row[] }[]>(row.totals) ?? []).map(
    (t) => ({ ...t, amounts: t.amounts.map((a) => ({ currency: toStr(a.currency), minor: toBigInt(a.minor) })) }),
  );
  const note = toOptStr(row.note);
  const reopenedAt = toOptDate(row.reopened_at);
  const reopenedReason = toOptStr(row.reopened_reason);
  return {
    company: toStr(row.company),
    period: toStr(row.period),
    from: toStr(row.from_date) as LocalDate,
    to: toStr(row.to_date) as LocalDate,
    state: toStr(row.state) as SignoffState,
    signedBy: toStr(row.signed_by),
    signedPerson: toStr(row.signed_person),
    signedAt: toDate(row.signed_at),
    ...(note !== undefined ? { note } : {}),
    balances,
    totals,
    ...(reopenedAt ? { reopenedAt } : {}),
    ...(reopenedReason !== undefined ? { reopenedReason } : {}),
  };
}
