// The automatic statement export read an account's whole history every night: every checked
// day, every exported and numbered period since the first fetch — years of rows per account and
// format for a bureau, for a plan that only ever writes the last few days. Two changes bound it:
// - `last_day` on exported and numbered periods (a period is a day or "from..to"), so the
//   periods reaching into a window are read by an index range, not by parsing every name;
// - `export_floors`: per account and format, the first day the export still has to look at.
//   Every checked day before it is delivered or needs no file. The export raises it after a run,
//   only when nothing wrote the account's days meanwhile (`version`); writing a day below it
//   lowers it (src/store/statement-days.ts), so a late or corrected day is never passed over.
import type { Knex } from 'knex';
import { DATE, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  // The last day of a period name: the part after ".." of a run, else the day itself. Other
  // exports (payment status files) have other keys and no last day.
  const lastDay = knex.raw(
    `case when period like '____-__-__..____-__-__' then substr(period, 13, 10) when period like '____-__-__' then period end`,
  );
  await knex.schema.alterTable('exports', (t) => {
    t.string('last_day', DATE).nullable();
    t.index(['format', 'subject_id', 'last_day'], 'exports_subject_last_day_ix');
  });
  await knex('exports').update({ last_day: lastDay });
  await knex.schema.alterTable('electronic_sequence_numbers', (t) => {
    t.string('last_day', DATE).nullable();
    t.index(['account_id', 'format', 'last_day'], 'electronic_sequence_numbers_last_day_ix');
  });
  await knex('electronic_sequence_numbers').update({ last_day: lastDay });
  await knex.schema.createTable('export_floors', (t) => {
    tableOptions(knex, t);
    t.string('account_id', 100).notNullable();
    t.string('format', 40).notNullable();
    t.string('from_day', DATE).notNullable();
    t.integer('version').notNullable().defaultTo(0);
    t.primary(['account_id', 'format']);
  });
}
