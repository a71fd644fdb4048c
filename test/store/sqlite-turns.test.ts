// SQLite answers synchronously: without a turn of the event loop between statements, a chain of
// awaited statements (a company's plan, a purge) ran as one stretch of microtasks, and `settle
// serve` answered no webhook, console page or health check until it ended. A chain now leaves the
// loop a turn every few milliseconds: a request that arrives during a long chain is answered
// before the chain ends, on a real database and a real HTTP server. A transaction gives no turn:
// it holds the write lock, and a turn inside it let a second connection of the same process wait
// for that lock in a busy loop that blocked the thread both need.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/store/index.js';
import { withTempDir } from '../support/tmp.js';

const STATEMENTS = 3000;

describe('statements on SQLite leave the event loop a turn', () => {
  let server: Server;
  let url: string;
  // The order things happened in, in this process: statements run and requests answered.
  const events: string[] = [];

  beforeEach(async () => {
    events.length = 0;
    server = createServer((_req, res) => {
      events.push('answered');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Runs `chain` while a client asks the server again and again; the events in their order. */
  async function during(chain: () => Promise<void>): Promise<string[]> {
    let chainOver = false;
    const asking = (async () => {
      while (!chainOver) await (await fetch(url)).text();
    })();
    // The first request is on its way (its connection opened) before the chain starts.
    await new Promise((resolve) => setTimeout(resolve, 50));
    events.push('chain started');
    await chain();
    events.push('chain ended');
    chainOver = true;
    await asking;
    return events.slice(events.indexOf('chain started'), events.indexOf('chain ended') + 1);
  }

  async function withTable(run: (db: Database) => Promise<void>): Promise<void> {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
      try {
        await db.knex.schema.createTable('t', (t) => {
          t.integer('a');
        });
        await run(db);
      } finally {
        await db.close();
      }
    });
  }

  it('answers requests between the statements of a long chain', async () => {
    await withTable(async (db) => {
      const seen = await during(async () => {
        for (let i = 0; i < STATEMENTS; i++) {
          await db.knex('t').insert({ a: i });
          events.push('statement');
        }
      });
      // Without the turns: every statement, then the answers ("answered" only after "chain ended").
      const answeredWithin = seen.filter((e) => e === 'answered').length;
      expect(answeredWithin).toBeGreaterThan(1);
      expect(seen.indexOf('answered')).toBeLessThan(seen.lastIndexOf('statement'));
    });
  });

  it('gives no turn inside a transaction, which holds the write lock, and gives turns between transactions', async () => {
    await withTable(async (db) => {
      const seen = await during(async () => {
        for (let t = 0; t < 5; t++)
          await db.transaction(async (trx) => {
            events.push('begin');
            for (let i = 0; i < STATEMENTS / 5; i++) await trx('t').insert({ a: i });
            events.push('end');
          });
      });
      // Inside a transaction nothing else runs (a turn there let a second connection of this
      // process busy-wait for the lock on the thread the transaction needs: the two-instance
      // migration test of test/store/sqlite.test.ts failed after 5 s with "database is locked").
      let inside = false;
      for (const event of seen) {
        if (event === 'begin') inside = true;
        if (event === 'end') inside = false;
        if (event === 'answered') expect(inside, 'a request answered inside a transaction').toBe(false);
      }
      // Between the transactions, the waiting request is answered before the last one ends.
      expect(seen.indexOf('answered')).toBeGreaterThan(seen.indexOf('begin'));
      expect(seen.indexOf('answered')).toBeLessThan(seen.lastIndexOf('end'));
      expect(Number((await db.knex('t').count({ n: '*' }).first())?.n)).toBe(STATEMENTS);
    });
  });
});
