// A line below the logger's level costs nothing: winston would run it through every format
// (redaction, timestamp, JSON) before its transport dropped it.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, runLogger } from '../../src/log/index.js';

describe('log levels', () => {
  it('a line below the level is not formatted, in a child logger too; raising the level later shows it', async () => {
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (d: Buffer) => (text += d.toString()));
    const logger = createLogger({ stream, format: 'json', level: 'warn' });
    const child = runLogger(logger, 'export', 'run-1');
    let read = 0;
    // Redaction reads every field of a line it formats.
    const meta = {
      get field() {
        read++;
        return 'value';
      },
    };
    child.info('below the level', meta);
    child.debug('below the level', meta);
    expect(read).toBe(0);
    child.warn('at the level', meta);
    expect(read).toBeGreaterThan(0);
    logger.level = 'info';
    child.info('now shown', { n: 1 });
    await new Promise((r) => setImmediate(r));
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { message: string; job: string });
    expect(lines.map((l) => [l.message, l.job])).toEqual([
      ['at the level', 'export'],
      ['now shown', 'export'],
    ]);
  });
});
