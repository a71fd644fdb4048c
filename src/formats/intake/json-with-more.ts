// A report's JSON written piece by piece: the issues a file keeps (at most maxIssues) and then
// entries that can be hundreds of thousands (the issues past the kept ones, pickup's held lines).
// Built as one string, 233,000 held lines were 117 MB of JSON besides their objects (480 MB peak
// for the report alone); streamed, each entry exists only while it is written. The bytes are
// JSON.stringify(value, null, 2) with the extra entries appended to the last key's array, and a
// newline. The extra entries come as JSON text already (jsonListEntry's form), so the ones a work
// file keeps (spilled-issues.ts) are copied into the report as they are, not parsed and made again.

/** How many characters are gathered before they go to the file as one chunk. */
const CHUNK_CHARS = 1 << 16;

/**
 * One entry of the array under a top-level key, as JSON.stringify(…, null, 2) writes it there,
 * with the comma and line break that go before it (before the first, jsonWithMore writes `[`).
 */
export function jsonListEntry(item: unknown): string {
  // Strings inside JSON never hold a raw newline, so every line of the entry is indented alike.
  return `,\n    ${(JSON.stringify(item, null, 2) ?? 'null').replace(/\n/g, '\n    ')}`;
}

/**
 * The bytes of `JSON.stringify({ ...value, [key]: [...value[key], ...entries] }, null, 2) + '\n'`,
 * in chunks, where `more` is the text of the entries as jsonListEntry writes them, in pieces cut
 * anywhere (a piece may end inside an entry, or inside a UTF-8 character when it is bytes); `key`
 * must be the object's last key and an array (as the issues of IntakeJson are).
 */
export function* jsonWithMore(value: object, key: string, more: Iterable<string | Buffer>): Generator<Buffer> {
  const own = (value as Record<string, unknown>)[key];
  if (Object.keys(value).at(-1) !== key || !Array.isArray(own))
    throw new Error(`jsonWithMore: "${key}" must be the last key of the object and an array`);
  // `{ ..., "KEY": [] }` without its closing `[]\n}`: the array is written after it.
  const head = JSON.stringify({ ...value, [key]: [] }, null, 2);
  let chunk = head.slice(0, head.length - '[]\n}'.length);
  let first = true;
  const piece = function* (text: string | Buffer): Generator<Buffer> {
    if (text.length === 0) return;
    if (first) {
      // The first entry opens the array in place of its comma.
      if ((typeof text === 'string' ? text.charCodeAt(0) : text[0]) !== COMMA)
        throw new Error('jsonWithMore: the entries must be as jsonListEntry writes them');
      chunk += '[';
      text = typeof text === 'string' ? text.slice(1) : text.subarray(1);
      first = false;
    }
    if (typeof text === 'string') {
      chunk += text;
      if (chunk.length < CHUNK_CHARS) return;
    } else {
      // Bytes go out as they are, after what was gathered before them.
      if (chunk !== '') yield Buffer.from(chunk);
      chunk = '';
      yield text;
      return;
    }
    yield Buffer.from(chunk);
    chunk = '';
  };
  for (const item of own as unknown[]) yield* piece(jsonListEntry(item));
  for (const text of more) yield* piece(text);
  chunk += first ? '[]\n}\n' : '\n  ]\n}\n';
  yield Buffer.from(chunk);
}

const COMMA = ','.charCodeAt(0);
