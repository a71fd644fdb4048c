// A report's JSON written piece by piece: the issues a file keeps (at most maxIssues) and then
// every held line, which can be hundreds of thousands. Built as one string, 233,000 held lines
// were 117 MB of JSON besides their objects (480 MB peak for the report alone); streamed, each
// held line's entry exists only while it is written. The bytes are JSON.stringify(value, null, 2)
// with the extra entries appended to the last key's array, and a newline.

/** How many characters are gathered before they go to the file as one chunk. */
const CHUNK_CHARS = 1 << 16;

/**
 * The bytes of `JSON.stringify({ ...value, [key]: [...value[key], ...more] }, null, 2) + '\n'`,
 * in chunks; `key` must be the object's last key and an array (as the issues of IntakeJson are).
 */
export function* jsonWithMore(value: object, key: string, more: Iterable<unknown>): Generator<Buffer> {
  const own = (value as Record<string, unknown>)[key];
  if (Object.keys(value).at(-1) !== key || !Array.isArray(own))
    throw new Error(`jsonWithMore: "${key}" must be the last key of the object and an array`);
  // `{ ..., "KEY": [] }` without its closing `[]\n}`: the array is written after it.
  const head = JSON.stringify({ ...value, [key]: [] }, null, 2);
  let chunk = head.slice(0, head.length - '[]\n}'.length);
  let first = true;
  const entry = function* (item: unknown): Generator<Buffer> {
    // Strings inside JSON never hold a raw newline, so every line of the entry is indented alike.
    chunk += `${first ? '[\n' : ',\n'}    ${(JSON.stringify(item, null, 2) ?? 'null').replace(/\n/g, '\n    ')}`;
    first = false;
    if (chunk.length >= CHUNK_CHARS) {
      yield Buffer.from(chunk);
      chunk = '';
    }
  };
  for (const item of own as unknown[]) yield* entry(item);
  for (const item of more) yield* entry(item);
  chunk += first ? '[]\n}\n' : '\n  ]\n}\n';
  yield Buffer.from(chunk);
}
