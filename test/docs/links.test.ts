// Every relative link in README.md and docs/ resolves: the file or folder it names exists, and an
// anchor it names is a heading of that page (GitHub's anchors). Docs move (the dated
// investigations went to docs/decisions/, the chaos run to docs/testing.md); a link left behind
// should fail here, not on a reader.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The page without its fenced code blocks and inline code, where brackets are not links. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Inline links `[text](target)` and `![alt](target)`, the target without an optional title. */
export function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor of a page: its headings' slugs, a repeated one with -1, -2, … as GitHub numbers them. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const m of text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

/** What is wrong with one link of `from`, or undefined when it resolves. */
function broken(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: — not ours to check
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? from : join(dirname(from), decodeURIComponent(path));
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor === undefined || anchor === '' || !file.endsWith('.md')) return undefined;
  return anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor))
    ? undefined
    : `${target}: no heading with that anchor`;
}

describe('links in the docs', () => {
  const pages = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

  it('finds links, and reads anchors the way GitHub makes them', () => {
    expect(linkTargets('See [a](docs/a.md#x), ![img](b.png "title") and `[not](c.md)`.')).toEqual([
      'docs/a.md#x',
      'b.png',
    ]);
    expect(slug('`payments-single`, `payments-floor`: submit and follow status')).toBe(
      'payments-single-payments-floor-submit-and-follow-status',
    );
    expect(slug('Deadlines (dead-man alert)')).toBe('deadlines-dead-man-alert');
  });

  it.each(pages.map((p) => [relative(root, p), p]))('every relative link of %s resolves', (_name, page) => {
    const problems = linkTargets(readFileSync(page, 'utf8'))
      .map((target) => broken(page, target))
      .filter((p): p is string => p !== undefined);
    expect(problems).toEqual([]);
  });
});
