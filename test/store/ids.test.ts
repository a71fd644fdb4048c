// Idempotency keys must never change between builds: a bulk committed by one version and
// retried by the next must carry the same Idempotency-Key.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { basketIdempotencyKey, bulkIdempotencyKey, companyBulkIdempotencyKey, newId } from '../../src/store/index.js';

describe('identifiers', () => {
  it('derives the same bulk idempotency key forever (pinned value)', () => {
    expect(bulkIdempotencyKey('a'.repeat(64), 0)).toBe('73d2cb6b-07ab-5869-b362-aef68771c56a');
    expect(bulkIdempotencyKey('A'.repeat(64), 0)).toBe('73d2cb6b-07ab-5869-b362-aef68771c56a');
  });

  it("derives a company's own key of a file's bulk, pinned too, unlike the file's and another company's", () => {
    expect(companyBulkIdempotencyKey('acme', 'a'.repeat(64), 0)).toBe('faae0842-3ead-54e6-8d15-6daeb0b5bf42');
    expect(companyBulkIdempotencyKey('acme', 'A'.repeat(64), 0)).toBe('faae0842-3ead-54e6-8d15-6daeb0b5bf42');
    const keys = new Set([
      bulkIdempotencyKey('a'.repeat(64), 0),
      companyBulkIdempotencyKey('acme', 'a'.repeat(64), 0),
      companyBulkIdempotencyKey('other', 'a'.repeat(64), 0),
    ]);
    expect(keys.size).toBe(3);
  });

  it('gives each bulk position of a file its own key', () => {
    const keys = new Set([0, 1, 2, 10].map((p) => bulkIdempotencyKey('b'.repeat(64), p)));
    expect(keys.size).toBe(4);
  });

  it('derives a basket key from its set of bulks, whatever their order', () => {
    expect(basketIdempotencyKey(['x', 'y'])).toBe(basketIdempotencyKey(['y', 'x']));
    expect(basketIdempotencyKey(['x'])).not.toBe(basketIdempotencyKey(['x', 'y']));
  });

  it('makes time-ordered row ids from the injected clock', () => {
    const clock = new ManualClock('2026-01-05T08:00:00Z');
    const first = newId(clock);
    clock.advance(1);
    const second = newId(clock);
    expect(first < second).toBe(true);
    expect(first.slice(0, 13)).toBe('019b8d2b-8c00'); // 2026-01-05T08:00:00Z in the UUIDv7 time field
  });

  it('keeps row ids in creation order within one millisecond and when the clock steps back', () => {
    const clock = new ManualClock('2027-03-01T00:00:00Z');
    const ids = Array.from({ length: 1000 }, () => newId(clock));
    clock.set('2027-02-01T00:00:00Z');
    ids.push(newId(clock), newId(clock));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every row id fresh random bits, past the pool of random bytes it draws from', () => {
    const clock = new ManualClock('2027-03-01T00:00:00Z');
    // 48 random bits end each id; 1,000 ids use 16,000 random bytes, the 4 KiB pool four times over.
    const tails = Array.from({ length: 1000 }, () => newId(clock).slice(-12));
    expect(new Set(tails).size).toBe(1000);
  });
});
