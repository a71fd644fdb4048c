// The key exactly-once property on both databases: several settle instances submitting the same
// files at the same time, with the bank losing answers and failing, put every bulk at the bank
// exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../../support/mariadb.js';
import { bankBulks, createWorld } from './world.js';

const useMaria = await mariaDbForTests();

async function concurrentSubmit(databaseUrl?: string): Promise<void> {
  const w = await createWorld({
    ...(databaseUrl ? { databaseUrl } : {}),
    company: { payments: { maxLinesPerBulk: 3 } },
  });
  try {
    for (let f = 0; f < 4; f++)
      await w.acceptFile(
        `pay-${f}.csv`,
        Array.from({ length: 7 }, () => ({})),
      );
    await w.control('/faults', {
      seed: 7,
      faults: [
        { route: 'POST /api/bulk-payments/*', kind: 'lostResponse', rate: 0.4 },
        { route: 'POST /api/bulk-payments/*', kind: 'error', status: 503, rate: 0.2 },
      ],
    });
    // Three instances at once, twice over.
    for (let round = 0; round < 2; round++) {
      await Promise.all([0, 1, 2].map((i) => runSubmit(w.deps(`r${round}-i${i}`), [w.company])));
    }
    const { faults } = (await w.control('/faults')) as { faults: { kind: string; hits: number }[] };
    expect(faults.find((f) => f.kind === 'lostResponse')!.hits).toBeGreaterThan(3);
    expect(faults.find((f) => f.kind === 'error')!.hits).toBeGreaterThan(0);
    await w.control('/faults', undefined, 'DELETE');
    await runSubmit(w.deps('clean'), [w.company]);

    const bulks = (
      await Promise.all((await w.store.files.listFiles({ company: 'acme' })).map((f) => w.store.bulks.listByFile(f.id)))
    ).flat();
    expect(bulks).toHaveLength(12);
    expect(bulks.every((b) => b.state === 'sent')).toBe(true);
    const atBank = await bankBulks(w);
    const keys = atBank.map((b) => b.idempotencyKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.sort()).toEqual(bulks.map((b) => b.idempotencyKey).sort());
    const e2e = atBank.flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification));
    expect(e2e).toHaveLength(28);
    expect(new Set(e2e).size).toBe(28);
  } finally {
    await w.close();
  }
}

describe('exactly once with several instances and a faulty bank', () => {
  it('on SQLite: every bulk reaches the bank once', async () => {
    await concurrentSubmit();
  }, 60_000);

  describe.runIf(useMaria)('on MariaDB', () => {
    let db: ThrowawayDatabase;
    beforeAll(async () => {
      db = await createThrowawayDatabase();
    });
    afterAll(async () => {
      await db.drop();
    });
    it('every bulk reaches the bank once', async () => {
      await concurrentSubmit(db.url);
    }, 60_000);
  });
});
