// iconv-lite, loaded when first needed: a UTF-8 CSV file (the common case) is decoded by
// csv-parse itself, so its intake never loads it (start-up counts, docs/performance.md).
import { createRequire } from 'node:module';
import type IconvLite from 'iconv-lite';

let loaded: typeof IconvLite | undefined;

export function iconvLite(): typeof IconvLite {
  loaded ??= createRequire(import.meta.url)('iconv-lite') as typeof IconvLite;
  return loaded;
}
