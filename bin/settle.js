#!/usr/bin/env node
// Entry point of the `settle` binary. It runs the compiled CLI; `npm ci` compiles it
// (the `prepare` script), `npm run build` does it again after a change.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('settle: ERR_NOT_BUILT: the compiled CLI is missing; run `npm run build` first.\n');
  process.exit(3);
}
await import(main);
