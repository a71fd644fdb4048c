// The one way settle turns a page into HTML: a JSX tree (hono/jsx, which escapes every string
// child and every attribute value) rendered to an `Html` string. `Html` is branded, so a page's
// body, the layout's slot and the reports can only hold what this function produced; an outside
// string cannot pass for HTML without the cast the lint forbids (docs/decisions/0001).
//
// Beyond escaping, the render shows bidirectional controls (U+202A–U+202E, U+2066–U+2069) as
// their code point, "[U+202E]": in a file or creditor name from outside they would reorder what
// the reader sees ("invoice‮fdp.exe"). Settle's own templates never contain them, so replacing
// them in the rendered HTML reaches every outside string, in text and attributes alike.
import type { JSX } from 'hono/jsx/jsx-runtime';

declare const HTML: unique symbol;

/** HTML made by `render` (or the audited helper, src/html/raw.tsx): safe to send or embed. */
export type Html = string & { readonly [HTML]: true };

const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** The text with each bidirectional control shown as its code point, e.g. "[U+202E]". */
export function showBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
}

/** Renders a JSX tree to HTML. Settle's components are synchronous; an asynchronous one is a bug. */
export function render(node: JSX.Element): Html {
  const out: unknown = (node as { toString(): unknown }).toString();
  if (typeof out !== 'string' && !(out instanceof String))
    throw new TypeError('render: an asynchronous component reached the page; settle renders synchronously');
  return showBidiControls(String(out)) as Html;
}
