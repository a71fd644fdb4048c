// Where settle is installed: the folder of its package.json, found by walking up from this file,
// so the same code works from src/ (tsx) and from dist/ (compiled).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface PackageInfo {
  root: string;
  version: string;
}

let cached: PackageInfo | undefined;

export function packageInfo(): PackageInfo {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'settle') return (cached = { root: dir, version: pkg.version ?? '0.0.0' });
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json of settle not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}
