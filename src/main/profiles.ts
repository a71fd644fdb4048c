// CSV profiles are looked up in config/profiles of the working directory first (the operator's
// own), then in the profiles shipped with settle.
import { join } from 'node:path';
import { loadProfile, type CsvProfile } from '../formats/csv-profile/index.js';
import { loadReceivablesProfile, type ReceivablesProfile } from '../formats/receivables/index.js';
import { packageInfo } from './package-info.js';

export function profileDirs(cwd = process.cwd()): string[] {
  const shipped = join(packageInfo().root, 'config/profiles');
  const local = join(cwd, 'config/profiles');
  return local === shipped ? [shipped] : [local, shipped];
}

export function profileLoader(dirs = profileDirs()): (name: string) => Promise<CsvProfile> {
  return cached((name) => loadProfile(name, dirs));
}

export function receivablesProfileLoader(dirs = profileDirs()): (name: string) => Promise<ReceivablesProfile> {
  return cached((name) => loadReceivablesProfile(name, dirs));
}

/** Each profile is read once per process. */
function cached<P>(load: (name: string) => Promise<P>): (name: string) => Promise<P> {
  const cache = new Map<string, Promise<P>>();
  return (name) => {
    let p = cache.get(name);
    if (!p) cache.set(name, (p = load(name)));
    return p;
  };
}
