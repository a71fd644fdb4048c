import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../src/log/index.js';
import { RefusalLog } from '../../src/server/refusal-log.js';

describe('the log of refused webhook requests', () => {
  let lines: Record<string, unknown>[];
  let refusals: RefusalLog;
  beforeEach(() => {
    vi.useFakeTimers();
    lines = [];
    const stream = new Writable({
      write: (chunk: Buffer, _enc, done) => (lines.push(JSON.parse(chunk.toString('utf8'))), done()),
    });
    refusals = new RefusalLog(createLogger({ format: 'json', level: 'info', stream }), 60_000);
  });
  afterEach(() => vi.useRealTimers());

  const said = () => lines.map(({ source, count }) => ({ source, count }));

  it('logs the first refusal from an address at once and sums the next ones into one line per window', () => {
    for (let i = 0; i < 40; i++) refusals.note('203.0.113.5');
    refusals.note('198.51.100.7');
    expect(said()).toEqual([
      { source: '203.0.113.5', count: 1 },
      { source: '198.51.100.7', count: 1 },
    ]);
    vi.advanceTimersByTime(60_000);
    expect(said().slice(2)).toEqual([{ source: '203.0.113.5', count: 39 }]);
    refusals.note('203.0.113.5');
    expect(said().slice(3)).toEqual([{ source: '203.0.113.5', count: 1 }]);
  });

  it('keeps a bounded number of addresses and counts the rest together', () => {
    for (let i = 0; i < 1200; i++) refusals.note(`10.0.${Math.floor(i / 256)}.${i % 256}`);
    expect(lines).toHaveLength(1000);
    refusals.flush();
    expect(said().slice(1000)).toEqual([{ source: '(other addresses)', count: 200 }]);
  });

  it('writes only the message, the address and the count', () => {
    refusals.note('203.0.113.5');
    expect(Object.keys(lines[0]!).sort()).toEqual(['count', 'level', 'message', 'source', 'timestamp']);
  });
});
