// `settle sandbox` started by hand: its clock follows the real time (a first dry run asks for
// today's statements); `--start` fixes it for a repeatable session.
import { describe, expect, it } from 'vitest';
import { startSettle } from '../support/cli.js';

const clockOf = async (controlUrl: string): Promise<number> =>
  Date.parse(((await (await fetch(`${controlUrl}/clock`)).json()) as { now: string }).now);

describe('settle sandbox clock', () => {
  it('follows the real time by default, and its seeded history ends today', async () => {
    const sandbox = startSettle(['sandbox', '--port', '0']);
    try {
      const [, controlUrl] = await sandbox.waitFor(/control API\s+(http:\/\/\S+)/);
      expect(sandbox.stdout()).toContain('following the real time');
      const first = await clockOf(controlUrl!);
      expect(Math.abs(first - Date.now())).toBeLessThan(60_000);
      await new Promise((r) => setTimeout(r, 2200));
      const later = await clockOf(controlUrl!);
      expect(later - first).toBeGreaterThanOrEqual(1000);
      // The reset seed also starts at the real time, not at the fixed seed date.
      await fetch(`${controlUrl}/reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(Math.abs((await clockOf(controlUrl!)) - Date.now())).toBeLessThan(60_000);
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  }, 30_000);

  it('stays at the instant --start names until told to move', async () => {
    const sandbox = startSettle(['sandbox', '--port', '0', '--start', '2026-01-05T08:00:00Z']);
    try {
      const [, controlUrl] = await sandbox.waitFor(/control API\s+(http:\/\/\S+)/);
      expect(sandbox.stdout()).toContain('fixed: moves only by POST /__sandbox/clock');
      await new Promise((r) => setTimeout(r, 1200));
      expect(new Date(await clockOf(controlUrl!)).toISOString()).toBe('2026-01-05T08:00:00.000Z');
    } finally {
      expect(await sandbox.stop()).toBe(0);
    }
  }, 30_000);
});
