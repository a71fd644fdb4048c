// Where the automatic statement export starts looking, per account and format: every checked
// day before the floor is delivered, or needs no file as it stands. Without it the export read
// an account's whole history every night to plan the last few days (migration 0520).
//
// The floor moves up only by the export, after it looked (`raise`), and only when no write of
// the account's days came in between: every write of days bumps `version` and lowers the floor
// to its first day (`lowerExportFloors`, called by the one writer of statement_days), before
// and after it writes. So a day the bank closes late, corrects, or books into afterwards is
// looked at again, also when the fetch runs beside an export or stops half-way.
import type { Knex } from 'knex';
import type { LocalDate } from '../domain/local-date.js';
import type { Database } from './database.js';
import { againOnDeadlock } from './deadlock.js';
import { chunks, toInt, toLocalDate, toStr, type Row } from './rows.js';

/** Before any bank day (and a date the store reads back): an account and format never exported start here. */
export const FIRST_DAY = '1900-01-01' as LocalDate;

export interface ExportFloor {
  fromDay: LocalDate;
  /** Changes with every write of the account's days: a raise is refused when it moved. */
  version: number;
}

export class ExportFloorRepository {
  constructor(private readonly db: Database) {}

  /**
   * The floors of a company's accounts in its formats, by account and then format, in one read;
   * the first read of an account and format sets its floor below every day.
   */
  async readAll(
    accountIds: readonly string[],
    formats: readonly string[],
  ): Promise<Map<string, Map<string, ExportFloor>>> {
    let floors = await this.select(accountIds, formats);
    const missing = accountIds.flatMap((account_id) =>
      formats
        .filter((format) => floors.get(account_id)?.get(format) === undefined)
        .map((format) => ({ account_id, format, from_day: FIRST_DAY, version: 0 })),
    );
    if (missing.length > 0) {
      // A row for the fetch to lower from now on; another export may have set one first. Two
      // instances' multi-row inserts can deadlock on MariaDB's gap locks: run the victim again.
      for (const part of chunks(missing, 100))
        await againOnDeadlock(() =>
          this.db.knex('export_floors').insert(part).onConflict(['account_id', 'format']).ignore(),
        );
      floors = await this.select(accountIds, formats);
    }
    return floors;
  }

  /**
   * Moves the floor up to `to` when the account's days were not written since `seen` was read,
   * and `to` is higher. False when refused: the next export looks again from where it was.
   */
  async raise(accountId: string, format: string, seen: ExportFloor, to: LocalDate): Promise<boolean> {
    if (to <= seen.fromDay) return false;
    const changed = await againOnDeadlock(() =>
      this.db
        .knex('export_floors')
        .where({ account_id: accountId, format, version: seen.version, from_day: seen.fromDay })
        .update({ from_day: to, version: seen.version + 1 }),
    );
    return changed === 1;
  }

  private async select(
    accountIds: readonly string[],
    formats: readonly string[],
  ): Promise<Map<string, Map<string, ExportFloor>>> {
    const floors = new Map<string, Map<string, ExportFloor>>();
    for (const part of chunks(accountIds, 100))
      for (const row of (await this.db
        .knex<Row>('export_floors')
        .select('account_id', 'format', 'from_day', 'version')
        .whereIn('account_id', part)
        .whereIn('format', formats)) as Row[]) {
        const account = toStr(row.account_id);
        let byFormat = floors.get(account);
        if (byFormat === undefined) floors.set(account, (byFormat = new Map<string, ExportFloor>()));
        byFormat.set(toStr(row.format), { fromDay: toLocalDate(row.from_day), version: toInt(row.version) });
      }
    return floors;
  }
}

/**
 * A write of accounts' days from `day` on: every format's floor of each goes down to `day` at
 * most, and its version moves, so an export that read before cannot raise past what it did not
 * see. One statement for all the accounts (a fetch writes a company's accounts together).
 */
export async function lowerExportFloors(knex: Knex, accountIds: readonly string[], day: LocalDate): Promise<void> {
  for (const part of chunks(accountIds))
    await knex('export_floors')
      .whereIn('account_id', part)
      .update({
        from_day: knex.raw('case when from_day > ? then ? else from_day end', [day, day]),
        version: knex.raw('version + 1'),
      });
}
