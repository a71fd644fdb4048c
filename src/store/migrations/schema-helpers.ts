// Column conventions shared by the migrations. Frozen with them: a change here would change
// what an old migration creates, so add new helpers rather than editing these.
import type { Knex } from 'knex';

/** Identifiers are UUID text (v7, so ordering by id is roughly creation order). */
export const ID = 36;
/** Instants: ISO-8601 UTC text, e.g. 2026-01-05T08:00:00.000Z. */
export const INSTANT = 30;
/** Calendar dates: YYYY-MM-DD. */
export const DATE = 10;

export function isMysql(knex: Knex): boolean {
  return (knex.client as { dialect?: string }).dialect === 'mysql';
}

/**
 * InnoDB with binary utf8mb4 collation on MySQL/MariaDB: text comparisons and unique indexes
 * then behave exactly as in SQLite (case-sensitive), whatever the server's default charset.
 */
export function tableOptions(knex: Knex, table: Knex.CreateTableBuilder): void {
  if (!isMysql(knex)) return;
  table.engine('InnoDB');
  table.charset('utf8mb4');
  table.collate('utf8mb4_bin');
}

/** Amount in minor units: BIGINT (64-bit, exact). */
export function amount(table: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return table.bigInteger(name);
}

/** Lease columns of a table whose rows jobs claim (src/store/claim.ts). */
export function leaseColumns(table: Knex.CreateTableBuilder): void {
  table.string('lease_holder', 200).nullable();
  table.string('lease_expires_at', INSTANT).nullable();
}

export function timestamps(table: Knex.CreateTableBuilder): void {
  table.string('created_at', INSTANT).notNullable();
  table.string('updated_at', INSTANT).notNullable();
}

/** Large text (raw bank JSON): MEDIUMTEXT on MySQL, TEXT on SQLite. */
export function bigText(table: Knex.CreateTableBuilder, name: string): Knex.ColumnBuilder {
  return table.text(name, 'mediumtext');
}
