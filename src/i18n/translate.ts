// Sentences for people, from the catalogue of their language. Each sentence is compiled once per
// language (intl-messageformat, which knows each language's plural rules); values are plain
// strings and counts, money and dates already formatted by format.ts. A sentence may tag a part
// ("<b>…</b>"): the translation decides where the emphasis sits, the template how it looks.
import { AsyncLocalStorage } from 'node:async_hooks';
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { IntlMessageFormat } from 'intl-messageformat';
import type { MessageKey } from './catalogues/en.js';
import { CATALOGUES, FALLBACK_LOCALE, type Locale } from './locales.js';

export type MessageValues = Readonly<Record<string, string | number>>;

interface Compiled {
  format: IntlMessageFormat;
  /** The names of the tags in the sentence, e.g. ["b"] for "needs <b>{role}</b>". */
  tags: readonly string[];
}

const compiled = new Map<string, Compiled>();

/** The tag names in a parsed sentence. */
function tagNames(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.tag) tagNames(el.children, into.add(el.value));
    if (el.type === TYPE.plural || el.type === TYPE.select)
      for (const option of Object.values(el.options)) tagNames(option.value, into);
  }
  return into;
}

function compile(locale: Locale, key: MessageKey): Compiled {
  const id = `${locale}\u0000${key}`;
  let found = compiled.get(id);
  if (!found) {
    const messages: Readonly<Record<MessageKey, string>> = CATALOGUES[locale].messages;
    const format = new IntlMessageFormat(messages[key], CATALOGUES[locale].tag);
    found = { format, tags: [...tagNames(format.getAst())] };
    compiled.set(id, found);
  }
  return found;
}

/**
 * The sentence `key` in `locale` as parts: text, and what `tags` made of each tagged part (an
 * element, in a template). A tag without a handler keeps its text.
 */
export function translateParts<T>(
  locale: Locale,
  key: MessageKey,
  values: MessageValues = {},
  tags: Readonly<Record<string, (text: string) => T>> = {},
): (string | T)[] {
  const { format, tags: names } = compile(locale, key);
  const handlers = Object.fromEntries(
    names.map((name) => [name, (chunks: unknown[]) => (tags[name] ?? String)(chunks.map(String).join(''))]),
  );
  const parts = format.formatToParts<T>({ ...values, ...handlers });
  // Adjacent text is joined, so that a sentence without tags comes out as one string.
  const out: (string | T)[] = [];
  for (const { value } of parts) {
    const last = out.length - 1;
    if (typeof value === 'string' && typeof out[last] === 'string') out[last] += value;
    else out.push(value);
  }
  return out;
}

/** The sentence `key` in `locale`, with its values filled in, as plain text. */
export function translate(locale: Locale, key: MessageKey, values?: MessageValues): string {
  return translateParts<string>(locale, key, values).join('');
}

const requestLocale = new AsyncLocalStorage<Locale>();

/** Runs `work` with `locale` as the language of what it renders (one console request). */
export function withLocale<R>(locale: Locale, work: () => R): R {
  return requestLocale.run(locale, work);
}

/** The language of the request being rendered; English outside one. */
export function currentLocale(): Locale {
  return requestLocale.getStore() ?? FALLBACK_LOCALE;
}

/** `translate` in the language of the request being rendered. */
export function t(key: MessageKey, values?: MessageValues): string {
  return translate(currentLocale(), key, values);
}
