// A careless operator is stopped (issue #50 Must 8): a company root that does not exist (a typo,
// an unmounted share) is an error, not "no files to pick up", and settle never creates it.
import { access, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPickup } from '../../jobs/pickup/pickup.js';
import { ManualClock } from '../../src/domain/clock.js';
import { LocalFileStore } from '../../src/transport/index.js';
import { openPickupWorld } from '../support/pickup-world.js';
import { withTempDir } from '../support/tmp.js';

const gone = (path: string) =>
  access(path).then(
    () => false,
    () => true,
  );

describe('a company root that does not exist', () => {
  it('stops pickup with ERR_FILE_NOT_FOUND naming the root, and creates nothing', async () => {
    await withTempDir(async (dir) => {
      const world = await openPickupWorld(dir, new ManualClock('2026-01-05T09:00:00Z'));
      try {
        const typo = join(dir, 'acme-tpyo');
        const company = { ...world.company, root: typo };
        const deps = { ...world.deps, fileStore: () => Promise.resolve(new LocalFileStore(typo)) };
        await expect(runPickup(deps, [company])).rejects.toMatchObject({
          code: 'ERR_FILE_NOT_FOUND',
          message: expect.stringContaining(`company root ${typo} does not exist`) as string,
        });
        expect(await gone(typo)).toBe(true);
      } finally {
        await world.db.close();
      }
    });
  });

  it('a root that exists still gets its missing folders created inside it', async () => {
    await withTempDir(async (dir) => {
      const root = join(dir, 'acme');
      await mkdir(root);
      await new LocalFileStore(root).ensureDir('reports/2026');
      expect(await gone(join(root, 'reports', '2026'))).toBe(false);
    });
  });
});
