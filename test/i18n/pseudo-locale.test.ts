// Issue #53, Must 4: room for the next languages. The pseudo-language en-XA is made from the
// English catalogue, so it is always complete, and every sentence in it is visibly not English
// (accented, in ⟦…⟧): text on a page that still reads as plain English bypassed the catalogue
// (the console's pages are read that way in pages-bokmal-browser.test.ts). And adding a language
// is what docs/i18n.md says: in a copy of src/, one catalogue file (Swedish, from nb.ts) and its
// line in src/i18n/locales.ts make `sv` a language settle speaks and valid configuration, while
// TypeScript refuses the file when a sentence is missing.
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { execFile } from 'node:child_process';
import { cp, readFile, symlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CATALOGUES, translate, type MessageKey } from '../../src/i18n/index.js';
import { withTempDir } from '../support/tmp.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

describe('the pseudo-language', () => {
  it('has every English sentence, each one visibly not English, with its values and tags intact', () => {
    const en: Readonly<Record<string, string>> = CATALOGUES.en.messages;
    const pseudo: Readonly<Record<string, string>> = CATALOGUES['en-XA'].messages;
    expect(Object.keys(pseudo).sort()).toEqual(Object.keys(en).sort());
    const plain = Object.entries(pseudo).filter(([, v]) => !/^⟦[\s\S]*⟧$/.test(v) || /[A-Za-z]{3,}/.test(words(v)));
    expect(plain).toEqual([]);
    // A rendered sentence: the values as given, the words around them not English.
    const said = translate('en-XA', 'count.payments' satisfies MessageKey, { count: 3 });
    expect(said).toBe('⟦3 þàýɱéñţš⟧');
    expect(translate('en-XA', 'console.notAllowed.noRole', { company: 'ACME AS' })).toMatch(/^⟦.*ACME AS.*⟧$/);
  });
});

/** The words of a sentence: its literal text, inside plural and select cases and tags too. */
function words(message: string): string {
  const out: string[] = [];
  const walk = (elements: MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal) out.push(el.value);
      if (el.type === TYPE.tag) walk(el.children);
      if (el.type === TYPE.plural || el.type === TYPE.select) for (const o of Object.values(el.options)) walk(o.value);
    }
  };
  walk(parse(message));
  return out.join(' ');
}

describe('adding a language, as docs/i18n.md says', () => {
  it(
    'is one catalogue file and its line in locales.ts: Swedish is then spoken, configurable, and checked',
    { timeout: 240_000 },
    async () => {
      await withTempDir(async (dir) => {
        await cp(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
        await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
        await writeFile(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));

        // Step 1: copy nb.ts to sv.ts, set the tag and formats, translate every sentence (here the
        // bokmål ones with a few Swedish, written out in the one file rather than taken from the areas).
        const nbFile = await readFile(join(ROOT, 'src/i18n/catalogues/nb.ts'), 'utf8');
        const swedish: Record<string, string> = {
          ...CATALOGUES.nb.messages,
          'nav.payments': 'Betalningar',
          'nav.reconciliation': 'Avstämning',
          'count.payments': '{count, plural, one {# betalning} other {# betalningar}}',
        };
        const sv = (messages: Record<string, string>) =>
          nbFile
            .replace("import { areasBokmal } from '../messages/index.js';\n", '')
            .replace('export const nb = {', 'export const sv = {')
            .replace("tag: 'nb'", "tag: 'sv'")
            .replace("name: 'Norsk bokmål'", "name: 'Svenska'")
            .replace("formatLocale: 'nb-NO'", "formatLocale: 'sv-SE'")
            .replace(
              /messages: \{[\s\S]*\n {2}\},\n\} as const/,
              `messages: ${JSON.stringify(messages, null, 2)},\n} as const`,
            );
        expect(sv(swedish)).not.toContain('areasBokmal');
        await writeFile(join(dir, 'src/i18n/catalogues/sv.ts'), sv(swedish));

        // Step 2: its line in CATALOGUES (and the import that names it).
        const localesFile = join(dir, 'src/i18n/locales.ts');
        const locales = await readFile(localesFile, 'utf8');
        expect(locales).toContain("export const CATALOGUES = { en, nb, 'en-XA': pseudo }");
        await writeFile(
          localesFile,
          locales
            .replace(
              "import { nb } from './catalogues/nb.js';",
              "import { nb } from './catalogues/nb.js';\nimport { sv } from './catalogues/sv.js';",
            )
            .replace("{ en, nb, 'en-XA': pseudo }", "{ en, nb, sv, 'en-XA': pseudo }"),
        );

        // settle now speaks Swedish: chosen from a browser's language, written in Swedish formats,
        // and `locale: sv` is valid configuration.
        await writeFile(
          join(dir, 'check.ts'),
          [
            "import { chooseLocale, format, LOCALES, translate } from './src/i18n/index.js';",
            "import { locale } from './src/config/schema-fields.js';",
            'console.log(JSON.stringify({',
            '  locales: LOCALES,',
            "  chosen: chooseLocale(['sv-SE', 'en']),",
            "  nav: translate('sv', 'nav.payments'),",
            "  count: translate('sv', 'count.payments', { count: 2 }),",
            "  money: format.money({ minor: 197520n, currency: 'SEK' }, 'sv').replace(/[\\u00a0\\u202f]/g, ' '),",
            "  date: format.date('2026-01-08', 'sv'),",
            "  config: locale.safeParse('sv').success,",
            "  unknown: locale.safeParse('da').success,",
            '}));',
          ].join('\n'),
        );
        const checked = await run(bin('tsx'), ['check.ts'], { cwd: dir });
        expect(JSON.parse(checked.stdout)).toEqual({
          locales: ['en', 'nb', 'sv', 'en-XA'],
          chosen: 'sv',
          nav: 'Betalningar',
          count: '2 betalningar',
          money: '1 975,20 kr',
          // Swedish writes a date year first: the catalogue's two-digit day and month read so in sv-SE.
          date: '2026-01-08',
          config: true,
          unknown: false,
        });

        // TypeScript checks the file: as written it compiles; with a sentence missing it is refused, by name.
        await writeFile(
          join(dir, 'tsconfig.json'),
          JSON.stringify({
            extends: join(ROOT, 'tsconfig.json'),
            compilerOptions: { noEmit: true, types: [] },
            include: [],
            files: ['src/i18n/catalogues/sv.ts'],
          }),
        );
        await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: dir });
        const { 'nav.reconciliation': _dropped, ...missing } = swedish;
        await writeFile(join(dir, 'src/i18n/catalogues/sv.ts'), sv(missing));
        const refused = await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: dir }).then(
          () => '',
          (e: { stdout: string }) => e.stdout,
        );
        expect(refused).toContain(`Property '"nav.reconciliation"' is missing`);
      });
    },
  );
});
