// A child process for test/store/unit-claims.test.ts: claims one unit of work with a short
// claim, prints "holding", and works on it until it is killed.
import { systemClock } from '../../src/domain/clock.js';
import { LeaseRepository, openDatabase, UnitClaims } from '../../src/store/index.js';

const [file, ttlText] = process.argv.slice(2);
const db = await openDatabase({ url: `sqlite:${file ?? ''}` });
await db.migrate();
const units = new UnitClaims({
  leases: new LeaseRepository(db, systemClock),
  holder: `child:${process.pid}`,
  ttlMs: Number(ttlText),
});
await units.run({ job: 'submit', company: 'acme' }, async () => {
  process.stdout.write('holding\n');
  await new Promise(() => undefined);
});
