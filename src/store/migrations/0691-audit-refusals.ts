// Refused console actions, counted before they reach the audit trail (issue #50, Must 5): a POST
// the router refuses for a missing role is counted per person, route, company and minute here,
// one atomic upsert a refusal, and each closed minute becomes one audit entry with its count
// (src/store/audit-refusals.ts), after which its row is deleted. So hammering a form adds at
// most one entry per person, route, company and minute to the trail, which is never purged.
import type { Knex } from 'knex';
import { INSTANT, tableOptions } from './schema-helpers.js';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_refusals', (t) => {
    tableOptions(knex, t);
    /** Who was refused: the person (src/domain/person.ts), so two logins of one person count once. */
    t.string('person', 200).notNullable();
    /** The action's route pattern (`/console/bulks/:id/resolve`), never a filled-in path. */
    t.string('route', 200).notNullable();
    /** A configured company the request named, or '' for none. */
    t.string('company', 64).notNullable();
    /** The minute the refusals fell in, `2026-01-05T08:00Z`. */
    t.string('minute', INSTANT).notNullable();
    t.integer('count').notNullable();
    /** The first refusal's login, address and the role it lacked, for the entry. */
    t.string('actor', 200).notNullable();
    t.string('origin', 200).notNullable();
    t.string('needed', 32).notNullable();
    t.primary(['person', 'route', 'company', 'minute']);
    t.index(['minute'], 'audit_refusals_minute');
  });
}
