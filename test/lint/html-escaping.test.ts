// The pages' lint rule fires: hand escaping (`esc(`, `escapeHtml(`), `dangerouslySetInnerHTML`,
// the engine's `raw` and a cast to Html are refused in a page and in a report, and the audited
// helper src/html/raw.tsx may import `raw`. Linted as text at those paths with the project's
// own eslint.config.js, only the two rules that carry it (no type information needed).
import { describe, expect, it } from 'vitest';
import { lintMessages } from '../support/lint-text.js';

const messages = (code: string, filePath: string) =>
  lintMessages(code, filePath, ['no-restricted-syntax', 'no-restricted-imports']);

const PAGE = 'src/server/console/pages/lint-probe.tsx';
const REPORT = 'src/formats/report/lint-probe.tsx';

describe('the lint keeps HTML to the template engine', () => {
  it.each([
    ['a hand escape', 'const s = esc(name);'],
    ['the old report escaper', 'const s = escapeHtml(name);'],
    ['an escaper as a method', 'const s = html.escapeHtml(name);'],
    ['raw HTML in JSX', 'const p = <p dangerouslySetInnerHTML={{ __html: name }} />;'],
    ['a cast to Html', "const h = '<p>' as Html;"],
    ["the engine's raw", "import { raw } from 'hono/html';"],
    ["the engine's internals", "import { escapeToBuffer } from 'hono/utils/html';"],
  ])('refuses %s in a page and in a report', async (_what, code) => {
    for (const file of [PAGE, REPORT]) {
      const found = await messages(code, file);
      expect(found, `${file}: ${code}`).toHaveLength(1);
      expect(found[0]).toMatch(/^no-restricted-(syntax|imports): /);
    }
  });

  it('lets the audited helper import raw, and render.ts brand its output', async () => {
    expect(await messages("import { raw } from 'hono/html';", 'src/html/raw.tsx')).toEqual([]);
    expect(await messages('export const h = (s: string) => s as Html;', 'src/html/render.ts')).toEqual([]);
    // Even there, no hand escaping.
    expect(await messages('const s = esc(name);', 'src/html/raw.tsx')).toHaveLength(1);
  });

  it('accepts a page written in JSX', async () => {
    expect(await messages('export const P = ({ name }: { name: string }) => <p>{name}</p>;', PAGE)).toEqual([]);
  });
});
