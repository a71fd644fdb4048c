import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalFileStore, takeStableFiles } from '../../src/transport/index.js';
import { codeOf, fileStoreContract } from './file-store-contract.js';

fileStoreContract('LocalFileStore', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'settle-local-store-'));
  return { store: new LocalFileStore(dir), cleanup: () => rm(dir, { recursive: true, force: true }) };
});

describe('LocalFileStore', () => {
  it('keeps every file inside its root, even for names that look harmless elsewhere', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'settle-local-root-'));
    try {
      const root = join(parent, 'root');
      const store = new LocalFileStore(root);
      await store.ensureDir('');
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
});
