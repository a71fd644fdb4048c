// Units of work claimed together on MariaDB by several instances at once, as a bureau's night
// has them: each company's chain runs once between them, and no lease is left behind. InnoDB
// locks the gaps between a unique index's keys, so several instances' multi-row INSERTs of
// leases can deadlock (seen at 1,000 companies with two instances); the victim is run again
// (src/store/deadlock.ts, tested on its own in deadlock.test.ts), never a failed chain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { mapConcurrent } from '../../src/domain/concurrent.js';
import { LeaseRepository, openDatabase, UnitClaims, type Database } from '../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../support/mariadb.js';

const available = await mariaDbForTests();
const STEPS = ['pickup', 'submit', 'approve', 'status', 'fetch', 'status-report', 'export', 'consents', 'reconcile'];

describe.skipIf(!available)('units of work claimed together on MariaDB', () => {
  let target: ThrowawayDatabase;
  const dbs: Database[] = [];
  beforeAll(async () => {
    target = await createThrowawayDatabase();
    for (let i = 0; i < 6; i++) dbs.push(await openDatabase({ url: target.url, poolMax: 6 }));
    await dbs[0]!.migrate();
  });
  afterAll(async () => {
    for (const db of dbs) await db.close();
    await target?.drop();
  });

  it('six instances walking the same companies, eight chains each: every company once, no claim fails', async () => {
    const companies = Array.from({ length: 400 }, (_, i) => `c${String(i).padStart(4, '0')}`);
    const ran: string[] = [];
    const instances = dbs.map(
      (db, i) => new UnitClaims({ leases: new LeaseRepository(db, systemClock), holder: `i${i}`, ttlMs: 30_000 }),
    );
    const startedAt = new Date();
    await Promise.all(
      instances.map((units) =>
        mapConcurrent(companies, 8, (company) =>
          units.run(
            { job: 'nightly', company },
            () =>
              units.together(
                STEPS.map((job) => ({ job, company })),
                async () => {
                  for (const job of STEPS)
                    await units.run({ job, company }, () => new Promise((r) => setTimeout(r, Math.random() * 3)));
                  ran.push(company);
                },
              ),
            { doneSince: startedAt },
          ),
        ),
      ),
    );
    for (const units of instances) units.close();
    expect(ran.sort()).toEqual(companies);
    const [left] = await dbs[0]!.knex('leases').where('name', 'like', 'unit:%').count({ n: '*' });
    expect(Number(left?.n)).toBe(0);
  }, 120_000);
});
