// A finding's sentence as recorded text (migration 0760) goes into the store and comes back with
// the English beside it, on SQLite and on MariaDB; a finding recorded without it (an old row)
// reads none and keeps its English.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { recorded } from '../../src/domain/recorded-text.js';
import { recordedSentence } from '../../src/i18n/index.js';
import { createStore, openDatabase } from '../../src/store/index.js';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { withTempDir } from '../support/tmp.js';

const mariadb = await mariaDbForTests();

async function roundTrip(url: string): Promise<void> {
  const db = await openDatabase({ url });
  try {
    await db.migrate();
    const store = createStore(db, new ManualClock('2026-01-08T06:00:00Z'));
    const english = 'A debit of 7.77 NOK booked on 2026-01-07 matches no payment settle sent.';
    const said = recorded('findingText.unmatchedDebit', { amount: '7.77', currency: 'NOK', date: '2026-01-07' });
    const base = { type: 'unexpected_debit', factHash: 'h'.repeat(64), subject: 'booking t-fee', summary: english };
    await store.findings.recordRun('acme', 'night-2', [
      { ...base, id: 'F-new', summaryText: said },
      { ...base, id: 'F-old' },
    ]);
    const [fresh] = await store.findings.find('F-new', 'acme');
    const [old] = await store.findings.find('F-old', 'acme');
    expect(fresh!.summaryText).toEqual(said);
    expect(recordedSentence('nb', fresh!.summary, fresh!.summaryText)).toBe(
      'En belastning på 7.77 NOK bokført 2026-01-07 samsvarer ikke med noen betaling settle har sendt.',
    );
    expect(recordedSentence('en', fresh!.summary, fresh!.summaryText)).toBe(english);
    expect(old!.summaryText).toBeUndefined();
    expect(recordedSentence('nb', old!.summary, old!.summaryText)).toBe(english);
  } finally {
    await db.close();
  }
}

describe('a finding’s recorded sentence in the store', () => {
  it('comes back on SQLite', async () => {
    await withTempDir((dir) => roundTrip(`sqlite:${join(dir, 'settle.sqlite')}`));
  });

  it.skipIf(!mariadb)(
    'comes back on MariaDB',
    async () => {
      const target = await createThrowawayDatabase();
      try {
        await roundTrip(target.url);
      } finally {
        await target.drop();
      }
    },
    120_000,
  );
});
