// A hold's evidence beside a likely duplicate in the reader's language (docs/i18n.md, "Recorded
// text"): through the real pickup on SQLite and MariaDB, a line that repeats another file's
// payment and is over the limit a line is held as a duplicate with the controls' evidence, and
// its row keeps that evidence as recorded text too (migration 0762). Bokmål reads it in bokmål,
// English reads the stored English byte for byte, and a row without it (an older hold) reads
// its English.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAuditedControls } from '../../../jobs/controls/controls.js';
import { runPickup } from '../../../jobs/pickup/pickup.js';
import { recordedSentence } from '../../../src/i18n/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../../support/mariadb.js';
import { createWorld, worldPickupDeps, type World } from './world.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';
const KNOWN = 'NO0612000000009';
const line = (e2e: string) =>
  `NO9386011117947,ACME AS,2026-01-09,${e2e},12000.00,NOK,${KNOWN},Oslo Trykkeri AS,Faktura 7001`;

function suite(engine: string, onMaria: boolean): void {
  describe(`a likely duplicate's evidence (${engine})`, () => {
    let w: World;
    let db: ThrowawayDatabase | undefined;
    afterEach(async () => {
      await w.close();
      await db?.drop();
    });

    it('is recorded as text and read in bokmål, in English as stored, and old rows in English', async () => {
      db = onMaria ? await createThrowawayDatabase() : undefined;
      w = await createWorld({
        ...(db ? { databaseUrl: db.url } : {}),
        company: { intake: { stableFor: '1s' }, controls: { limits: { perLine: { NOK: '10000.00' } } } },
      });
      const pickup = worldPickupDeps(w, {
        controls: (company) =>
          loadAuditedControls(company, {
            clock: w.clock,
            timeZone: 'Europe/Oslo',
            audit: w.store.audit,
            origin: 'test',
          }),
      });
      const inbox = join(w.company.root, 'inbox');
      await mkdir(inbox, { recursive: true });
      await writeFile(join(inbox, 'first.csv'), `${HEADER}\n${line('D-1')}\n`);
      expect((await runPickup(pickup, [w.company]))[0]).toMatchObject({ held: 1 });
      await writeFile(join(inbox, 'again.csv'), `${HEADER}\n${line('D-2')}\n`);
      expect((await runPickup(pickup, [w.company]))[0]).toMatchObject({ held: 1 });

      const held = (await w.store.held.list({ company: 'acme' })).find((h) => h.endToEndId === 'D-2')!;
      expect(held.rules).toEqual(['duplicate', 'limit-line']);
      expect(held.evidence).toBe('limit-line: 12000.00 NOK is above the limit of 10000.00 NOK a line');
      expect(held.evidenceText).toMatchObject({ key: 'heldEvidence.seen' });
      expect(recordedSentence('nb', held.evidence!, held.evidenceText)).toBe(
        'Betaling over grensen (limit-line): 12\u00a0000,00\u00a0kr er over grensen på 10\u00a0000,00\u00a0kr per linje',
      );
      expect(recordedSentence('en', held.evidence!, held.evidenceText)).toBe(held.evidence);

      // A hold recorded before migration 0762 has no recorded evidence: it reads its English.
      await w.db.knex('held_payments').where({ id: held.id }).update({ evidence_text: null });
      const old = (await w.store.held.list({ company: 'acme' })).find((h) => h.endToEndId === 'D-2')!;
      expect(old.evidenceText).toBeUndefined();
      expect(recordedSentence('nb', old.evidence!, old.evidenceText)).toBe(held.evidence);
    });
  });
}

const useMaria = await mariaDbForTests();

suite('SQLite', false);
describe.runIf(useMaria)('on MariaDB', () => suite('MariaDB', true));
