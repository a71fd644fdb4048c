// The audit trail per company (issue #50, Must 5): each entry keeps the company it is about, so
// the console's Audit page shows a company's people only their company's entries, by an index
// rather than by reading every entry's details. The column repeats what the hashed content says
// (`details.company`, or the company a `controls` entry names): the chain's walk checks that the
// two agree, so moving an entry to another company by editing the column is found like any edit.
// Entries about no company (a sign-in lockout) keep NULL and are the install-wide auditor's.
import type { Knex } from 'knex';
import { addTo } from '../../domain/group.js';

/** Entries read and updated per round of the backfill. */
const PAGE = 1000;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('audit_trail', (t) => {
    t.string('company', 64).nullable();
    t.index(['company', 'seq'], 'audit_trail_company_seq');
  });
  await backfill(knex);
}

/** The company of entries written before the column, from their hashed content (frozen copy of auditCompanyOf). */
async function backfill(knex: Knex): Promise<void> {
  for (let after: unknown = -1; ;) {
    const rows = (await knex('audit_trail')
      .select('seq', 'subject_type', 'subject_id', 'details_json')
      .where('seq', '>', after as number)
      .orderBy('seq', 'asc')
      .limit(PAGE)) as { seq: unknown; subject_type: string; subject_id: string; details_json: string }[];
    if (rows.length === 0) return;
    const byCompany = new Map<string, unknown[]>();
    for (const row of rows) {
      const company = companyOf(row.subject_type, row.subject_id, row.details_json);
      if (company !== null) addTo(byCompany, company, row.seq);
    }
    for (const [company, seqs] of byCompany)
      await knex('audit_trail')
        .whereIn('seq', seqs as number[])
        .update({ company });
    after = rows.at(-1)!.seq;
  }
}

function companyOf(subjectType: string, subjectId: string, detailsJson: string): string | null {
  let details: unknown;
  try {
    details = JSON.parse(detailsJson);
  } catch {
    return null;
  }
  const named = (details as { company?: unknown } | null)?.company;
  if (typeof named === 'string') return named;
  return subjectType === 'controls' ? subjectId : null;
}
