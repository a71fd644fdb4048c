// Two companies of a bureau plan byte-identical files at the same moment on two instances. The
// read that picks a new bulk's Idempotency-Key cannot see a bulk the other instance inserted and
// has not committed yet, so both pick the file's key: the first bulk committed keeps it, and the
// other company's bulk takes its own in the same run — where its submit step used to fail on the
// unique key (`Duplicate entry … for key 'bulks_idempotency_key_uq'`) until the next run.
// MariaDB only: SQLite's one writer (BEGIN IMMEDIATE) lets no two plans overlap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import {
  bulkIdempotencyKey,
  companyBulkIdempotencyKey,
  createStore,
  openDatabase,
  type Database,
} from '../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';
import { firstBulkPlan, payment, paymentFile } from './fixtures.js';

const available = await mariaDbForTests();

describe.skipIf(!available)('bulk keys when two instances plan the same bytes at once (MariaDB)', () => {
  let target: ThrowawayDatabase;
  let one: Database;
  let two: Database;
  beforeAll(async () => {
    target = await createThrowawayDatabase();
    one = await openDatabase({ url: target.url });
    two = await openDatabase({ url: target.url });
    await one.migrate();
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    await target?.drop();
  });

  it("gives the file's key to the bulk committed first and the other company its own, in the same run", async () => {
    const first = createStore(one, systemClock);
    const second = createStore(two, systemClock);
    const file = (company: string) =>
      first.files.recordAcceptedFile(paymentFile('same-bytes-at-once', { company }), [
        payment(1, { endToEndId: 'FEE-1' }),
      ]);
    const acme = await file('acme');
    const other = await file('other');
    expect(other.sha256).toBe(acme.sha256);
    const fileKey = bulkIdempotencyKey(acme.sha256, 0);
    // acme's instance is in the middle of its plan: its bulk is inserted, not yet committed.
    const planning = await one.knex.transaction();
    const now = new Date().toISOString();
    await planning('bulks').insert({
      id: 'acme-bulk-in-flight',
      file_id: acme.id,
      position: 0,
      company: 'acme',
      debtor_iban: 'NO9386011117947',
      execution_date: '2026-01-06',
      batch_booking: true,
      idempotency_key: fileKey,
      state: 'pending',
      line_count: 1,
      totals_json: '{}',
      attempts: 0,
      created_at: now,
      updated_at: now,
    });
    // The other instance plans other's file meanwhile: its read sees no holder of the file's key,
    // and its INSERT waits on the key's lock …
    const [line] = await second.payments.listByFile(other.id);
    const created = second.bulks.createBulks(other.id, [firstBulkPlan([line!.id], true)]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // … until acme's plan commits.
    await planning.commit();
    const [bulk] = await created;
    expect(bulk!.idempotencyKey).toBe(companyBulkIdempotencyKey('other', other.sha256, 0));
    expect((await first.bulks.listByFile(acme.id)).map((b) => b.idempotencyKey)).toEqual([fileKey]);
    // Its line joined the bulk, in the same transaction.
    expect((await second.payments.listByFile(other.id))[0]!.bulkId).toBe(bulk!.id);
  });
});
