// The nightly chain's early look at every inbox (lookAtInboxes) stands in for the first of the
// two looks of the stable-file check. How long ago it was taken must be real elapsed time: a
// wall clock that steps forward (an NTP correction, a person setting the time) must not make a
// file that is still being written look as if it had been still for stableFor.
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompanyConfig } from '../../src/config/index.js';
import { LocalFileStore, takeStableFiles, type FileStore, type FolderScan } from '../../src/transport/index.js';
import { lookAtInboxes } from '../../jobs/pickup/pickup.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the early inbox look', () => {
  it('counts real time since the look, not a wall clock that stepped forward', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'settle-earlier-look-'));
    try {
      await writeFile(join(dir, 'pay.csv'), 'first half');
      const store = new LocalFileStore(dir);
      const company = { id: 'acme', folders: { inbox: '' }, intake: { stableFor: 5000 } } as unknown as CompanyConfig;
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      const looks = await lookAtInboxes({ fileStore: () => Promise.resolve(store) }, [company]);
      // No real time passes, but the system clock is set an hour ahead.
      vi.setSystemTime(Date.now() + 3_600_000);
      const waits: number[] = [];
      // The writer is still at it: during the wait the file grows.
      const sleep = (ms: number) => (waits.push(ms), appendFile(join(dir, 'pay.csv'), ', second half'));
      const taken = await takeStableFiles(store, '', { settleMs: 5000, sleep, earlier: looks.get('acme')! });
      expect(taken.stable).toEqual([]);
      expect(taken.skipped).toEqual([{ name: 'pay.csv', reason: 'changing' }]);
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(4000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('never holds the night up longer than the waits it saves: a look that takes stableFor is given up', async () => {
    // Inboxes on an SFTP server that does not answer: each look would last the connect timeout.
    let answer: (scan: FolderScan) => void = () => undefined;
    const silent = new Promise<FolderScan>((resolve) => (answer = resolve));
    const store = { scan: () => silent } as unknown as FileStore;
    const company = (id: string) =>
      ({ id, folders: { inbox: 'in' }, intake: { stableFor: 200 } }) as unknown as CompanyConfig;
    const companies = ['a', 'b', 'c', 'd', 'e'].map(company);
    try {
      const started = performance.now();
      const looks = await Promise.race([
        lookAtInboxes({ fileStore: () => Promise.resolve(store) }, companies),
        new Promise<'still looking'>((resolve) => setTimeout(() => resolve('still looking'), 6000)),
      ]);
      expect(looks).toEqual(new Map());
      // Five companies at 200 ms each, one after the other: about their stableFor, never 30 s each.
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      answer({ files: [], others: [] });
    }
  });
});
