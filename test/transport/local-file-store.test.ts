import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalFileStore, takeStableFiles } from '../../src/transport/index.js';
import { codeOf, fileStoreContract } from './file-store-contract.js';

fileStoreContract('LocalFileStore', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'settle-local-store-'));
  return {
    store: new LocalFileStore(dir),
    owner: userInfo().username,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('LocalFileStore', () => {
  it('keeps every file inside its root, even for names that look harmless elsewhere', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'settle-local-root-'));
    try {
      const root = join(parent, 'root');
      const store = new LocalFileStore(root);
      await mkdir(root); // settle never creates a root (issue #50): the test does
      await writeFile(join(parent, 'secret.txt'), 'outside');
      expect(await codeOf(store.readBuffer('../secret.txt'))).toBe('ERR_FILE_NAME_UNSAFE');
      expect(await codeOf(store.writeAtomic('../secret.txt', 'overwritten'))).toBe('ERR_FILE_NAME_UNSAFE');
      expect((await readdir(parent)).sort()).toEqual(['root', 'secret.txt']);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('describes itself with its absolute root', () => {
    expect(new LocalFileStore('/srv/settle/inbox/').description).toBe('file:///srv/settle/inbox');
  });

  it('lists a dropped file with a control character in its name but never offers it for pickup', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'settle-local-unsafe-'));
    try {
      await writeFile(join(dir, 'pay\nments.csv'), 'x');
      await writeFile(join(dir, 'good.csv'), 'y');
      const store = new LocalFileStore(dir);
      expect((await store.list('')).map((e) => e.name)).toEqual(['good.csv', 'pay\nments.csv']);
      const result = await takeStableFiles(store, '', { settleMs: 1 });
      expect(result.stable.map((e) => e.name)).toEqual(['good.csv']);
      expect(result.skipped).toEqual([{ name: 'pay\nments.csv', reason: 'unsafe-name' }]);
      expect(await codeOf(store.readBuffer('pay\nments.csv'))).toBe('ERR_FILE_NAME_UNSAFE');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('needs no second wait for files an earlier look saw unchanged stableFor ago, and waits for the rest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'settle-local-earlier-'));
    try {
      await writeFile(join(dir, 'old.csv'), 'old');
      const store = new LocalFileStore(dir);
      const { files } = await store.scan('');
      const waits: number[] = [];
      const sleep = (ms: number) => (waits.push(ms), Promise.resolve());
      const look = (msAgo: number) => ({ earlier: { at: performance.now() - msAgo, files }, settleMs: 5000, sleep });
      // Seen unchanged 6 s ago: taken at once.
      expect((await takeStableFiles(store, '', look(6000))).stable.map((e) => e.name)).toEqual(['old.csv']);
      expect(waits).toEqual([]);
      // Seen 1 s ago: the look waits out the rest of stableFor, not all of it.
      expect((await takeStableFiles(store, '', look(1000))).stable.map((e) => e.name)).toEqual(['old.csv']);
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(3900);
      expect(waits[0]).toBeLessThanOrEqual(4000);
      // A file the earlier look did not see, or saw otherwise, makes it wait all of stableFor.
      await writeFile(join(dir, 'new.csv'), 'new');
      expect((await takeStableFiles(store, '', look(6000))).stable.map((e) => e.name).sort()).toEqual([
        'new.csv',
        'old.csv',
      ]);
      await writeFile(join(dir, 'old.csv'), 'old, and more');
      const changed = await takeStableFiles(store, '', {
        ...look(6000),
        sleep: (ms) => (waits.push(ms), writeFile(join(dir, 'old.csv'), 'old, and more still')),
      });
      expect(waits.slice(1)).toEqual([5000, 5000]);
      expect(changed.stable.map((e) => e.name)).toEqual(['new.csv']);
      expect(changed.skipped).toEqual([{ name: 'old.csv', reason: 'changing' }]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
