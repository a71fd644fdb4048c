// The lint tests' one way to lint a snippet: as text at a path of the product, with the project's
// own eslint.config.js and only the rules a test is about (no type information needed, so a
// snippet needs no file on disk).
import { ESLint } from 'eslint';

const linters = new Map<string, ESLint>();

/** The messages of `rules` for `code` linted as the file `filePath`, each as "rule: message". */
export async function lintMessages(code: string, filePath: string, rules: readonly string[]): Promise<string[]> {
  const key = rules.join(',');
  let eslint = linters.get(key);
  if (eslint === undefined) {
    eslint = new ESLint({
      cwd: new URL('../..', import.meta.url).pathname,
      overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: null } } },
      ruleFilter: ({ ruleId }) => rules.includes(ruleId),
    });
    linters.set(key, eslint);
  }
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}
