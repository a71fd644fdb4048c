// The submit job plans a company's files and sends their bulks side by side (jobs/submit/submit.ts):
// a planned file's bulks go to the bank while the next file is still being planned. Here the plan
// of the second file is held until the first file's bulk is at the bank, which happens only if
// the send does not wait for the whole plan; then everything reaches the bank once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSubmit } from '../../../jobs/submit/submit.js';
import type { Store } from '../../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../../support/mariadb.js';
import { bankBulks, createWorld, type World } from './world.js';

type CreateBulks = Store['bulks']['createBulks'];

/** The store with `bulks.createBulks` replaced by `around(call number, the real call)`. */
function aroundPlan(
  store: Store,
  around: (call: number, plan: () => ReturnType<CreateBulks>) => ReturnType<CreateBulks>,
): Store {
  let calls = 0;
  const bulks = new Proxy(store.bulks, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (name !== 'createBulks' || typeof value !== 'function') return value;
      return (...args: Parameters<CreateBulks>) => around(++calls, () => (value as CreateBulks).apply(target, args));
    },
  });
  return new Proxy(store, { get: (t, n, r) => (n === 'bulks' ? bulks : Reflect.get(t, n, r)) });
}

/** Polls the bank until it holds `n` bulks (or 5 s pass) and returns what it holds. */
async function atBankWhen(w: World, n: number) {
  let held = await bankBulks(w);
  for (let i = 0; i < 200 && held.length < n; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    held = await bankBulks(w);
  }
  return held;
}

const useMaria = await mariaDbForTests();

describe.each([
  ['SQLite', false],
  ['MariaDB', true],
])('the submit job sends while it plans, on %s', (_engine, maria) => {
  let w: World;
  let db: ThrowawayDatabase | undefined;
  beforeEach(async (context) => {
    if (maria && !useMaria) context.skip();
    db = maria ? await createThrowawayDatabase() : undefined;
    w = await createWorld(db ? { databaseUrl: db.url } : {});
  });
  afterEach(async () => {
    await w?.close();
    await db?.drop();
  });

  it("sends the first file's bulk while the second file's plan is held, and each bulk once", async () => {
    await w.acceptFile('pay-1.csv', [{}, {}]);
    await w.acceptFile('pay-2.csv', [{}]);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const store = aroundPlan(w.store, async (call, plan) => {
      if (call === 2) await gate;
      return plan();
    });
    const submitting = runSubmit(w.deps('run-1', { store }), [w.company]);
    // The second plan is held: only a file planned before it can be at the bank.
    const before = await atBankWhen(w, 1);
    expect(before).toHaveLength(1);
    open();
    const summary = await submitting;
    expect(summary.planned).toBe(2);
    expect(summary.bulks.map((b) => b.outcome)).toEqual(['sent', 'sent']);
    const after = await bankBulks(w);
    expect(after.map((b) => b.paymentLines.length).sort()).toEqual([1, 2]);
    expect(new Set(after.map((b) => b.idempotencyKey)).size).toBe(2);
    expect(after.map((b) => b.paymentId)).toContain(before[0]!.paymentId);
  });

  it("fails with the plan's error once what was planned is sent, and a later run sends the rest once", async () => {
    await w.acceptFile('pay-1.csv', [{}]);
    await w.acceptFile('pay-2.csv', [{}]);
    const store = aroundPlan(w.store, (call, plan) =>
      call === 2 ? Promise.reject(new Error('the database went away')) : plan(),
    );
    await expect(runSubmit(w.deps('run-1', { store }), [w.company])).rejects.toThrow('the database went away');
    expect(await bankBulks(w)).toHaveLength(1);
    const again = await runSubmit(w.deps('run-2'), [w.company]);
    expect(again.bulks.map((b) => b.outcome)).toEqual(['sent']);
    const held = await bankBulks(w);
    expect(held).toHaveLength(2);
    expect(new Set(held.map((b) => b.idempotencyKey)).size).toBe(2);
  });
});
