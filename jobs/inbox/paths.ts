// Where pickup puts things. Archive: archive/YYYY-MM-DD/NAME (the day the file was received, in
// the configured time zone). Error: error/NAME with NAME.errors.txt and NAME.errors.json beside
// it. A name already taken by a different file gets a time-stamped variant, so nothing is
// overwritten and nothing is lost.
import { posix } from 'node:path';
import type { FileStore } from '../../src/transport/index.js';

export function archivePath(archiveDir: string, receivedDay: string, name: string): string {
  return posix.join(archiveDir, receivedDay, name);
}

/** `name` when free in `dir`, else `stem.YYYYMMDDTHHMMSS[-n].ext`. */
export async function freeName(store: FileStore, dir: string, name: string, at: Date): Promise<string> {
  if (!(await store.exists(posix.join(dir, name)))) return name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  const stamp = at.toISOString().replace(/[-:]/g, '').slice(0, 15);
  for (let n = 0; ; n++) {
    const candidate = `${stem}.${stamp}${n ? `-${n}` : ''}${ext}`;
    if (!(await store.exists(posix.join(dir, candidate)))) return candidate;
  }
}
