// Reconciliation that finance works through (issue #48): each finding keeps the account, the
// money and the day it is about, so the Reconciliation page filters by them in SQL and a period
// knows its findings; a finding can be assigned to a person. A period a person signed off is a
// row of `period_signoffs`: the balances per account and the totals by finding type it was
// closed on, who signed, and — when a finding later changed it — that it was reopened and why.
import type { Knex } from 'knex';
import { amount, DATE, INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('findings', (t) => {
    t.string('account_iban', 34).nullable();
    amount(t, 'amount_minor').nullable();
    t.string('currency', 3).nullable();
    /** The day the finding is about: booking, else execution date, else the day of the run. */
    t.string('fact_date', DATE).nullable();
    /** The person (src/domain/person.ts) it is assigned to. */
    t.string('assigned_to', 200).nullable();
    t.string('assigned_by', 200).nullable();
    t.string('assigned_at', INSTANT).nullable();
    t.index(['company', 'fact_date'], 'findings_company_fact_date_index');
    t.index(['company', 'assigned_to'], 'findings_company_assigned_index');
  });
  await knex.schema.createTable('period_signoffs', (t) => {
    tableOptions(knex, t);
    t.string('company', 32).notNullable();
    /** `YYYY-MM` (a month) or `YYYY-MM-DD` (a day). */
    t.string('period', DATE).notNullable();
    t.primary(['company', 'period']);
    t.string('from_date', DATE).notNullable();
    t.string('to_date', DATE).notNullable();
    /** signed | reopened */
    t.string('state', 16).notNullable();
    t.string('signed_by', 200).notNullable();
    t.string('signed_person', 200).notNullable();
    t.string('signed_at', INSTANT).notNullable();
    t.text('note').nullable();
    /** JSON: the balances per account and currency the period was closed on. */
    t.text('balances').notNullable();
    /** JSON: per finding type, how many and the money, per decision. */
    t.text('totals').notNullable();
    t.string('reopened_at', INSTANT).nullable();
    t.text('reopened_reason').nullable();
    t.index(['company', 'state', 'to_date'], 'period_signoffs_state_index');
  });
}
