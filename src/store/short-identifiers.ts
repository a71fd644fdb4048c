// The stand-ins written for ids longer than their ISO 20022 field, mapped back to the full ids
// (migration 0630, src/domain/iso-identifier.ts).
import type { Clock } from '../domain/clock.js';
import type { ShortIdentifier } from '../domain/iso-identifier.js';
import type { Database } from './database.js';
import { instant, toStr, type Row } from './rows.js';

export class ShortIdentifierRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Records the pairs a document used; a pair already known is left as it is. */
  async remember(pairs: readonly ShortIdentifier[]): Promise<void> {
    if (pairs.length === 0) return;
    const createdAt = instant(this.clock.now());
    const rows = pairs.map((p) => ({ short_id: p.short, full_id: p.full, created_at: createdAt }));
    await this.db.knex('short_identifiers').insert(rows).onConflict('short_id').ignore();
  }

  /** The full id a stand-in stands for, when settle wrote it. */
  async fullId(short: string): Promise<string | undefined> {
    const row: Row | undefined = await this.db
      .knex<Row>('short_identifiers')
      .where({ short_id: short })
      .first('full_id');
    return row === undefined ? undefined : toStr(row.full_id);
  }
}
