// Every state, entity, source, day and rule settle shows a person has words in every language:
// each enum is enumerated here, so a new value without words fails until the catalogue describes
// it (src/i18n/messages/states.ts, rules.ts; a payment's state in line-state.ts, a file's in files.ts).
import { describe, expect, it } from 'vitest';
import { STORY_SOURCES } from '../../jobs/payments/payment-story.js';
import { ACCOUNT_STATUSES, CONSENT_STATUSES } from '../../src/bank/index.js';
import { CONTROL_RULES, DUPLICATE_RULE } from '../../src/domain/controls/settings.js';
import { DAY_NAMES } from '../../src/domain/controls/rules.js';
import { MATCH_RULES } from '../../src/domain/reconcile/config.js';
import { CREDIT_RULES } from '../../src/domain/reconcile/receivables.js';
import { daysFigure, recorded } from '../../src/domain/recorded-text.js';
import { BASKET_STATES, BULK_STATES, FILE_STATES, PAYMENT_STATES } from '../../src/domain/states.js';
import {
  codeCell,
  codeWords,
  historyStateKind,
  LOCALES,
  renderRecorded,
  wordsWithCode,
  type WordKind,
} from '../../src/i18n/index.js';
import { CONSENT_SOURCES } from '../../src/store/consents.js';
import { ENTITY_TYPES, TRANSITION_SOURCES } from '../../src/store/transitions.js';

const TABLES: Record<string, { kind: WordKind; codes: readonly string[] }> = {
  // A consent settle marks deleted when the bank no longer lists it (jobs/consents/sync.ts).
  'consent states': { kind: 'consent', codes: [...CONSENT_STATUSES, 'Deleted'] },
  'consent sources': { kind: 'consentSource', codes: CONSENT_SOURCES },
  'account states': { kind: 'account', codes: ACCOUNT_STATUSES },
  'bulk states': { kind: 'bulk', codes: BULK_STATES },
  'basket states': { kind: 'basket', codes: BASKET_STATES },
  'payment states': { kind: 'payment', codes: PAYMENT_STATES },
  'history entities': { kind: 'entity', codes: ENTITY_TYPES },
  'audit subjects': {
    kind: 'entity',
    codes: [
      'payment',
      'bulk',
      'basket',
      'payment_file',
      'cancellation',
      'console',
      'finding',
      'period',
      'reconcile_run',
    ],
  },
  'history sources': { kind: 'source', codes: [...TRANSITION_SOURCES, 'settle'] },
  days: { kind: 'day', codes: DAY_NAMES },
  rules: { kind: 'rule', codes: [...MATCH_RULES, ...CREDIT_RULES, ...CONTROL_RULES, DUPLICATE_RULE] },
};

describe('codes in words', () => {
  for (const [name, { kind, codes }] of Object.entries(TABLES))
    it(`has words for every one of the ${name} in every language`, () => {
      for (const locale of LOCALES)
        for (const code of codes) {
          const words = codeWords(kind, code, locale);
          expect(words, `${kind} ${code} in ${locale}`).toBeTruthy();
          expect(words, `${kind} ${code} in ${locale}`).not.toBe(code);
        }
      // Each code has its own words in bokmål: two states that read the same cannot be told apart.
      const bokmal = codes.map((c) => codeWords(kind, c, 'nb'));
      if (kind !== 'payment') expect(new Set(bokmal).size, name).toBe(codes.length);
    });

  it('has words for every state of a payment file in bokmål (English shows the code)', () => {
    for (const code of FILE_STATES) {
      expect(codeWords('file', code, 'en')).toBe(code);
      expect(codeWords('file', code, 'nb'), code).not.toBe(code);
    }
  });

  it('has words for every source a payment story names', () => {
    // The story's sources are the transitions' (webhook: an event; bank lookup: a lookup).
    const mapped: Record<(typeof STORY_SOURCES)[number], string> = {
      poll: 'poll',
      webhook: 'event',
      'bank lookup': 'lookup',
      operator: 'operator',
      settle: 'settle',
    };
    for (const s of STORY_SOURCES) expect(codeWords('source', mapped[s], 'nb'), s).toBeTruthy();
  });

  it('keeps the code beside the words, and English tables keep the code alone', () => {
    expect(wordsWithCode('basket', 'link_issued', 'nb')).toBe('Venter på en godkjenner (link_issued)');
    expect(wordsWithCode('rule', 'changed-account', 'nb')).toBe('Endret kreditorkonto (changed-account)');
    expect(wordsWithCode('rule', 'changed-account', 'en')).toBe('Changed creditor account (changed-account)');
    expect(codeCell('bulk', 'unknown', 'en')).toBe('unknown');
    expect(codeCell('bulk', 'unknown', 'nb')).toBe('Ukjent utfall: settle spør banken (unknown)');
    // A code the catalogue does not know (a bank's new status) is shown as it came.
    expect(codeCell('consent', 'Suspended', 'nb')).toBe('Suspended');
    expect(codeCell('account', 'frozen', 'nb')).toBe('frozen');
  });

  it("reads a bulk's bank status in its history as a payment's state", () => {
    expect(historyStateKind('bulk', 'ACSC')).toBe('payment');
    expect(historyStateKind('bulk', 'sent')).toBe('bulk');
    expect(codeCell(historyStateKind('bulk', 'ACSC'), 'ACSC', 'nb')).toBe('Betalt fra belastningskontoen (ACSC)');
    expect(codeCell(historyStateKind('payment_file', 'accepted'), 'accepted', 'nb')).toBe('godtatt (accepted)');
  });

  it('spells out the days of the expected hours in bokmål, and keeps English as recorded', () => {
    const hours = recorded('lineText.expectedHours', {
      days: daysFigure(['mon', 'tue', 'fri']),
      from: '07:00',
      to: '17:00',
    });
    expect(renderRecorded('en', hours)).toBe('mon,tue,fri 07:00–17:00');
    expect(renderRecorded('nb', hours)).toBe('mandag, tirsdag og fredag kl. 07:00–17:00');
  });
});
