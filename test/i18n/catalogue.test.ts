// The catalogues hold every sentence in every language: the same keys, and in each sentence the
// same values and tags as the English one (a translation that drops {amount} would hide money).
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, LOCALES, translate, type MessageKey } from '../../src/i18n/index.js';

/** The argument names, plural/select arguments and tags of a sentence, sorted. */
function shape(message: string): string[] {
  const out = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date) out.add(`{${el.value}}`);
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        out.add(`{${el.value}, ${el.type === TYPE.plural ? 'plural' : 'select'}}`);
        for (const option of Object.values(el.options)) walk(option.value);
      }
      if (el.type === TYPE.tag) {
        out.add(`<${el.value}>`);
        walk(el.children);
      }
    }
  };
  walk(parse(message));
  return [...out].sort();
}

const english = CATALOGUES.en.messages;
const keys = Object.keys(english) as MessageKey[];

describe('message catalogues', () => {
  for (const locale of LOCALES) {
    const messages: Readonly<Record<string, string>> = CATALOGUES[locale].messages;
    it(`${locale} has every English key and no other`, () => {
      expect(Object.keys(messages).sort()).toEqual([...keys].sort());
    });
    it(`${locale}: each sentence parses and has the English sentence's values and tags`, () => {
      const wrong = keys.filter((k) => JSON.stringify(shape(messages[k]!)) !== JSON.stringify(shape(english[k])));
      expect(wrong).toEqual([]);
    });
    it(`${locale}: every plural has an "other" case`, () => {
      const missing = keys.filter((k) => {
        const walk = (els: MessageFormatElement[]): boolean =>
          els.some(
            (el) =>
              (el.type === TYPE.plural && !('other' in el.options)) ||
              ((el.type === TYPE.plural || el.type === TYPE.select) &&
                Object.values(el.options).some((o) => walk(o.value))) ||
              (el.type === TYPE.tag && walk(el.children)),
          );
        return walk(parse(messages[k]!));
      });
      expect(missing).toEqual([]);
    });
  }

  it('a missing key fails: the check above sees a catalogue without one', () => {
    const { 'nav.today': _dropped, ...short } = CATALOGUES.nb.messages;
    expect(Object.keys(short).sort()).not.toEqual([...keys].sort());
  });

  it('plurals follow each language (one/other), with the count written as the language writes it', () => {
    expect(translate('en', 'count.payments', { count: 1 })).toBe('1 payment');
    expect(translate('en', 'count.payments', { count: 1200 })).toBe('1,200 payments');
    expect(translate('nb', 'count.payments', { count: 1 })).toBe('1 betaling');
    expect(translate('nb', 'count.payments', { count: 1200 })).toBe('1\u00a0200 betalinger');
  });

  it('a tagged part keeps its text in plain output', () => {
    expect(
      translate('nb', 'console.notAllowed.needsRole', { role: 'approver', company: 'Acme', roles: 'viewer' }),
    ).toBe('Dette krever rollen approver i Acme; du har viewer.');
  });
});
