// src/cli/progress.ts (kept with the server tests: it serves the same long-running commands).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.js';

function stream(isTTY: boolean) {
  const out: string[] = [];
  const s = Object.assign(new Writable({ write: (c: Buffer, _e, cb) => (out.push(c.toString()), cb()) }), {
    isTTY,
    columns: 40,
  });
  return { s, out };
}

describe('progress display', () => {
  it('writes nothing when stderr is not a terminal, so logs stay plain', () => {
    const { s, out } = stream(false);
    const p = createProgress('pickup', 10, { stream: s });
    p.tick();
    p.set(5);
    p.done('finished');
    expect(out).toEqual([]);
  });

  it('redraws one line on a terminal at most every interval, with count, percentage and time, and clears it at the end', () => {
    const { s, out } = stream(true);
    let now = 0;
    const p = createProgress('submit', 4, { stream: s, now: () => now, intervalMs: 100 });
    p.tick();
    p.tick();
    now = 2500;
    p.tick();
    p.tick();
    p.done('4 bulks sent');
    expect(out).toEqual([
      '\r\x1b[2Ksubmit: 1/4 (25%) 0s',
      '\r\x1b[2Ksubmit: 3/4 (75%) 3s',
      '\r\x1b[2Ksubmit: 4/4 (100%) 3s',
      '\r\x1b[2K4 bulks sent\n',
    ]);
  });

  it('shows a bare count when the total is unknown, cut to the terminal width', () => {
    const { s, out } = stream(true);
    const p = createProgress('fetching transactions for a very long account label', undefined, {
      stream: s,
      now: () => 0,
    });
    p.set(1234);
    expect(out[0]).toBe('\r\x1b[2K' + 'fetching transactions for a very long account label: 1234 0s'.slice(0, 39));
  });
});
