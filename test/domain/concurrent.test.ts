// mapConcurrent: a pool of workers over a list (submit's sends and status's polls go through it).
import { describe, expect, it } from 'vitest';
import { mapConcurrent } from '../../src/domain/concurrent.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapConcurrent', () => {
  it('keeps at most `limit` items in progress and a worker takes the next item as soon as its last one ends', async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    // Item 0 is slow: with batches of 2, item 2 would wait for it; with a pool, items 2–5 pass it.
    const results = await mapConcurrent([50, 5, 5, 5, 5, 5], 2, async (ms, i) => {
      started.push(i);
      peak = Math.max(peak, ++running);
      await tick(ms);
      running--;
      return i * 10;
    });
    expect(results).toEqual([0, 10, 20, 30, 40, 50]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('after a failure starts nothing new, lets the items in progress finish, then throws the first failure', async () => {
    const finished: number[] = [];
    const run = mapConcurrent([0, 1, 2, 3, 4], 2, async (i) => {
      if (i === 0) throw new Error('item 0 failed');
      await tick(20);
      finished.push(i);
      return i;
    });
    await expect(run).rejects.toThrow('item 0 failed');
    // Item 1 was in progress when item 0 failed: it finished before the call returned; 2–4 never started.
    expect(finished).toEqual([1]);
  });

  it('handles an empty list and a limit above the length', async () => {
    expect(await mapConcurrent([], 4, () => Promise.resolve(1))).toEqual([]);
    expect(await mapConcurrent([1, 2], 10, (n) => Promise.resolve(n + 1))).toEqual([2, 3]);
  });
});
