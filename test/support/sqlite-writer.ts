// A child process for test/store/sqlite-concurrency.test.ts: opens the SQLite database the way
// every settle command does (open, migrate), then runs transactions that read before they
// write, as the repositories do. Prints "ok N" or the error it met, and exits 0 or 1.
import { openDatabase } from '../../src/store/index.js';

const [file, who, countText] = process.argv.slice(2);
const count = Number(countText ?? '40');
const db = await openDatabase({ url: `sqlite:${file ?? ''}` });
try {
  await db.migrate();
  for (let i = 0; i < count; i++) {
    await db.transaction(async (trx) => {
      await trx('leases').count({ n: '*' });
      await trx('leases').insert({ name: `${who}-${i}`, holder: who, acquired_at: 'x', expires_at: 'x' });
    });
  }
  process.stdout.write(`ok ${count}\n`);
} catch (error) {
  const e = error as { code?: string; message?: string };
  process.stdout.write(`failed ${e.code ?? ''} ${e.message ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
