// One area of the catalogue (a page, a report, a command): its sentences in every language, side
// by side, so that a sentence and its translation are changed together. English is the
// reference; `area` makes TypeScript refuse a bokmål sentence missing or extra. The catalogues
// (catalogues/en.ts, nb.ts) gather every area; keys start with the area's name ("approvals.…").
export interface Area<K extends string> {
  en: Readonly<Record<K, string>>;
  nb: Readonly<Record<K, string>>;
}

export function area<const E extends Readonly<Record<string, string>>>(messages: {
  en: E;
  nb: Readonly<Record<keyof E & string, string>>;
}): Area<keyof E & string> & { en: E } {
  return messages;
}
