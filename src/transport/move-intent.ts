// A local move is link(2) then unlink(2) (link refuses an existing target, rename would replace
// it). A crash between the two leaves one file under two names, the inbox's and the target's,
// and pickup refuses a file with more than one link (it could be a file kept elsewhere passing
// for the inbox's own). So before the link the move writes an intent beside the source,
// `.NAME.settle-move`, naming the target and the source's device and inode; it is removed when
// the move ends. The next run finds an intent left behind and finishes that move only when the
// source and the target are still the one file the intent names: the source name is removed, the
// file is never read again, so nothing it holds is paid twice. An intent that does not fit (the
// source gone or replaced, the target elsewhere) is only removed; the file is then what it is.
import { lstat, readFile, readdir, unlink } from 'node:fs/promises';
import { posix } from 'node:path';

/** The intent's name suffix; a dot file, which pickup never takes. */
export const MOVE_INTENT_SUFFIX = '.settle-move';

/** A move a crash left half done, finished: `name` (in the folder looked at) now lives only at `to`. */
export interface FinishedMove {
  name: string;
  to: string;
}

interface Intent {
  to: string;
  dev: number;
  ino: number;
}

/**
 * Where the intent of a move from `from` (a store path) is kept: beside it. Undefined when the
 * name would not fit in 255 bytes with the atomic write's `.TAG.part`; such a move goes without
 * an intent, as before (inbox names are short enough: MAX_INBOX_NAME_BYTES).
 */
export function intentPath(from: string): string | undefined {
  const name = `.${posix.basename(from)}${MOVE_INTENT_SUFFIX}`;
  return Buffer.byteLength(name) + 16 > 255 ? undefined : posix.join(posix.dirname(from), name);
}

export function intentOf(to: string, source: { dev: number; ino: number }): string {
  return JSON.stringify({ to, dev: source.dev, ino: source.ino } satisfies Intent);
}

/** The store operations finishing needs: paths checked and made absolute by the store. */
export interface IntentFolder {
  /** The absolute path of a store path (a folder's with `folder`), checked to be inside the root. */
  abs(path: string, folder?: boolean): Promise<string>;
}

/**
 * Finishes the moves out of `dir` that a crash left between link and unlink (see above), and
 * removes every intent there. Returns the moves finished.
 */
export async function finishMoves(store: IntentFolder, dir: string): Promise<FinishedMove[]> {
  const folder = await store.abs(dir, true);
  const finished: FinishedMove[] = [];
  for (const entry of await readdir(folder)) {
    if (!entry.startsWith('.') || !entry.endsWith(MOVE_INTENT_SUFFIX)) continue;
    const name = entry.slice(1, -MOVE_INTENT_SUFFIX.length);
    const intentFile = posix.join(dir, entry);
    const intent = await readIntent(await store.abs(intentFile));
    if (intent && name !== '') {
      const [source, target] = await Promise.all([
        lstatOf(await store.abs(posix.join(dir, name))),
        store.abs(intent.to).then(lstatOf, () => undefined),
      ]);
      const ours =
        source?.isFile() &&
        target?.isFile() &&
        source.dev === intent.dev &&
        source.ino === intent.ino &&
        target.dev === intent.dev &&
        target.ino === intent.ino;
      if (ours) {
        // The source name first: a crash before the intent goes leaves an intent that no longer fits.
        await unlink(await store.abs(posix.join(dir, name)));
        finished.push({ name, to: intent.to });
      }
    }
    await unlink(await store.abs(intentFile)).catch(() => undefined);
  }
  return finished;
}

async function readIntent(path: string): Promise<Intent | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<Intent>;
    return typeof parsed.to === 'string' && typeof parsed.dev === 'number' && typeof parsed.ino === 'number'
      ? { to: parsed.to, dev: parsed.dev, ino: parsed.ino }
      : undefined;
  } catch {
    return undefined;
  }
}

async function lstatOf(path: string) {
  return lstat(path).catch(() => undefined);
}
