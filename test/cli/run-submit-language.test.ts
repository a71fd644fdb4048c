// `settle run submit` says in the company's language that bulks wait on another run's claim
// (docs/i18n.md): a bokmål company's run reads "1 venter på en annen kjørings reservasjon til …".
// The bank is out of reach for the first run, so its bulk stays to be sent; another holder then
// claims it in the database, as a second settle process would, and the next run waits for it.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SEED } from '../../src/sandbox/index.js';
import { withControlsWorld } from '../support/controls-world.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';

/** The SQLite file the world's settle uses. */
async function databaseFile(dir: string): Promise<string> {
  for (const sub of ['data', '.']) {
    const names = await readdir(join(dir, sub)).catch(() => [] as string[]);
    const found = names.find((n) => n.endsWith('.sqlite'));
    if (found) return join(dir, sub, found);
  }
  throw new Error(`no SQLite database under ${dir}`);
}

describe('settle run submit in the company language', { timeout: 300_000 }, () => {
  it('says in bokmål that a bulk waits on another run’s claim, and until when', async () => {
    await withControlsWorld(
      undefined,
      { company: '    locale: nb\n' },
      async ({ dir, file, date, settle, dropCsv }) => {
        await dropCsv(
          'pay.csv',
          HEADER,
          `${SEED.operatingIban},ACME AS,${date},W-1,100.00,NOK,NO5812000079195,Nordic Cleaning AS,Faktura 1`,
        );
        expect((await settle('run', 'pickup')).code).toBe(0);
        // The bank out of reach: the bulk is planned and stays to be sent.
        const yaml = await readFile(file, 'utf8');
        await writeFile(file, yaml.replace(/baseUrl: http:\/\/127\.0\.0\.1:\d+/, 'baseUrl: http://127.0.0.1:9'));
        await settle('run', 'submit');
        const until = new Date(Date.now() + 3_600_000).toISOString();
        const db = new Database(await databaseFile(dir));
        try {
          const claimed = db
            .prepare(
              "UPDATE bulks SET lease_holder = 'other-run', lease_expires_at = ? WHERE state IN ('pending', 'sending')",
            )
            .run(until);
          expect(claimed.changes).toBe(1);
        } finally {
          db.close();
        }
        const waiting = await settle('run', 'submit');
        expect(waiting.stdout).toContain(`1 venter på en annen kjørings reservasjon til ${until}`);
        expect(waiting.stdout).not.toContain("another holder's claim");
      },
    );
  });
});
