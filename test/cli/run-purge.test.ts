// `settle run purge` with real folders and a real database: archived ERP files of fiscal years
// past retention and rejected files past the operational period are removed, newer ones stay;
// two purges started at once share the companies and both end well.
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { withTempDir } from '../support/tmp.js';

const useMariaDb = await mariaDbForTests();
const COMPANIES = ['acme', 'beta', 'gamma'];
const DAY_MS = 86_400_000;

async function write(path: string, text: string, ageMs = 0): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
  const at = new Date(Date.now() - ageMs);
  await utimes(path, at, at);
}

async function purgeTwiceAtOnce(env: NodeJS.ProcessEnv): Promise<void> {
  await withTempDir(async (dir) => {
    const thisYear = new Date().getUTCFullYear();
    const config = join(dir, 'settle.yaml');
    await writeFile(
      config,
      [
        `dataDir: ${JSON.stringify(join(dir, 'data'))}`,
        'retention: { batchSize: 10 }',
        'companies:',
        ...COMPANIES.map(
          (id, i) =>
            `  - { id: ${id}, name: ${id} AS, organisationNumber: "9${i}0000000", root: ${JSON.stringify(join(dir, id))}, retention: { bookkeepingYears: ${id === 'gamma' ? 10 : 5}, operational: 30d } }`,
        ),
      ].join('\n') + '\n',
    );
    for (const id of COMPANIES) {
      await write(join(dir, id, 'archive', `${thisYear - 6}-12-31`, 'old.csv'), 'old');
      await write(join(dir, id, 'archive', `${thisYear - 5}-01-01`, 'kept.csv'), 'kept');
      await write(join(dir, id, 'error', 'rejected-long-ago.csv'), 'x', 40 * DAY_MS);
      await write(join(dir, id, 'error', 'rejected-long-ago.csv.errors.txt'), 'x', 40 * DAY_MS);
      await write(join(dir, id, 'error', 'rejected-lately.csv'), 'x', 2 * DAY_MS);
    }
    const runs = await Promise.all(
      [1, 2].map(() => runSettle(['--config', config, 'run', 'purge', '--json'], { cwd: dir, env })),
    );
    for (const run of runs) {
      const shown = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
      expect([0, 4], shown).toContain(run.code);
      expect(run.stderr, shown).not.toMatch(/ERR_INTERNAL|database is locked/);
    }
    const purged = runs
      .filter((r) => r.code === 0)
      .flatMap(
        (r) =>
          (JSON.parse(r.stdout.slice(0, r.stdout.lastIndexOf('}') + 1)) as { companies: { company: string }[] })
            .companies,
      )
      .map((c) => c.company);
    expect(new Set(purged)).toEqual(new Set(COMPANIES));
    for (const id of COMPANIES) {
      const archived = await readdir(join(dir, id, 'archive'), { recursive: true });
      const files = archived.filter((n) => n.endsWith('.csv')).sort();
      // gamma keeps ten years.
      expect(files, id).toEqual(
        id === 'gamma'
          ? [`${thisYear - 6}-12-31/old.csv`, `${thisYear - 5}-01-01/kept.csv`]
          : [`${thisYear - 5}-01-01/kept.csv`],
      );
      expect((await readdir(join(dir, id, 'error'))).sort(), id).toEqual(['rejected-lately.csv']);
    }
  });
}

describe('settle run purge', () => {
  it('on SQLite: removes what retention no longer keeps, and two at once share the companies', async () => {
    await purgeTwiceAtOnce({});
  }, 120_000);

  it.runIf(useMariaDb)(
    'on MariaDB: the same',
    async () => {
      const db = await createThrowawayDatabase();
      try {
        await purgeTwiceAtOnce({ SETTLE_DATABASE_URL: db.url });
      } finally {
        await db.drop();
      }
    },
    120_000,
  );
});
