// How a name is compared when a person searches for it (docs/i18n.md, "Searching names"): the
// stored name and the typed text are folded the same way, here and nowhere else, and the search
// is a prefix range on the folded text. A store keeps the folded name beside the name it shows
// (payments.creditor_name_folded, migration 0761), folded by this function in JavaScript on
// every engine, so SQLite and MariaDB find the same rows.
//
// The fold:
// - Unicode NFC first, so `Ø` typed as O + combining stroke and the precomposed `Ø` are one letter;
// - lower case (Unicode's, not a language's): Æ→æ, Ø→ø, Å→å, É→é, ASCII A→a. Nothing else
//   changes a letter: æ, ø and å stay letters of their own (never a, o or aa) and accents stay,
//   so `orn` does not find `Ørn`, `aasen` does not find `Åsen` and `celine` not `Céline`;
// - every run of white space and control characters (tab, no-break space, line break) reads as
//   one space, and the ends are trimmed: `  ørnulf   hansen ` is `ørnulf hansen`.
// The folded text therefore holds no character below U+0020 and never ends in a space, so a
// binary comparison by code point (SQLite's, and MariaDB's utf8mb4_bin, which pads with spaces)
// orders it the same on both engines.

/** The text as a name search compares it: NFC, lower case, white space collapsed and trimmed. */
export function foldForSearch(text: string): string {
  return (
    text
      .normalize('NFC')
      .toLowerCase()
      // Lower case can decompose (İ → i + combining dot above): compose again.
      .normalize('NFC')
      .replace(/[\s\p{Cc}]+/gu, ' ')
      .trim()
  );
}

/**
 * The first text after every text that starts with `prefix`, by code point: `prefix` with its
 * last character made the next one (`ørn` → `øro`). A search for the prefix is then the range
 * `prefix <= folded < end`. Undefined when no text follows (a prefix of only U+10FFFF): the range
 * has no upper end.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix].map((c) => c.codePointAt(0)!);
  while (points.length > 0) {
    const last = points.pop()!;
    if (last < 0x10ffff) {
      // Surrogates are no characters of their own: after U+D7FF comes U+E000.
      points.push(last === 0xd7ff ? 0xe000 : last + 1);
      return String.fromCodePoint(...points);
    }
  }
  return undefined;
}
