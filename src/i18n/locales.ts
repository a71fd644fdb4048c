// The languages settle speaks, and which one a person or a company gets. Adding one (Swedish,
// say) is a catalogue file beside catalogues/nb.ts and its line below (docs/i18n.md).
import { createRequire } from 'node:module';
import { match } from '@formatjs/intl-localematcher';
import type NegotiatorClass from 'negotiator';
import type { Catalogue } from './catalogue.js';
import { en } from './catalogues/en.js';
import { nb } from './catalogues/nb.js';
import { pseudo } from './catalogues/pseudo.js';
import { FALLBACK_LOCALE as ENGLISH } from './fallback-locale.js';

export const CATALOGUES = { en, nb, 'en-XA': pseudo } as const satisfies Record<string, Catalogue>;

export type Locale = keyof typeof CATALOGUES;

/** What people read when nobody named a language. */
export const FALLBACK_LOCALE: Locale = ENGLISH;

export const LOCALES = Object.keys(CATALOGUES) as Locale[];

export function isLocale(tag: string): tag is Locale {
  return Object.hasOwn(CATALOGUES, tag);
}

/**
 * The first of the preferences settle speaks, by CLDR's language matching: "nb-NO", "no" and
 * "nn" all read bokmål, "en-GB" reads English. Preferences come most wanted first (a person's
 * profile, then the browser's, then the company's); none that fits gives English.
 */
export function chooseLocale(preferences: readonly (string | undefined)[]): Locale {
  for (const wanted of preferences) {
    if (!wanted) continue;
    let tags: string[];
    try {
      tags = Intl.getCanonicalLocales(wanted);
    } catch {
      continue; // an unreadable tag from a header or a profile is skipped, not an error
    }
    const found = match(tags, LOCALES, '', { algorithm: 'best fit' });
    if (isLocale(found)) return found;
  }
  return FALLBACK_LOCALE;
}

let Negotiator: typeof NegotiatorClass | undefined;

/** A browser's Accept-Language header as tags, most wanted first (q-values honoured). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  // Required on the first header, not imported: only the console reads one, and the command line
  // (every `settle validate`) imports this module too (docs/decisions/0020).
  Negotiator ??= createRequire(import.meta.url)('negotiator') as typeof NegotiatorClass;
  return new Negotiator({ headers: { 'accept-language': header } }).languages().filter((l) => l !== '*');
}
