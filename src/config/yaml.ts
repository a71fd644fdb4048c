// Reads the configuration file's YAML into a plain object. Everything the YAML library would
// otherwise throw or print as a process warning (an alias without its anchor, a list or mapping
// used as a key, an alias bomb, an unknown tag) becomes a problem located by line, so a bad file
// is answered like every other bad configuration: exit 2 with the line to fix.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import type { ConfigProblem } from './problem.js';

/** Aliases may repeat a block a few times; more is a resource-exhaustion attempt, not a configuration. */
const MAX_ALIAS_COUNT = 100;

/**
 * Syntax problems reported of one file, and characters of a line shown around its column: a
 * garbled file can hold thousands of errors on one long line, and a report of them all, each
 * with the line, outgrew what a string can hold (found by the fuzzer). The first ones locate it.
 */
const MAX_SYNTAX_PROBLEMS = 20;
const EXCERPT_AROUND = 60;

export function parseConfigYaml(text: string, problems: ConfigProblem[]): Record<string, unknown> {
  return parseLocatedYaml(text, problems).value;
}

/** A parsed file and where its keys are: the line of the deepest key of a path the file holds. */
export interface LocatedYaml {
  value: Record<string, unknown>;
  lineOf(path: readonly (string | number)[]): number | undefined;
}

export function parseLocatedYaml(text: string, problems: ConfigProblem[]): LocatedYaml {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter, logLevel: 'silent' });
  const before = problems.length;
  const found = [...doc.errors, ...doc.warnings];
  const lines = found.length > 0 ? text.split(/\r?\n/) : [];
  for (const e of found.slice(0, MAX_SYNTAX_PROBLEMS)) {
    const pos = e.linePos?.[0];
    problems.push({
      path: line(pos?.line),
      message: syntaxMessage(e.message, lines, pos),
    });
  }
  if (found.length > MAX_SYNTAX_PROBLEMS)
    problems.push({
      path: '(file)',
      message: `and ${found.length - MAX_SYNTAX_PROBLEMS} more syntax problem(s) after these; correct the first ones and check again`,
    });
  const at = (node: Node) => line(node.range ? lineCounter.linePos(node.range[0]).line : undefined);
  visit(doc, {
    Pair(_, pair) {
      if (pair.key !== null && !isScalar(pair.key))
        problems.push({
          path: at(pair.key as Node),
          message: 'a key must be a plain name, not a list, mapping or alias',
        });
    },
    Alias(_, alias) {
      if (!alias.resolve(doc))
        problems.push({
          path: at(alias),
          message: `the alias *${alias.source} has no anchor &${alias.source} before it`,
        });
    },
  });
  const located = (value: Record<string, unknown>): LocatedYaml => ({
    value,
    lineOf: (path) => lineOfPath(doc, lineCounter, path),
  });
  if (problems.length > before) return located({});
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    problems.push({ path: '(file)', message: error instanceof Error ? error.message : String(error) });
    return located({});
  }
  if (value === null || value === undefined) return located({});
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ path: '(root)', message: 'the configuration must be a mapping of keys' });
    return located({});
  }
  return located(value as Record<string, unknown>);
}

/** The line of the deepest key (or list item) of `path` that the document holds. */
function lineOfPath(doc: Document, counter: LineCounter, path: readonly (string | number)[]): number | undefined {
  const lineAt = (node: unknown) => {
    const range = (node as Node | null)?.range;
    return range ? counter.linePos(range[0]).line : undefined;
  };
  let node: unknown = doc.contents;
  let found = lineAt(node);
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      found = lineAt(pair.key) ?? found;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item: unknown = node.items[segment];
      if (item === undefined) break;
      found = lineAt(item) ?? found;
      node = item;
    } else break;
  }
  return found;
}

const line = (n: number | undefined) => `(line ${n ?? '?'})`;

/**
 * The parser's reason without its own position suffix, then the line as written with a caret
 * under the column: the operator sees what to fix without opening the file at that line.
 */
function syntaxMessage(
  message: string,
  lines: readonly string[],
  pos: { line: number; col: number } | undefined,
): string {
  const reason = (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '').replace(/:$/, '');
  const written = pos ? masked(lines[pos.line - 1]) : undefined;
  if (written === undefined) return reason;
  // A long line is shown around its column, clipped on either side.
  const from = Math.max(0, pos!.col - 1 - EXCERPT_AROUND);
  const to = Math.min(written.length, pos!.col - 1 + EXCERPT_AROUND);
  const shown = `${from > 0 ? '…' : ''}${written.slice(from, to)}${to < written.length ? '…' : ''}`;
  const caret = pos!.col - 1 - from + (from > 0 ? 1 : 0);
  const gutter = `${pos!.line} | `;
  return `${reason.slice(0, 300)} (column ${pos!.col}):\n      ${gutter}${shown}\n      ${' '.repeat(gutter.length + caret)}^`;
}

/** A line that sets a secret-looking key keeps its key only: a value typed there may be a real secret. */
function masked(written: string | undefined): string | undefined {
  const secretKey = /^(\s*-?\s*[\w-]*(?:secret|password|passphrase|key|authorization|hash|token)[\w-]*\s*:).+$/i.exec(
    written ?? '',
  );
  return secretKey ? `${secretKey[1]} ••••` : written;
}
