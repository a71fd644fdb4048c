import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

describe('the settle command line', () => {
  it('prints its version and exits 0', async () => {
    const result = await runSettle(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('prints help listing its commands', async () => {
    const result = await runSettle(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: settle');
    expect(result.stdout).toContain('config');
  });

  it('answers an unknown command with one sentence, a stable code and exit 2', async () => {
    const result = await runSettle(['frobnicate']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^settle: ERR_USAGE: unknown command 'frobnicate'/);
  });

  it('answers a usage error in any subcommand the same way', async () => {
    for (const args of [['run', 'pickup', '--bogus'], ['validate'], ['db', 'migrate', 'extra']]) {
      const result = await runSettle(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^settle: ERR_USAGE: /);
    }
  });

  it('exits 2 for an invalid configuration and 0 for a valid one', async () => {
    await withTempDir(async (dir) => {
      const ok = await runSettle(['config', 'check'], { cwd: dir });
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('configuration OK (embedded defaults; environment overrides: SETTLE_LOG_FORMAT)');
      const bad = await runSettle(['config', 'check'], { cwd: dir, env: { SETTLE_TIME_ZONE: 'Nowhere/Land' } });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^settle: ERR_CONFIG_INVALID: .*timeZone/s);
    });
  });

  it('config show prints durations as written, not milliseconds', async () => {
    await withTempDir(async (dir) => {
      await writeFile(
        join(dir, 'settle.yaml'),
        'companies:\n  - { id: acme, name: ACME, organisationNumber: "1", root: acme, statements: { overlap: 3d }, intake: { stableFor: 1h30m } }\n',
      );
      const shown = await runSettle(['--config', 'settle.yaml', 'config', 'show'], { cwd: dir });
      expect(shown.code, shown.stderr).toBe(0);
      const config = JSON.parse(shown.stdout) as {
        bank: { timeout: unknown };
        companies: { statements: { overlap: unknown }; intake: { stableFor: unknown } }[];
      };
      expect(config.companies[0]!.statements.overlap).toBe('3d');
      expect(config.companies[0]!.intake.stableFor).toBe('1h30m');
      expect(config.bank.timeout).toBe('30s');
    });
  });
});
