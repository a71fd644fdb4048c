// English, what people read when nobody named a language, in a module of its own: the command line
// of `settle validate` needs nothing else of src/i18n for an English run, and locales.ts loads every
// catalogue (31 areas in each language) and the locale matcher, whose import starts ICU's
// formatters (docs/decisions/0020). locales.ts re-exports it typed as a Locale.
export const FALLBACK_LOCALE = 'en';
