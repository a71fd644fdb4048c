// The audited helper: the only place in settle where HTML enters a page without the engine's
// escaping. The lint (eslint.config.js) forbids `dangerouslySetInnerHTML`, the engine's `raw`
// and hand escaping (`esc(`, `escapeHtml(`) everywhere else, and a test proves it does. Each
// function says why what it lets through is safe; keep this file that short.
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { Html } from './render.js';

/**
 * A whole document: the doctype, which JSX cannot express, then `<html lang>` around the
 * children. The doctype is a constant.
 */
export function Document({ lang, children }: { lang: string; children?: Child }) {
  return (
    <>
      {raw('<!doctype html>\n')}
      <html lang={lang}>{children}</html>
    </>
  );
}

/**
 * HTML that `render` already made (a page's body inside the layout): its outside strings were
 * escaped when it was rendered, and the `Html` type admits nothing else.
 */
export function Embedded({ html }: { html: Html }) {
  return raw(html);
}

/**
 * A stylesheet of settle's own, inlined in a self-contained report. Only constants of the code
 * come here (the report's REPORT_CSS); text that could close the element is refused.
 */
export function InlineStyle({ css }: { css: string }) {
  if (/<\/style/i.test(css)) throw new Error('InlineStyle: a stylesheet may not contain "</style"');
  return <style>{raw(css)}</style>;
}
