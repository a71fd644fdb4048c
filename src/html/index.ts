// HTML made by the template engine (hono/jsx, escaping by default): the render to `Html`, the
// audited helper for what may enter unescaped, and the components pages and reports share.
export { render, showBidiControls, type Html } from './render.js';
export { Document, Embedded, InlineStyle } from './raw.js';
export { Amount, Facts, Link, Sentence, Table, When, type HeadCell, type TableProps } from './components.js';
// The engine's types for children and elements, so nothing outside src/html imports the engine itself.
export type { Child } from 'hono/jsx';
export type { JSX } from 'hono/jsx/jsx-runtime';
