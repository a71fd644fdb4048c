// The bureau row's latency bound: the larger of the requests' waiting spread over every
// instance's connections and the rate limit's spacing, with the inputs named in the row.
import { describe, expect, it } from 'vitest';
import { describeBound, latencyBound } from '../../bench/bureau-bound.js';

const inputs = { requests: 160, latencyMs: 50, instances: 2, concurrency: 4, ratePerSecond: 100 };

describe('the bureau latency bound', () => {
  it('is the rate limit spacing when that is longer than the spread waiting', () => {
    expect(latencyBound(inputs)).toEqual({ ms: 1600, latencyMs: 1000, rateMs: 1600, binds: 'rate limit' });
  });

  it('is the spread waiting with one instance and one connection', () => {
    expect(latencyBound({ ...inputs, instances: 1, concurrency: 1 })).toMatchObject({ ms: 8000, binds: 'latency' });
  });

  it('names every input, both terms and which binds', () => {
    expect(describeBound(inputs, 3)).toBe(
      'R 160 (3 answered 429), L 50 ms, N 2, C 4, Q 100/s: R×L÷(N×C) 1.0 s, R÷Q 1.6 s; the rate limit binds',
    );
  });
});
