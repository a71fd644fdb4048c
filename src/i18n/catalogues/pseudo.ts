// The pseudo-language "en-XA" (CLDR's tag for it): English with every letter accented and every
// sentence in ⟦…⟧. A page read in it shows at once which text bypasses the catalogue (plain
// English) and where a sentence is cut or joined (a bracket missing). It is made from the English
// catalogue, so it is always complete; test/i18n/pseudo-locale.test.ts reads the console in it.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js';
import type { Translation } from './en.js';
import { en } from './en.js';

const ACCENTED: Readonly<Record<string, string>> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'àƀçđéƒĝĥîĵķłɱñöþʠŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶŁṀÑÖÞǪŔŠŢÛṼŴẊÝŽ'][i]!,
  ]),
);

function accent(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((el) => {
    if (el.type === TYPE.literal) return { ...el, value: el.value.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c) };
    if (el.type === TYPE.tag) return { ...el, children: accent(el.children) };
    if (el.type === TYPE.plural || el.type === TYPE.select)
      return {
        ...el,
        options: Object.fromEntries(
          Object.entries(el.options).map(([k, option]) => [k, { ...option, value: accent(option.value) }]),
        ),
      };
    return el;
  });
}

/** One English sentence in the pseudo-language. */
export function pseudoSentence(message: string): string {
  return `⟦${printAST(accent(parse(message)))}⟧`;
}

let messages: Record<keyof typeof en.messages, string> | undefined;

export const pseudo = {
  tag: 'en-XA',
  name: 'Pseudo (for checking translations)',
  formatLocale: 'en-GB',
  currencyStyle: 'code-after',
  dateFormat: en.dateFormat,
  spreadsheetCsv: en.spreadsheetCsv,
  // Made on first use, not at import: every process imports the catalogues, and parsing and
  // printing each English sentence was a large part of `settle validate`'s start-up
  // (docs/decisions/0020), though only a check of the translations reads this language.
  get messages(): Record<keyof typeof en.messages, string> {
    return (messages ??= Object.fromEntries(
      Object.entries(en.messages).map(([k, v]) => [k, pseudoSentence(v)]),
    ) as Record<keyof typeof en.messages, string>);
  },
} satisfies Translation;
