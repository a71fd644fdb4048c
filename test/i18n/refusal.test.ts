// A refused operation reads in the reader's language (docs/errors.md, docs/i18n.md): every error
// code of the catalogue has its sentence in every language, an error that carries its values reads
// them in bokmål, and the English sentence says exactly what the error's English message says.
import { describe, expect, it } from 'vitest';
import { errorCatalogue, type ErrorCode } from '../../src/domain/error-catalogue.js';
import { SettleError } from '../../src/domain/errors.js';
import { planHoldDecision } from '../../src/domain/plans/hold-plan.js';
import { parseSignoffPeriod } from '../../src/domain/reconcile/index.js';
import { CATALOGUES } from '../../src/i18n/locales.js';
import { renderRecorded } from '../../src/i18n/recorded.js';
import { refusalText, refusalWords } from '../../src/i18n/refusal.js';

const codes = Object.keys(errorCatalogue) as ErrorCode[];

/** What `run` throws. */
function thrown(run: () => unknown): SettleError {
  try {
    run();
  } catch (error) {
    if (error instanceof SettleError) return error;
    throw error;
  }
  throw new Error('nothing was thrown');
}

describe('the sentences of refused operations', () => {
  it('has a sentence for every error code, in every language', () => {
    expect(codes.length).toBeGreaterThan(90);
    for (const [tag, catalogue] of Object.entries(CATALOGUES)) {
      const messages = catalogue.messages as Readonly<Record<string, string>>;
      const missing = codes.filter((code) => !messages[`refusal.${code}`]);
      expect(missing, `${tag} lacks sentences for`).toEqual([]);
    }
  });

  it('writes every value-free sentence in bokmål with the English message as its detail', () => {
    for (const code of codes) {
      const words = refusalWords('nb', new SettleError(code, 'the English message'));
      // A sentence with values falls back to the English message when the error lacks them.
      if (words.sentence === 'the English message') continue;
      expect(words.detail, code).toBe('Detaljer (på engelsk): the English message');
    }
    expect(refusalText('nb', new SettleError('ERR_DB_BUSY', 'database is locked'))).toBe(
      'Databasen var opptatt av en annen settle-prosess; ingenting ble endret. Prøv igjen.\n' +
        'Detaljer (på engelsk): database is locked',
    );
  });

  it('gives English readers the message byte for byte', () => {
    const error = new SettleError('ERR_DB_BUSY', 'database is locked');
    expect(refusalWords('en', error)).toEqual({ sentence: 'database is locked' });
  });

  it('renders a refusal with its values in bokmål, and the same English as the message', () => {
    const invalid = thrown(() => parseSignoffPeriod('januar'));
    expect(refusalWords('nb', invalid)).toEqual({
      sentence: '«januar» er ikke en periode: oppgi en måned (2026-01) eller en dag (2026-01-05)',
    });
    const decided = thrown(() =>
      planHoldDecision(
        { id: 'H-1', paymentId: 'P-1', rules: [], releasesNeeded: 1, decision: 'released', decidedBy: 'local:olga' },
        'dropped',
        { by: 'local:oskar', person: 'oskar', reason: 'a duplicate' },
      ),
    );
    expect(refusalText('nb', decided)).toBe('H-1 er allerede frigitt av local:olga; se settle payments held');
    for (const error of [invalid, decided])
      expect(renderRecorded('en', { key: `refusal.${error.code}`, values: error.values ?? {} })).toBe(error.message);
  });
});
