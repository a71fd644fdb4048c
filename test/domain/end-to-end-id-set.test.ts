// The compact end-to-end id set behind E2E_DUPLICATE_IN_FILE: the same answers as a Map of
// strings (checked by property against one), with ids held as UTF-8 bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EndToEndIdSet, type ByteHash } from '../../src/domain/validation/end-to-end-id-set.js';

/** Every id lands on the same slot and has the same hash: only the bytes tell them apart. */
const sameHash: ByteHash = () => 7;

describe('EndToEndIdSet', () => {
  it('adds an id once and returns the first line for every later use', () => {
    const set = new EndToEndIdSet();
    expect(set.addIfAbsent('E2E-1', 2)).toBeUndefined();
    expect(set.addIfAbsent('E2E-2', 3)).toBeUndefined();
    expect(set.addIfAbsent('E2E-1', 9)).toBe(2);
    expect(set.addIfAbsent('E2E-1', 11)).toBe(2);
    expect(set.get('E2E-2')).toBe(3);
    expect(set.get('E2E-3')).toBeUndefined();
    expect(set.has('E2E-1')).toBe(true);
    expect(set.size).toBe(2);
  });

  it('tells ids apart by their bytes when every hash collides', () => {
    const set = new EndToEndIdSet({ hash: sameHash, initialSlots: 4 });
    const ids = ['A', 'B', 'AB', 'BA', 'ABC', '', 'A\u0000', 'a'];
    ids.forEach((id, i) => expect(set.addIfAbsent(id, i + 1)).toBeUndefined());
    ids.forEach((id, i) => expect(set.addIfAbsent(id, 100)).toBe(i + 1));
    expect(set.size).toBe(ids.length);
    expect(set.get('ABCD')).toBeUndefined();
  });

  it('tells ids apart whose hashes share the tag byte but not the slot, also after the table grows', () => {
    // The low byte (the tag a probe compares) is the same for every id; the slot comes from the
    // high bits, here the id's first byte: the table must compare bytes on every tag match, and
    // place every entry again from its bytes when it grows.
    const sameTag: ByteHash = (bytes, start) => ((bytes[start] ?? 0) * 0x0101_0100 + 0x42) >>> 0;
    const set = new EndToEndIdSet({ hash: sameTag, initialSlots: 2 });
    const ids = Array.from({ length: 300 }, (_, i) => `${String.fromCharCode(65 + (i % 26))}-${i}`);
    ids.forEach((id, i) => expect(set.addIfAbsent(id, i)).toBeUndefined());
    ids.forEach((id, i) => expect(set.addIfAbsent(id, 1000)).toBe(i));
    expect(set.get('A-1')).toBeUndefined();
    expect(set.size).toBe(300);
  });

  it('keeps every id through many growths of the table and the pages (1 MiB each)', () => {
    const set = new EndToEndIdSet({ initialSlots: 2, initialBytes: 64 });
    const n = 120_000; // about 1.6 MB of entries: the first page grows to 1 MiB, then a second one is added
    for (let i = 0; i < n; i++) expect(set.addIfAbsent(`E2E-${i}`, i)).toBeUndefined();
    expect(set.size).toBe(n);
    for (let i = 0; i < n; i += 997) expect(set.get(`E2E-${i}`)).toBe(i);
    expect(set.get(`E2E-${n}`)).toBeUndefined();
    expect(set.byteLength).toBeGreaterThan(2 * 1024 * 1024);
  });

  it('grows its table at once to the size the expected ids would grow it to, and not again while they come', () => {
    const n = 50_000;
    // One page of 1 MiB holds all the entries, so byteLength changes only with the table.
    const options = { initialBytes: 1024 * 1024 };
    const grown = new EndToEndIdSet(options);
    for (let i = 0; i < n; i++) grown.addIfAbsent(`E2E-${i}`, i);
    const expected = new EndToEndIdSet(options);
    expected.addIfAbsent('E2E-0', 0);
    const before = expected.byteLength;
    expected.expect(n);
    expect(expected.byteLength).toBeGreaterThan(before);
    expect(expected.byteLength).toBe(grown.byteLength);
    for (let i = 1; i < n; i++) expect(expected.addIfAbsent(`E2E-${i}`, i)).toBeUndefined();
    expect(expected.byteLength).toBe(grown.byteLength);
    expect(expected.addIfAbsent('E2E-0', 99)).toBe(0);
    expect(expected.get(`E2E-${n - 1}`)).toBe(n - 1);
    // Fewer than the table holds: nothing changes; more than expected: it grows as usual.
    expected.expect(10);
    expect(expected.byteLength).toBe(grown.byteLength);
    for (let i = n; i < 2 * n; i++) expected.addIfAbsent(`E2E-${i}`, i);
    expect(expected.size).toBe(2 * n);
    expect(expected.get('E2E-77777')).toBe(77_777);
  });

  it('holds ids longer than 127 bytes (a two-byte length) and longer than the first buffer', () => {
    const set = new EndToEndIdSet({ initialBytes: 64, hash: sameHash });
    const long = 'x'.repeat(200);
    const longer = 'x'.repeat(70_000);
    expect(set.addIfAbsent(long, 1)).toBeUndefined();
    expect(set.addIfAbsent(longer, 2)).toBeUndefined();
    // The same first 128 bytes as both, but another length.
    expect(set.addIfAbsent('x'.repeat(128), 3)).toBeUndefined();
    expect(set.get(long)).toBe(1);
    expect(set.get(longer)).toBe(2);
    expect(set.get('x'.repeat(128))).toBe(3);
    expect(set.get('x'.repeat(129))).toBeUndefined();
    expect(set.size).toBe(3);
    expect(() => set.addIfAbsent('y'.repeat(1024 * 1024), 4)).toThrow(
      /id of 1048576 bytes is longer than the id set holds/,
    );
  });

  it('holds ids of any Unicode text: two-, three- and four-byte characters', () => {
    const set = new EndToEndIdSet({ hash: sameHash });
    const ids = ['BETALING-ÆØÅ-1', 'Zahlung-ß', '支付-42', '💶-payment', 'ü', 'u\u0308'];
    ids.forEach((id, i) => expect(set.addIfAbsent(id, i)).toBeUndefined());
    ids.forEach((id, i) => expect(set.get(id)).toBe(i));
    expect(set.get('BETALING-ÆØÅ-2')).toBeUndefined();
    expect(set.get('💷-payment')).toBeUndefined();
  });

  it('compares by UTF-8 bytes: composed and decomposed are two ids, as in a Map', () => {
    const set = new EndToEndIdSet();
    expect(set.addIfAbsent('Café-1', 1)).toBeUndefined();
    expect(set.addIfAbsent('Cafe\u0301-1', 2)).toBeUndefined();
    expect(set.get('Caf\u00e9-1')).toBe(1);
    // A lone surrogate is encoded as U+FFFD (as TextEncoder does), so it equals that character.
    expect(set.addIfAbsent('id-\ud800', 3)).toBeUndefined();
    expect(set.get('id-\ufffd')).toBe(3);
  });

  it('keeps line numbers up to 4294967295 and refuses others', () => {
    const set = new EndToEndIdSet();
    expect(set.addIfAbsent('max', 0xffff_ffff)).toBeUndefined();
    expect(set.get('max')).toBe(0xffff_ffff);
    expect(() => set.addIfAbsent('neg', -1)).toThrow(/line -1 is not a whole number/);
    expect(() => set.addIfAbsent('frac', 1.5)).toThrow(RangeError);
    expect(set.has('neg')).toBe(false);
  });

  it('costs under half of a Map of strings per id (ids like the bench files)', () => {
    const set = new EndToEndIdSet();
    const n = 200_000;
    for (let i = 0; i < n; i++) set.addIfAbsent(`ACME-SUP-${String(i).padStart(7, '0')}`, i);
    // 16-byte ids: 1 + 16 + 4 bytes of entry, a table of 8-byte slots at most 70 % full, and
    // the last page's room to grow; a Map of flat strings costs 61–70 bytes an id (docs/validation.md#memory).
    expect(set.byteLength / n).toBeLessThan(50);
  });

  it('answers as a Map does for any sequence of ids, also when hashes collide', () => {
    const weakHash: ByteHash = (bytes, start, end) => (end - start) % 5;
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 12 }), { maxLength: 300 }),
        fc.boolean(),
        (ids, weak) => {
          const set = new EndToEndIdSet({ initialSlots: 2, initialBytes: 64, ...(weak ? { hash: weakHash } : {}) });
          const map = new Map<string, number>();
          ids.forEach((id, line) => {
            const key = Buffer.from(id, 'utf8').toString('utf8'); // lone surrogates as U+FFFD
            expect(set.addIfAbsent(id, line)).toBe(map.get(key));
            if (!map.has(key)) map.set(key, line);
          });
          expect(set.size).toBe(map.size);
          for (const [id, line] of map) expect(set.get(id)).toBe(line);
        },
      ),
      { numRuns: 300 },
    );
  });
});
