import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sandboxCommand } from '../../src/cli/commands/sandbox.js';
import { isSettleError } from '../../src/domain/errors.js';
import { parseDuration } from '../../src/sandbox/index.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import { startOfBankDay } from '../../src/sandbox/time.js';

describe('settle sandbox command', () => {
  it('starts on the given port, prints the three URLs and the seeded credentials, and serves tokens until stopped', async () => {
    let printed = '';
    let tokenStatus = 0;
    const cmd = sandboxCommand({
      out: (t) => (printed += t),
      waitForStop: async (running) => {
        const r = await fetch(running.urls.tokenUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret',
        });
        tokenStatus = r.status;
      },
    });
    await cmd.parseAsync(['--port', '0', '--latency', '0', '--start', '2026-03-02T08:00:00Z'], { from: 'user' });
    expect(tokenStatus).toBe(200);
    expect(printed).toMatch(/base_url \(banking API\)\s+http:\/\/127\.0\.0\.1:\d+\/api/);
    expect(printed).toMatch(/auth_url \(identity\)\s+http:\/\/127\.0\.0\.1:\d+\/id/);
    expect(printed).toMatch(/control API\s+http:\/\/127\.0\.0\.1:\d+\/__sandbox/);
    expect(printed).toContain('2026-03-02T08:00:00.000Z');
  });

  it('reports a port in use as ERR_SANDBOX_LISTEN_FAILED', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const cmd = sandboxCommand({ out: () => undefined, waitForStop: () => Promise.resolve() });
      const error = await cmd.parseAsync(['--port', String(port)], { from: 'user' }).catch((e: unknown) => e);
      expect(isSettleError(error, 'ERR_SANDBOX_LISTEN_FAILED')).toBe(true);
    } finally {
      blocker.close();
    }
  });

  it('refuses a port that is not a number', async () => {
    const cmd = sandboxCommand({ out: () => undefined })
      .exitOverride()
      .configureOutput({ writeErr: () => undefined });
    await expect(cmd.parseAsync(['--port', 'eighty'], { from: 'user' })).rejects.toThrow(
      /--port must be a whole number/,
    );
  });
});

describe('sandbox time rules', () => {
  it('parses ISO 8601 durations to milliseconds and refuses other text', () => {
    expect(parseDuration('PT2H')).toBe(7_200_000);
    expect(parseDuration('P1DT30M')).toBe(88_200_000);
    expect(parseDuration('PT0.5S')).toBe(500);
    expect(parseDuration('P1W')).toBe(604_800_000);
    expect(parseDuration('P')).toBeUndefined();
    expect(parseDuration('PT')).toBeUndefined();
    expect(parseDuration('2 hours')).toBeUndefined();
  });

  it('starts a bank day at midnight in Oslo, in winter and in summer time', () => {
    expect(new Date(startOfBankDay(toLocalDate('2026-01-06'))).toISOString()).toBe('2026-01-05T23:00:00.000Z');
    expect(new Date(startOfBankDay(toLocalDate('2026-07-01'))).toISOString()).toBe('2026-06-30T22:00:00.000Z');
  });
});
