// A run's results gathered over its companies (src/main/work-units.ts forEachCompany): a company's
// result list can be very long (at maxLinesPerBulk 1 a 200,000-line file is 200,000 bulks), and
// gathering it must not overflow the stack, as spreading it into one push did past ~125,000.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompanyConfig } from '../../src/config/index.js';
import { systemClock } from '../../src/domain/clock.js';
import { forEachCompany } from '../../src/main/work-units.js';
import { LeaseRepository, openDatabase, UnitClaims } from '../../src/store/index.js';
import { withTempDir } from '../support/tmp.js';

describe('forEachCompany', () => {
  it('gathers 200,000 results of one company, in order, after another company’s', async () => {
    await withTempDir(async (dir) => {
      const db = await openDatabase({ url: `sqlite:${join(dir, 's.sqlite')}` });
      try {
        await db.migrate();
        const units = new UnitClaims({ leases: new LeaseRepository(db, systemClock), holder: 'h', ttlMs: 60_000 });
        const companies = [{ id: 'small' }, { id: 'large' }] as CompanyConfig[];
        const sizes: Record<string, number> = { small: 2, large: 200_000 };
        const out = await forEachCompany(units, 'submit', companies, (c) =>
          Promise.resolve(Array.from({ length: sizes[c.id]! }, (_, i) => `${c.id}-${i}`)),
        );
        expect(out).toHaveLength(200_002);
        expect(out.slice(0, 3)).toEqual(['small-0', 'small-1', 'large-0']);
        expect(out.at(-1)).toBe('large-199999');
      } finally {
        await db.close();
      }
    });
  });
});
