// Which input files may be taken now. An ERP or a person may still be writing a file when
// settle looks, so a file is only taken when two looks, a short wait apart, see the same size
// and mtime, and it is old enough; names that writers use while writing (NAME.part, *.tmp,
// WinSCP's *.filepart, editor backups ending in ~, hidden dot files) are never taken.
import { type Clock, systemClock } from '../domain/clock.js';
import { isSettleError } from '../domain/errors.js';
import type { FileEntry, FileStore, OtherEntry } from './file-store.js';
import { checkFileName } from './safe-path.js';

const TEMPORARY_SUFFIXES = ['.part', '.tmp', '.filepart', '~'];

/** True for names that mark a file still being written (or not meant for pickup). */
export function isTemporaryName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('.') || TEMPORARY_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/** A simple case-insensitive glob (`*`, `?`) as a RegExp; for patterns from config such as "*.csv". */
export function globToRegExp(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

export interface StableFilesOptions {
  /** Only names matching this (a RegExp, or a glob like "*.csv"). */
  pattern?: RegExp | string;
  /** Wait between the two looks, in ms; default 2000. */
  settleMs?: number;
  /** A file must also be at least this old (now − mtime), in ms; default 0. Helps with servers that report whole seconds. */
  minAgeMs?: number;
  clock?: Clock;
  /** How to wait; tests pass a fake. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * A suffix such as ".done": NAME is taken only once NAME.done exists beside it (the writer
   * creates the marker after the file is complete). Marker files themselves are never taken.
   */
  marker?: string;
  /**
   * A look at the folder taken earlier in the run (the nightly chain looks at every inbox at
   * its start). A file that look already saw with the same size and time needs no second wait
   * once `settleMs` has passed since: the two looks are still that far apart. A file it did not
   * see, or saw otherwise, is looked at twice as without it.
   */
  earlier?: EarlierLook;
  /**
   * Files taken in one look at most (`intake.maxFilesPerRun`): the first by name, so a flooded
   * inbox is worked through in a stable order, the rest counted in `waiting` for the next run.
   */
  maxFiles?: number;
}

export interface EarlierLook {
  /** When the look ended, by `monotonicMs` (real elapsed time, not the wall clock). */
  at: number;
  files: readonly FileEntry[];
}

export interface SkippedFile {
  name: string;
  reason:
    | 'temporary-name'
    | 'unsafe-name'
    | 'pattern'
    | 'changing'
    | 'too-new'
    | 'time-ahead'
    | 'vanished'
    | 'marker'
    | 'no-marker';
  /** For `time-ahead`: the file's time, which is ahead of the clock by more than `AHEAD_TOLERANCE_MS`. */
  mtimeMs?: number;
}

/**
 * How far a file's time may be ahead of the clock and still be waited for as merely too new:
 * clocks of two machines differ by seconds. A time further ahead is a wrong server clock or a
 * server that lies; the file would wait, silently, until that time. It is skipped as
 * `time-ahead`, which pickup reports as a refusal a person should see.
 */
export const AHEAD_TOLERANCE_MS = 60_000;

export interface StableFiles {
  /** Files that may be taken, by name, with what the second look saw. */
  stable: FileEntry[];
  /** Everything else, with the reason; for the run's report. */
  skipped: SkippedFile[];
  /** Entries that are not regular files (links, folders, FIFOs, devices): never taken. */
  others: OtherEntry[];
  /** Marker files whose file is gone (taken by an earlier run): the caller removes them. */
  orphanMarkers: string[];
  /** Files that could be taken but were over `maxFiles`, the first of them by name: for the next run. */
  waiting?: { first: string; count: number };
}

/**
 * Milliseconds on a clock that only moves forward at the pace of real time, for how long ago an
 * earlier look was: the wall clock can step (NTP, a person setting it), and a step forward must
 * not pass for a file having been still that long. Only comparable within one process.
 */
export function monotonicMs(): number {
  return performance.now();
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Longest inbox name taken, in UTF-8 bytes. settle derives names from it (NAME.errors.json.<tag>.part,
 * NAME.<stamp>.pain.002.001.03.xml.<tag>.part, a time-stamped variant when the name is taken) that add
 * up to 64 bytes, and file systems allow 255: a longer name could be neither rejected with its
 * report nor answered with a status file, and failed the whole pickup run every night.
 */
export const MAX_INBOX_NAME_BYTES = 180;

function safeName(name: string): boolean {
  if (Buffer.byteLength(name, 'utf8') > MAX_INBOX_NAME_BYTES) return false;
  try {
    checkFileName(name);
    return true;
  } catch (error) {
    if (isSettleError(error, 'ERR_FILE_NAME_UNSAFE')) return false;
    throw error;
  }
}

/**
 * Up to this many candidates, the second look is a look at each of them rather than at the
 * whole folder: a folder flooded with entries nobody takes is then listed once, not twice.
 */
const LOOK_AT_EACH_UP_TO = 50;

async function lookAgain(
  store: FileStore,
  dir: string,
  candidates: Map<string, FileEntry>,
): Promise<Map<string, FileEntry>> {
  if (candidates.size > LOOK_AT_EACH_UP_TO) return new Map((await store.list(dir)).map((entry) => [entry.name, entry]));
  const again = new Map<string, FileEntry>();
  for (const name of candidates.keys()) {
    const entry = await store.stat(dir === '' || dir === '.' ? name : `${dir.replace(/\/$/, '')}/${name}`);
    // Gone, or no longer a regular file to lstat while the listing says it is one (a server
    // whose listing and lstat disagree): the listing decides, as it did for the first look, so
    // such a file is read and refused with its reason rather than skipped without one.
    if (!entry) return new Map((await store.list(dir)).map((listed) => [listed.name, listed]));
    again.set(name, { ...entry, name });
  }
  return again;
}

/** Lists `dir` twice, `settleMs` apart, and returns the files that did not change in between. */
export async function takeStableFiles(
  store: FileStore,
  dir: string,
  options: StableFilesOptions = {},
): Promise<StableFiles> {
  const settleMs = options.settleMs ?? 2000;
  const minAgeMs = options.minAgeMs ?? 0;
  const clock = options.clock ?? systemClock;
  const sleep = options.sleep ?? defaultSleep;
  const pattern = typeof options.pattern === 'string' ? globToRegExp(options.pattern) : options.pattern;
  const marker = options.marker?.toLowerCase();
  const skipped: SkippedFile[] = [];

  // Before the look: the time from the earlier look to this one is never overstated.
  const lookedAt = monotonicMs();
  const { files, others } = await store.scan(dir);
  const names = new Set(files.map((f) => f.name.toLowerCase()));
  const isMarker = (name: string) => marker !== undefined && name.toLowerCase().endsWith(marker);
  const orphanMarkers = files
    .filter((f) => isMarker(f.name) && !names.has(f.name.toLowerCase().slice(0, -marker!.length)))
    .map((f) => f.name);
  const candidates = new Map<string, FileEntry>();
  for (const entry of files) {
    if (isMarker(entry.name)) skipped.push({ name: entry.name, reason: 'marker' });
    else if (isTemporaryName(entry.name)) skipped.push({ name: entry.name, reason: 'temporary-name' });
    else if (!safeName(entry.name)) skipped.push({ name: entry.name, reason: 'unsafe-name' });
    else if (pattern && !pattern.test(entry.name)) skipped.push({ name: entry.name, reason: 'pattern' });
    else if (marker && !names.has(entry.name.toLowerCase() + marker))
      skipped.push({ name: entry.name, reason: 'no-marker' });
    else candidates.set(entry.name, entry);
  }
  // The listing is sorted by name, and so are the candidates: the first `maxFiles` are taken.
  const over = options.maxFiles !== undefined ? [...candidates.keys()].slice(options.maxFiles) : [];
  for (const name of over) candidates.delete(name);
  const waiting = over.length > 0 ? { waiting: { first: over[0]!, count: over.length } } : {};
  if (candidates.size === 0) return { stable: [], skipped, others, orphanMarkers, ...waiting };

  const { earlier } = options;
  const seenEarlier = (entry: FileEntry) =>
    earlier?.files.some((f) => f.name === entry.name && f.size === entry.size && f.mtimeMs === entry.mtimeMs) === true;
  // Waiting for each company's files in turn is most of a bureau night's time (stableFor a company).
  const wait =
    earlier !== undefined && [...candidates.values()].every(seenEarlier)
      ? Math.max(0, settleMs - (lookedAt - earlier.at))
      : undefined;
  let second: Map<string, FileEntry>;
  if (wait === 0) second = new Map(candidates);
  else {
    await sleep(wait ?? settleMs);
    second = await lookAgain(store, dir, candidates);
  }
  // Whole milliseconds on both sides: a file system keeps times finer than the clock's, so a file
  // written in the clock's current millisecond would otherwise seem to come from the future and
  // be left as too new even with no minimum age.
  const now = clock.now().getTime();
  const stable: FileEntry[] = [];
  for (const [name, first] of candidates) {
    const again = second.get(name);
    if (!again) skipped.push({ name, reason: 'vanished' });
    else if (again.size !== first.size || again.mtimeMs !== first.mtimeMs) skipped.push({ name, reason: 'changing' });
    else if (again.mtimeMs - now > AHEAD_TOLERANCE_MS)
      skipped.push({ name, reason: 'time-ahead', mtimeMs: again.mtimeMs });
    else if (now - Math.floor(again.mtimeMs) < minAgeMs) skipped.push({ name, reason: 'too-new' });
    // The second look may be a stat, which names no owner: the listing's owner is kept.
    else stable.push({ ...first, ...again });
  }
  return { stable, skipped, others, orphanMarkers, ...waiting };
}
