// Text for XML documents: what XML 1.0 cannot carry, what ISO 20022 length limits allow, and
// escaping. Rules (docs/formats/camt053.md "Text"):
// - TAB, CR and LF become a space: ISO 20022 text fields are single-line, and a raw CR would be
//   silently normalised away by every XML parser anyway.
// - Characters XML 1.0 forbids (other C0 controls, U+FFFE, U+FFFF, lone surrogates) become
//   U+FFFD, so the reader can see that something was there.
// - Leading and trailing spaces are dropped; a text that ends up empty is omitted (the schemas'
//   MaxNText types have minLength 1).
// - Longer texts are cut to the limit in characters (code points, as XSD counts them; never
//   inside a surrogate pair).
// Every change except trimming is reported to the caller.

// Printable ASCII only: the common case, which needs no further look.
const PLAIN = /^[\x20-\x7e]*$/;
const LINE_CONTROLS = /[\t\r\n]/g;
// With the u flag a well-formed surrogate pair is one code point, so [\uD800-\uDFFF] only
// matches lone surrogates.
// eslint-disable-next-line no-control-regex -- finding the controls XML 1.0 forbids is the point
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/gu;
// eslint-disable-next-line no-control-regex -- as above
const FORBIDDEN_TEST = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/u;

export type TextChange = 'sanitised' | 'truncated';

export interface PreparedText {
  text: string | undefined;
  /** What was changed beyond trimming; empty when nothing was. */
  changes: TextChange[];
}

/** Sanitises, trims and cuts `value` to `maxLength` characters. */
export function prepareText(value: string | undefined, maxLength: number): PreparedText {
  if (value === undefined) return { text: undefined, changes: [] };
  const changes: TextChange[] = [];
  let text = value;
  if (!PLAIN.test(text)) {
    const cleaned = sanitiseXmlText(text);
    if (cleaned !== text) changes.push('sanitised');
    text = cleaned;
  }
  text = text.trim();
  if (text.length > maxLength) {
    const cut = truncateCodePoints(text, maxLength);
    if (cut !== text) {
      changes.push('truncated');
      // A cut can end on a space; drop it like any trailing space.
      text = cut.trimEnd();
    }
  }
  return { text: text === '' ? undefined : text, changes };
}

/** Replaces line controls by a space and what XML 1.0 forbids by U+FFFD. */
export function sanitiseXmlText(value: string): string {
  const spaced = value.replace(LINE_CONTROLS, ' ');
  return FORBIDDEN_TEST.test(spaced) ? spaced.replace(FORBIDDEN, '\ufffd') : spaced;
}

/** The first `maxLength` code points of `value`. */
export function truncateCodePoints(value: string, maxLength: number): string {
  // UTF-16 length is an upper bound of the code point count.
  if (value.length <= maxLength) return value;
  let units = 0;
  let points = 0;
  while (units < value.length && points < maxLength) {
    const code = value.charCodeAt(units);
    units += code >= 0xd800 && code <= 0xdbff && units + 1 < value.length ? 2 : 1;
    points++;
  }
  return value.slice(0, units);
}

export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

const TEXT_SPECIAL = /[&<>]/;
const ATTR_SPECIAL = /[&<>"]/;

/** Escapes character data: & < > (quotes need no escaping in element content). */
export function escapeText(value: string): string {
  if (!TEXT_SPECIAL.test(value)) return value;
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value written between double quotes. */
export function escapeAttribute(value: string): string {
  if (!ATTR_SPECIAL.test(value)) return value;
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
