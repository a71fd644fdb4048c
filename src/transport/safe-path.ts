// Every path a FileStore is given is relative to its root and checked here first. File names
// come from outside (ERP drops, server listings, config), so a name like `../../etc/passwd`,
// an absolute path, or one with control characters (which can forge log lines and confuse
// reports) is refused with ERR_FILE_NAME_UNSAFE instead of being "cleaned up" silently.
import { SettleError } from '../domain/errors.js';

// C0/C1 control characters and the Unicode bidirectional overrides that can make a name
// display differently from what it is (e.g. `invoice\u202Etxt.exe`).
const CONTROL = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;

function unsafe(what: string, value: string, why: string): SettleError {
  return new SettleError('ERR_FILE_NAME_UNSAFE', `Refused unsafe ${what} ${JSON.stringify(value)}: ${why}.`, {
    details: { value, reason: why },
  });
}

function segmentProblem(segment: string): string | undefined {
  if (segment === '') return 'it has an empty path segment';
  if (segment === '.' || segment === '..') return `it contains the segment '${segment}'`;
  if (segment.includes('\\')) return 'it contains a backslash';
  if (CONTROL.test(segment)) return 'it contains a control character';
  return undefined;
}

/** Checks a bare file name (no folder part) and returns it unchanged. */
export function checkFileName(name: string): string {
  if (typeof name !== 'string' || name === '') throw unsafe('file name', String(name), 'it is empty');
  if (name.includes('/')) throw unsafe('file name', name, 'it contains a path separator');
  const problem = segmentProblem(name);
  if (problem) throw unsafe('file name', name, problem);
  return name;
}

/**
 * Checks a path relative to a store root and returns its segments ([] for the root itself:
 * '' or '.'). A trailing '/' is tolerated (folder names from config); everything else that is
 * not a plain relative path is refused.
 */
export function checkRelativePath(path: string): string[] {
  if (typeof path !== 'string') throw unsafe('path', String(path), 'it is not a string');
  if (path === '' || path === '.' || path === './') return [];
  if (path.startsWith('/')) throw unsafe('path', path, 'it is absolute (paths are relative to the store root)');
  const trimmed = path.endsWith('/') ? path.slice(0, -1) : path;
  const segments = trimmed.split('/');
  for (const segment of segments) {
    const problem = segmentProblem(segment);
    if (problem) throw unsafe('path', path, problem);
  }
  return segments;
}

/** The normalised relative path ('' for the root), after checking it. */
export function normalizeRelativePath(path: string): string {
  return checkRelativePath(path).join('/');
}

/** Joins a folder and a bare file name, checking both. */
export function joinPath(dir: string, name: string): string {
  const base = normalizeRelativePath(dir);
  checkFileName(name);
  return base === '' ? name : `${base}/${name}`;
}

/** Splits a file path into its folder ('' for the root) and name; the path must name a file. */
export function splitPath(path: string): { dir: string; name: string } {
  const segments = checkRelativePath(path);
  const name = segments.pop();
  if (name === undefined) throw unsafe('file path', path, 'it names the store root, not a file');
  return { dir: segments.join('/'), name };
}
