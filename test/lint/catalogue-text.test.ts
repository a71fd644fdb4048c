// What people read on a page or in a report comes from the catalogue: the lint refuses a sentence
// written into the JSX or into a title, alt text, placeholder or screen-reader label, in a page and
// in a report, and lets codes in capitals, values and catalogue calls pass. Linted as text at those
// paths with the project's own eslint.config.js (no type information needed).
import { describe, expect, it } from 'vitest';
import { lintMessages } from '../support/lint-text.js';

const messages = (code: string, filePath: string) => lintMessages(code, filePath, ['no-restricted-syntax']);

const FILES = ['src/server/console/pages/lint-probe.tsx', 'src/formats/report/lint-probe.tsx'];

describe('the lint keeps sentences in the catalogue', () => {
  it.each([
    ['a sentence in the JSX', 'export const P = () => <p>No approval link issued yet.</p>;'],
    ['a word in bokmål', 'export const P = () => <td>beløp</td>;'],
    ['a title', 'export const P = () => <a title="Open the report">x</a>;'],
    ['a placeholder', 'export const P = () => <input placeholder="account number" />;'],
    ['a screen-reader label', 'export const P = () => <nav aria-label="pages" />;'],
  ])('refuses %s in a page and in a report', async (_what, code) => {
    for (const file of FILES) {
      const found = await messages(code, file);
      expect(found, `${file}: ${code}`).toHaveLength(1);
      expect(found[0]).toMatch(/comes from the catalogue/);
    }
  });

  it('lets catalogue calls, values and codes in capitals pass', async () => {
    const code = [
      "import { t } from '../../../i18n/index.js';",
      'export const P = ({ name }: { name: string }) => (',
      "  <p title={t('console.nav')}>",
      '    {t(\'console.nav\')} {name} CSV · HTML (AC04) <input placeholder="2026-01" />',
      '  </p>',
      ');',
    ].join('\n');
    for (const file of FILES) expect(await messages(code, file)).toEqual([]);
  });

  it('leaves other code alone: the rule is for pages and reports', async () => {
    expect(
      await messages('export const P = () => <p>No approval link issued yet.</p>;', 'src/html/lint-probe.tsx'),
    ).toEqual([]);
  });
});
