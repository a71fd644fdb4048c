// Units of work (src/store/unit-claims.ts): a unit is done by one holder at a time, the holder's
// heartbeat keeps its claim while it works however long that takes, and the work of a holder
// that was SIGKILLed is taken over as soon as its short claim lapses.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import { LeaseRepository, openDatabase, UnitClaims, type Database } from '../../src/store/index.js';
import { withTempDir } from '../support/tmp.js';

const holderScript = fileURLToPath(new URL('../support/unit-holder.ts', import.meta.url));
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const TTL = 1500;
const unit = { job: 'submit', company: 'acme' };

function startHolder(file: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsxLoader, holderScript, file, String(TTL)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('holding')) resolve(child);
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`holder exited early (${code})`)));
  });
}

function claims(db: Database, holder: string): UnitClaims {
  return new UnitClaims({ leases: new LeaseRepository(db, systemClock), holder, ttlMs: TTL });
}

describe('units of work', () => {
  it('are done by one holder at a time; the other names the holder and skips', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      await db.migrate();
      const a = claims(db, 'a');
      const b = claims(db, 'b');
      const inner = await a.run(unit, () => b.run(unit, () => Promise.resolve('b ran')));
      expect(inner).toMatchObject({ ran: true, result: { ran: false, held: { holder: 'a', unit } } });
      expect(b.allHeld).toBe(true);
      expect(a.allHeld).toBe(false);
      // Released at the end: b takes it now.
      expect(await b.run(unit, () => Promise.resolve('b ran'))).toEqual({ ran: true, result: 'b ran' });
      await db.close();
    });
  });

  it('stay claimed by a live holder longer than the claim lasts, and are taken over within the claim time after SIGKILL', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.sqlite');
      const child = await startHolder(file);
      const db = await openDatabase({ url: `sqlite:${file}` });
      try {
        // Alive: its heartbeat keeps the claim past several claim times.
        await sleep(2.5 * TTL);
        const waiting = claims(db, 'next-run');
        expect(await waiting.run(unit, () => Promise.resolve('taken'))).toMatchObject({
          ran: false,
          held: { holder: `child:${child.pid}` },
        });
        const until = waiting.held[0]?.until?.getTime() ?? 0;
        expect(until).toBeGreaterThan(Date.now());
        expect(until).toBeLessThanOrEqual(Date.now() + TTL);

        child.kill('SIGKILL');
        const killedAt = Date.now();
        let taken = false;
        while (!taken && Date.now() - killedAt < 3 * TTL) {
          taken = (await claims(db, 'next-run').run(unit, () => Promise.resolve(true))).ran;
          if (!taken) await sleep(100);
        }
        expect(taken).toBe(true);
        expect(Date.now() - killedAt).toBeLessThanOrEqual(TTL + 500);
      } finally {
        child.kill('SIGKILL');
        await db.close();
      }
    });
  }, 30_000);
});
