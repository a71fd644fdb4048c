// Loads a CSV profile by name from the profile folders. A valid payment profile is read without
// the schema library (plain-profile.ts); the schema, loaded only then, reads any other and
// reports every problem, located (parse-profile.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SettleError } from '../../domain/errors.js';
import { plainProfile } from './plain-profile.js';
import { expectProfileKind } from './profile-kind.js';
import type { CsvProfile } from './profile.js';

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/** Loads `<dir>/<name>.yaml` from the first of `dirs` that has it. */
export async function loadProfile(name: string, dirs: readonly string[]): Promise<CsvProfile> {
  return loadProfileWith(name, dirs, async (text, file) => {
    expectProfileKind(text, file, 'payments');
    return (await plainProfile(text, file)) ?? (await import('./parse-profile.js')).parseProfile(text, file);
  });
}

/** Loads a profile of any kind by name from the first of `dirs` that has it. */
export async function loadProfileWith<P extends { name: string }>(
  name: string,
  dirs: readonly string[],
  parse: (text: string, file: string) => P | Promise<P>,
): Promise<P> {
  if (!NAME.test(name) || name.includes('..')) {
    throw new SettleError('ERR_PROFILE_NOT_FOUND', `"${name}" is not a profile name (letters, digits, . _ -)`);
  }
  for (const dir of dirs) {
    const file = join(dir, `${name}.yaml`);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw new SettleError(
        'ERR_PROFILE_NOT_FOUND',
        `CSV profile ${file} cannot be read: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const profile = await parse(text, file);
    return profile.name === name ? profile : Object.freeze({ ...profile, name });
  }
  throw new SettleError('ERR_PROFILE_NOT_FOUND', `no CSV profile "${name}" in ${dirs.join(', ')}`);
}
