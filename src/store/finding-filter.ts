// The Reconciliation page's narrowing of the findings list, said in SQL so that a page of the
// narrowed list is still one index range scan (src/store/console-views.ts, \`findings\`).
import type { Knex } from 'knex';
import type { FindingDecisionKind } from './findings.js';

/** What the Reconciliation page narrows its findings by; every field optional, all of them combine (AND). */
export interface FindingFilter {
  type?: string;
  /** The account, electronic format. */
  account?: string;
  /** The finding's day (booking, else execution date) from / to, inclusive: its age. */
  factFrom?: string;
  factTo?: string;
  /** At least this much money, in minor units (the finding's amount, positive). */
  minAmountMinor?: bigint;
  /** `needs-person`: open, or decided on facts that changed since; else the decision as stored. */
  decision?: 'needs-person' | FindingDecisionKind;
  /** Assigned to this person (src/domain/person.ts). */
  assignedTo?: string;
}

export function narrowFindings(q: Knex.QueryBuilder, f: FindingFilter): void {
  if (f.type !== undefined) void q.where({ type: f.type });
  if (f.account !== undefined) void q.where({ account_iban: f.account });
  if (f.factFrom !== undefined) void q.where('fact_date', '>=', f.factFrom);
  if (f.factTo !== undefined) void q.where('fact_date', '<=', f.factTo);
  if (f.minAmountMinor !== undefined) void q.where('amount_minor', '>=', f.minAmountMinor.toString());
  if (f.assignedTo !== undefined) void q.where({ assigned_to: f.assignedTo });
  if (f.decision === 'needs-person')
    void q.andWhere(
      (w) => void w.where({ decision: 'open' }).orWhereNull('decided_hash').orWhereRaw('decided_hash <> fact_hash'),
    );
  else if (f.decision !== undefined) void q.where({ decision: f.decision });
}
