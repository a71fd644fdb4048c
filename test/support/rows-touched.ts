// The rows MariaDB's storage engine read and wrote during a call (its session's Handler_*
// counters): how the store's tests hold a read or a write to the rows it needs. The database must
// have one connection (poolMax: 1), so the session's counters are the call's own. SQLite keeps no
// such counter: there the call runs and the count is undefined, and the tests ask SQLite for its
// plan instead (query-plan.ts).
import type { Database } from '../../src/store/index.js';

export async function rowsTouched(
  db: Database,
  engine: 'SQLite' | 'MariaDB',
  fn: () => Promise<unknown>,
): Promise<number | undefined> {
  if (engine !== 'MariaDB') {
    await fn();
    return undefined;
  }
  const count = async () => {
    const [rows] = (await db.knex.raw(
      `show session status where variable_name like 'Handler_read%' or variable_name in ('Handler_update', 'Handler_write', 'Handler_delete')`,
    )) as [{ Variable_name: string; Value: string }[]];
    return rows.reduce((sum, r) => sum + Number(r.Value), 0);
  };
  const before = await count();
  await fn();
  return (await count()) - before;
}
