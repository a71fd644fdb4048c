// Shared set-up for the server tests: a migrated SQLite database in a temp folder of its own,
// and CloudEvents shaped like the bank's (docs/sandbox.md, "Events").
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { CloudEvent } from 'cloudevents';
import { createLogger, type Logger } from '../../src/log/index.js';
import { openDatabase, type Database } from '../../src/store/database.js';

export interface TempDb {
  db: Database;
  dir: string;
  file: string;
  cleanup(): Promise<void>;
}

export async function openTempDb(): Promise<TempDb> {
  const dir = await mkdtemp(join(tmpdir(), 'settle-server-'));
  const file = join(dir, 'settle.sqlite');
  const db = await openDatabase({ url: `sqlite:${file}` });
  await db.migrate();
  return {
    db,
    dir,
    file,
    async cleanup() {
      await db.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A logger whose JSON lines are kept in `lines`, to assert what was (not) logged. */
export function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) });
  return { logger: createLogger({ format: 'json', level: 'debug', stream }), lines };
}

export function paymentStatusEvent(status = 'ACSC', id: string = randomUUID()): CloudEvent<Record<string, unknown>> {
  return new CloudEvent<Record<string, unknown>>({
    specversion: '1.0',
    id,
    source: 'sandbox',
    type: 'banking.payment.status.updated',
    time: '2026-01-05T08:00:00.000Z',
    subject:
      '/subscriptions/sandbox/resource-groups/999999999/providers/aritma.openbanking/accounts/67e98aeec65145888fefa7cb935c9197',
    datacontenttype: 'application/json',
    data: {
      paymentId: 'line-1',
      endToEndIdentification: 'E2E-1',
      transactionStatus: status,
      tppMessages: [],
      _links: {},
    },
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
