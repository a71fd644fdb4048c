// The template engine's one entry (src/html): what render escapes and shows, the audited raw
// helper, and the shared components as the console's pages and the reports use them.
import { jsx } from 'hono/jsx';
import { describe, expect, it } from 'vitest';
import { withLocale } from '../../src/i18n/index.js';
import {
  Amount,
  Document,
  Embedded,
  Facts,
  InlineStyle,
  Link,
  render,
  showBidiControls,
  Table,
  When,
} from '../../src/html/index.js';

const HOSTILE = "<script>alert(1)</script>\"onmouseover=x 'q' & \u202Egnp.exe";
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover=x &#39;q&#39; &amp; [U+202E]gnp.exe';

describe('render', () => {
  it('escapes every outside string in text and in attributes, and shows bidi controls', () => {
    const html = render(Link({ href: `/x?q=${HOSTILE}`, children: HOSTILE }));
    expect(html).toBe(`<a href="/x?q=${ESCAPED}">${ESCAPED}</a>`);
  });

  it('shows each bidirectional control as its code point', () => {
    const controls = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
    expect(showBidiControls(`a${controls}b\u200Fc`)).toBe(
      'a[U+202A][U+202B][U+202C][U+202D][U+202E][U+2066][U+2067][U+2068][U+2069]b\u200Fc',
    );
  });

  it('refuses an asynchronous component instead of sending a promise', () => {
    const late = () => Promise.resolve('late');
    expect(() => render(jsx(late, {}) as never)).toThrow(/synchronously/);
  });
});

describe('the audited raw helper', () => {
  it('writes the doctype and embeds a rendered body once, not escaped twice', () => {
    const body = render(Link({ href: '/a', children: 'A & B' }));
    const page = render(Document({ lang: 'en', children: Embedded({ html: body }) }));
    expect(page).toBe('<!doctype html>\n<html lang="en"><a href="/a">A &amp; B</a></html>');
  });

  it("inlines settle's stylesheet as it is, and refuses one that would close its element", () => {
    expect(render(InlineStyle({ css: 'body { font: "x" }' }))).toBe('<style>body { font: "x" }</style>');
    expect(() => InlineStyle({ css: 'a{}</style><script>' })).toThrow(/<\/style/);
  });
});

describe('components', () => {
  const head = ['Name', { text: 'Amount', class: 'num' }];

  it('Table: a caption, headers scoped to their column, one row a line, in a region of its own that scrolls', () => {
    const html = render(
      Table({ caption: 'People', head, rows: [{ n: HOSTILE, a: 5 }], cells: (r) => [r.n, r.a], empty: 'none' }),
    );
    expect(html).toBe(
      '<div class="table" role="region" aria-label="People" tabindex="0"><table><caption>People</caption><thead><tr><th scope="col">Name</th><th scope="col" class="num">Amount</th></tr></thead>' +
        `<tbody>\n<tr><td>${ESCAPED}</td><td>5</td></tr>\n</tbody></table></div>`,
    );
  });

  it('Table: an empty one says so in a row across its columns, or instead of the table', () => {
    const none = render(Table({ caption: 'C', captionClass: 'skip', head, rows: [], cells: () => [], empty: 'none' }));
    expect(none).toContain('<caption class="skip">C</caption>');
    expect(none).toContain('<tr><td colspan="2">none</td></tr>');
    const note = render(Table({ caption: 'C', head, rows: [], cells: () => [], empty: { note: 'Nothing yet.' } }));
    expect(note).toBe('<p class="muted">Nothing yet.</p>');
    expect(render(Table({ caption: 'C', head, rows: [], cells: () => [] }))).toContain('<tbody>\n</tbody>');
  });

  it('Table: whole rows where cells need classes or a row header', () => {
    const html = render(
      Table({
        caption: 'C',
        head,
        rows: ['x'],
        row: (r, i) => jsx('tr', {}, jsx('th', { scope: 'row' }, r), jsx('td', { class: 'num' }, String(i))) as never,
      }),
    );
    expect(html).toContain('<tbody>\n<tr><th scope="row">x</th><td class="num">0</td></tr>\n</tbody>');
  });

  it('Facts: one record, each row scoped by its header', () => {
    expect(render(Facts({ caption: 'The file', rows: [['Lines', '4']] }))).toBe(
      '<div class="table" role="region" aria-label="The file" tabindex="0"><table><caption>The file</caption>' +
        '<tbody>\n<tr><th scope="row">Lines</th><td>4</td></tr>\n</tbody></table></div>',
    );
  });

  it("Amount: exact minor units in the currency's decimals", () => {
    expect(render(Amount({ money: { minor: 123456789012345678901n, currency: 'NOK' } }))).toBe(
      '1,234,567,890,123,456,789.01 NOK',
    );
    expect(render(Amount({ money: { minor: -5n, currency: 'JPY' } }))).toBe('-5 JPY');
  });

  it('When: an instant in a zone, with its name or abbreviation, or a dash', () => {
    const at = new Date('2026-01-05T08:00:00Z');
    expect(render(When({ at, zone: 'Europe/Oslo' }))).toBe('2026-01-05 09:00 Europe/Oslo');
    expect(render(When({ at, zone: 'Europe/Oslo', zoneName: 'abbreviation' }))).toBe('2026-01-05 09:00 GMT+1');
    expect(render(When({ at: undefined, zone: 'UTC' }))).toBe('–');
  });

  it('When: in bokmål, the date as Norwegians write it, the zone kept; English unchanged', () => {
    const at = new Date('2026-01-05T08:00:00Z');
    const nb = withLocale('nb', () => render(When({ at, zone: 'Europe/Oslo' })));
    expect(nb.replace(/\u202f|\u00a0/g, ' ')).toMatch(/^05\.01\.2026,? 09[:.]00 Europe\/Oslo$/);
    expect(withLocale('nb', () => render(When({ at, zone: 'Europe/Oslo', zoneName: 'abbreviation' })))).toMatch(
      /^05\.01\.2026.*GMT\+1$/,
    );
    expect(withLocale('en', () => render(When({ at, zone: 'Europe/Oslo' })))).toBe('2026-01-05 09:00 Europe/Oslo');
  });
});
