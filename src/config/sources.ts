// The files one configuration is read from: the main file and the files its `include:` list
// names (a bureau keeps one file per client company, e.g. settle.d/*.yaml, so onboarding one is
// adding a file). Included files hold only `companies` and `people`, whose lists are appended to
// the main file's in the order the files are listed (a wildcard's files in name order). Every
// problem found later in an included file's part is located back to that file and line
// (`locate`), so an operator with 200 files is told which one to open.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import type { ConfigProblem } from './problem.js';
import { parseLocatedYaml, type LocatedYaml } from './yaml.js';

/** The lists an included file may hold. */
export const INCLUDABLE = ['companies', 'people'] as const;
type Includable = (typeof INCLUDABLE)[number];

interface SourceFile {
  /** Relative to the main file's folder; undefined for the main file itself. */
  name: string | undefined;
  yaml: LocatedYaml;
}

interface Origin {
  file: SourceFile;
  /** The item's index in its own file's list. */
  index: number;
}

export interface ConfigSources {
  /** The merged configuration, before environment overrides and the schema. */
  raw: Record<string, unknown>;
  /** Every file read: the main one, then the included ones (absolute paths). */
  files: string[];
  /** The problem with the file and line that hold its key path. */
  locate(problem: ConfigProblem): ConfigProblem;
}

export function readSources(file: string | undefined, problems: ConfigProblem[]): ConfigSources {
  const main: SourceFile | undefined = file ? { name: undefined, yaml: readLocated(file, problems) } : undefined;
  const raw = main?.yaml.value ?? {};
  const origins: Record<Includable, Origin[]> = { companies: [], people: [] };
  const files = file ? [file] : [];
  for (const key of INCLUDABLE)
    if (main && Array.isArray(raw[key])) origins[key] = raw[key].map((_, index) => ({ file: main, index }));
  if (file && raw.include !== undefined) {
    const base = dirname(file);
    for (const path of expandIncludes(raw.include, base, problems)) {
      const name = relative(base, path);
      const found: ConfigProblem[] = [];
      const included: SourceFile = { name, yaml: readLocated(path, found) };
      files.push(path);
      problems.push(...found.map((p) => ({ ...p, file: name })));
      for (const [key, value] of Object.entries(included.yaml.value)) {
        if (!(INCLUDABLE as readonly string[]).includes(key) || !Array.isArray(value)) {
          problems.push({
            path: key,
            file: name,
            ...lineOf(included, [key]),
            message: `an included file holds only the lists ${INCLUDABLE.join(' and ')}; put "${key}" in the main file`,
          });
          continue;
        }
        const list = key as Includable;
        const items = value as unknown[];
        const before = Array.isArray(raw[list]) ? (raw[list] as unknown[]) : [];
        raw[list] = [...before, ...items];
        origins[list].push(...items.map((_, index) => ({ file: included, index })));
      }
    }
  }
  return {
    raw,
    files,
    locate(problem) {
      if (problem.file !== undefined || problem.path.startsWith('(')) return problem;
      const segments = problem.path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      const [head, index, ...rest] = segments;
      const origin =
        typeof index === 'number' && (INCLUDABLE as readonly unknown[]).includes(head)
          ? origins[head as Includable][index]
          : undefined;
      // The main file's problems keep their key path alone, as they always did: it finds them.
      if (!origin || origin.file.name === undefined) return problem;
      return { ...problem, file: origin.file.name, ...lineOf(origin.file, [head!, origin.index, ...rest]) };
    },
  };
}

function lineOf(file: SourceFile, path: readonly (string | number)[]): { line?: number } {
  const line = file.yaml.lineOf(path);
  return line === undefined ? {} : { line };
}

function readLocated(file: string, problems: ConfigProblem[]): LocatedYaml {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    problems.push({
      path: '(file)',
      message: `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    });
    return { value: {}, lineOf: () => undefined };
  }
  return parseLocatedYaml(text, problems);
}

/**
 * The files an `include:` list names, relative to the main file's folder. A wildcard (`*`, `?`)
 * may stand in the file name only (settle.d/*.yaml); it matches no hidden file (an editor's
 * `.acme.yaml.swp`), and matching nothing, or its folder missing, is fine (no client company yet).
 * A plain name must exist.
 */
function expandIncludes(include: unknown, base: string, problems: ConfigProblem[]): string[] {
  if (!Array.isArray(include) || include.some((p) => typeof p !== 'string' || p === '')) {
    problems.push({ path: 'include', message: 'a list of file names or patterns such as settle.d/*.yaml' });
    return [];
  }
  const files: string[] = [];
  (include as string[]).forEach((pattern, i) => {
    const path = resolve(base, pattern);
    const dir = dirname(path);
    const name = basename(path);
    if (/[*?]/.test(dir)) {
      problems.push({ path: `include.${i}`, message: `"${pattern}": a wildcard may stand in the file name only` });
      return;
    }
    if (!/[*?]/.test(name)) {
      files.push(path);
      return;
    }
    const matcher = new RegExp(
      `^${name
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      // No folder yet is no file yet: a new install with no client company.
      if (code !== 'ENOENT')
        problems.push({ path: `include.${i}`, message: `cannot read the folder of "${pattern}" (${code})` });
      return;
    }
    for (const n of names.sort()) if (!n.startsWith('.') && matcher.test(n)) files.push(resolve(dir, n));
  });
  return [...new Set(files)];
}
