// A statement that fails names its SQL in the error, never the values it carried: a creditor's
// IBAN or name in an insert that broke a unique key must not reach the error message, and so
// not the log line or the operator's report that carries it. On both engines.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/index.js';
import { makeTempDir } from '../support/tmp.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';

const available = await mariaDbForTests();
const IBAN = 'NO9386011117947';
const NAME = 'Ærlig Kreditor AS';

async function failingInsertMessage(db: Database): Promise<string> {
  await db.knex.schema.createTable('notes', (t) => {
    t.string('id').primary();
    t.string('iban').notNullable();
    t.string('name').notNullable();
  });
  await db.knex('notes').insert({ id: 'n1', iban: IBAN, name: NAME });
  const error = await db
    .knex('notes')
    .insert({ id: 'n1', iban: IBAN, name: NAME })
    .then(() => undefined)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe('a failed statement names its SQL, not its values', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('on SQLite', async () => {
    const { dir, cleanup } = await makeTempDir();
    const db = await openDatabase({ url: `sqlite:${dir}/settle.sqlite` });
    cleanups.push(async () => {
      await db.close();
      await cleanup();
    });
    const message = await failingInsertMessage(db);
    expect(message).toMatch(/insert into `notes`/);
    expect(message).toMatch(/UNIQUE/);
    expect(message).not.toContain(IBAN);
    expect(message).not.toContain(NAME);
  });

  it.skipIf(!available)('on MariaDB', async () => {
    const target: ThrowawayDatabase = await createThrowawayDatabase();
    const db = await openDatabase({ url: target.url });
    cleanups.push(async () => {
      await db.close();
      await target.drop();
    });
    const message = await failingInsertMessage(db);
    expect(message).toMatch(/insert into `notes`/);
    expect(message).toMatch(/Duplicate entry/);
    expect(message).not.toContain(IBAN);
    expect(message).not.toContain(NAME);
  });
});
