// Parses a CSV profile's YAML against its schema. Every problem is reported at once, each with
// the file, the line and the key path ("nordic.yaml:7 columns.amount: …"), as one
// ERR_PROFILE_INVALID.
import { basename } from 'node:path';
import { LineCounter, parseDocument, isNode } from 'yaml';
import type { z } from 'zod';
import { SettleError } from '../../domain/errors.js';
import { csvProfileSchema, type CsvProfile } from './profile.js';

export interface ProfileProblem {
  file: string;
  line?: number;
  path: string;
  message: string;
}

/** Parses profile YAML text; `file` is only used in messages and as the default name. */
export function parseProfile(text: string, file: string): CsvProfile {
  return parseProfileWith(csvProfileSchema, text, file);
}

/** Parses YAML text against a profile schema (payments, receivables), every problem located. */
export function parseProfileWith<S extends z.ZodType<{ name?: string | undefined }>>(
  schema: S,
  text: string,
  file: string,
): Readonly<z.output<S> & { name: string }> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const problems: ProfileProblem[] = doc.errors.map((e) => ({
    file,
    line: lineCounter.linePos(e.pos[0]).line,
    path: '',
    message: e.message.split('\n')[0] ?? e.message,
  }));
  if (problems.length === 0) {
    const parsed = schema.safeParse(doc.toJS() ?? {});
    if (parsed.success) {
      return Object.freeze({ ...parsed.data, name: parsed.data.name ?? basename(file).replace(/\.ya?ml$/, '') });
    }
    const lineOf = (path: string[]): number | undefined => {
      // A missing key has no node of its own: point at the nearest parent that exists.
      for (let n = path.length; n >= 0; n--) {
        const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
        if (isNode(node) && node.range) return lineCounter.linePos(node.range[0]).line;
      }
      return undefined;
    };
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String);
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys)
          problems.push({ file, line: lineOf([...path, key]), path: [...path, key].join('.'), message: 'unknown key' });
        continue;
      }
      problems.push({ file, line: lineOf(path), path: path.join('.') || '(top level)', message: issue.message });
    }
  }
  throw new SettleError(
    'ERR_PROFILE_INVALID',
    `CSV profile ${file} is invalid: ${problems.map(formatProblem).join('; ')}`,
    {
      details: { problems },
    },
  );
}

function formatProblem(p: ProfileProblem): string {
  return `${p.line === undefined ? p.file : `${p.file}:${p.line}`}${p.path ? ` ${p.path}` : ''}: ${p.message}`;
}
