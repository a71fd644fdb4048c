// Lint rules: typescript-eslint's type-aware recommended set, plus the money rule of
// conventions.md (amounts never go through floating point) and the pages' rule: HTML comes from
// the template engine alone (src/html), raw HTML only from its audited helper src/html/raw.tsx
// (test/lint/html-escaping.test.ts proves each of these fires), and what people read on a page or
// in a report comes from the catalogue (test/lint/catalogue-text.test.ts); and no group is copied
// to add one item to it (test/lint/copying-groups.test.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NO_FLOATS = {
  selector: "CallExpression[callee.name='parseFloat']",
  message: 'Money never goes through floats: parse decimals to bigint (src/domain/money.ts).',
};
// A group copied to add one item to it (`groups.set(k, [...(groups.get(k) ?? []), v])`) costs n²/2
// copies for n items under one key: 50,000 of a bulk's lines took 81 s (src/domain/group.ts).
const NO_COPYING_GROUPS = {
  selector:
    "CallExpression[callee.property.name='set'] > ArrayExpression > SpreadElement > LogicalExpression[operator=/^(\\?\\?|\\|\\|)$/][left.type='CallExpression'][left.callee.property.name='get'][right.type='ArrayExpression']",
  message:
    'This copies the whole group to add one item (quadratic as the group grows): use addTo(groups, key, item) from src/domain/group.ts.',
};
const NO_HAND_ESCAPING = [
  {
    selector:
      'CallExpression[callee.name=/^(esc|escapeHtml)$/], CallExpression[callee.property.name=/^(esc|escapeHtml)$/]',
    message: 'No HTML escaping by hand: write the page in JSX, the template engine escapes (src/html).',
  },
  {
    selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
    message: 'No raw HTML in pages: only the audited helper src/html/raw.tsx lets HTML through unescaped.',
  },
];
const NO_HTML_CAST = {
  selector: "TSAsExpression[typeAnnotation.typeName.name='Html'], TSTypeAssertion[typeAnnotation.typeName.name='Html']",
  message: 'Html comes from render() (src/html/render.ts) alone: a cast would let an outside string pass for HTML.',
};
// What a person reads on a page or in a report comes from the catalogue (src/i18n, docs/i18n.md):
// text written into the JSX, or a title, label or placeholder written as a string, would bypass it.
// Codes and names in capitals (CSV, HTML, AC04) are not sentences and pass.
const NO_TEXT_OUTSIDE_CATALOGUE = [
  {
    selector: 'JSXText[value=/[a-zæøå]{2}/]',
    message: 'Text people read comes from the catalogue: t(key) or <Sentence k=…> (src/i18n/messages/).',
  },
  {
    selector: 'JSXAttribute[name.name=/^(title|alt|placeholder|aria-label)$/] > Literal[value=/[a-zæøå]{2}/]',
    message: 'A title, label or placeholder people read comes from the catalogue: t(key) (src/i18n/messages/).',
  },
];
const NO_RAW_IMPORT = {
  paths: [{ name: 'hono/html', message: "The engine's raw HTML is for the audited helper src/html/raw.tsx alone." }],
  patterns: [{ group: ['hono/utils/*', 'hono/jsx/dom*'], message: "The engine's internals are for src/html alone." }],
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.test-cli/**',
      'node_modules/**',
      'coverage/**',
      'bin/**',
      // Build steps in plain JavaScript that run on the compiled output (as bin/ does).
      'scripts/*.mjs',
      '*.config.*',
      '.dependency-cruiser.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      // Long positional lists hide which argument is which: pass an options object instead.
      'max-params': ['error', 5],
      'no-restricted-syntax': ['error', NO_FLOATS, NO_COPYING_GROUPS, ...NO_HAND_ESCAPING, NO_HTML_CAST],
      'no-restricted-imports': ['error', NO_RAW_IMPORT],
    },
  },
  {
    // The console's pages and the reports people read.
    files: ['src/server/console/**/*.tsx', 'src/formats/report/**/*.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        NO_FLOATS,
        NO_COPYING_GROUPS,
        ...NO_HAND_ESCAPING,
        NO_HTML_CAST,
        ...NO_TEXT_OUTSIDE_CATALOGUE,
      ],
    },
  },
  {
    // The one function that makes Html: it brands what the engine rendered.
    files: ['src/html/render.ts'],
    rules: { 'no-restricted-syntax': ['error', NO_FLOATS, NO_COPYING_GROUPS, ...NO_HAND_ESCAPING] },
  },
  {
    // The audited helper: the only importer of the engine's raw.
    files: ['src/html/raw.tsx'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      'no-restricted-syntax': 'off',
    },
  },
);
