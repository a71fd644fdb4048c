// `npm ci` must print no engine warning (EBADENGINE) on the Node version settle supports: every
// package in the lockfile accepts the lowest Node version package.json's `engines` allows.
import { readFileSync } from 'node:fs';
import { minVersion, satisfies } from 'semver';
import { describe, expect, it } from 'vitest';

const read = (file: string): unknown => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
}

describe('dependencies and the supported Node version', () => {
  const supported = (read('package.json') as { engines: { node: string } }).engines.node;
  const lowest = minVersion(supported)!.version;

  it('the README names the Node major version package.json supports', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`Node.js ${lowest.split('.')[0]}`);
  });

  it(`every locked package accepts Node ${lowest}`, () => {
    const packages = (read('package-lock.json') as { packages: Record<string, LockPackage> }).packages;
    const refusing = Object.entries(packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, pkg]) => {
        const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
        return range && !satisfies(lowest, range) ? [`${path}@${pkg.version} wants node ${range}`] : [];
      });
    expect(refusing).toEqual([]);
  });
});
