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

/**
 * A text field in one pass, for the common case: the value as XML when it needs nothing but
 * escaping (no line controls, nothing XML 1.0 forbids, no space to trim at either end, within
 * `max`), else undefined, and the caller takes the checked way (prepareText, which reports what
 * it changes). Beside printable ASCII it takes the characters from U+00A0 up that need no look
 * (no surrogates, no U+FFFE/U+FFFF), but at either end only printable ASCII or U+00A1–U+167F, so
 * no character JavaScript's trim would drop. One scan where a regular expression for the plain
 * case, a second for the clean one and three replacements to escape were before
 * (docs/decisions/0018-writers-at-the-template.md).
 */
export function textAsXml(value: string, max: number): string | undefined {
  const n = value.length;
  if (n === 0 || n > max || !edge(value.charCodeAt(0)) || !edge(value.charCodeAt(n - 1))) return undefined;
  let out = '';
  let from = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c > 0x3e) {
      if (c < 0x7f) continue;
      if (c < 0xa0 || (c >= 0xd800 && c <= 0xdfff) || c >= 0xfffe) return undefined;
    } else if (c < 0x20) {
      return undefined;
    } else if (c === 0x26 || c === 0x3c || c === 0x3e) {
      out += value.slice(from, i) + (c === 0x26 ? '&amp;' : c === 0x3c ? '&lt;' : '&gt;');
      from = i + 1;
    }
  }
  return from === 0 ? value : out + value.slice(from);
}

/**
 * An id in one pass: the value as XML when it is printable ASCII without a space at either end,
 * within `max` (so it fits as it is: src/formats/xml/identifier.ts), else undefined, and the caller
 * takes the checked way (stand-ins for long ids).
 */
export function idAsXml(value: string, max: number): string | undefined {
  const n = value.length;
  if (n === 0 || n > max || value.charCodeAt(0) === 0x20 || value.charCodeAt(n - 1) === 0x20) return undefined;
  let out = '';
  let from = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c > 0x3e) {
      if (c < 0x7f) continue;
      return undefined;
    } else if (c < 0x20) {
      return undefined;
    } else if (c === 0x26 || c === 0x3c || c === 0x3e) {
      out += value.slice(from, i) + (c === 0x26 ? '&amp;' : c === 0x3c ? '&lt;' : '&gt;');
      from = i + 1;
    }
  }
  return from === 0 ? value : out + value.slice(from);
}

/** A first or last character that no trim drops and that needs no look: printable ASCII but space, or U+00A1–U+167F. */
function edge(c: number): boolean {
  return (c > 0x20 && c < 0x7f) || (c > 0xa0 && c < 0x1680);
}
