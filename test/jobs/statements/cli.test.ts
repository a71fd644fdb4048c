// `settle run fetch` and `settle run export` in-process: the commands registered by
// addStatementJobs on a `run` command, with a configuration file pointing at a sandbox bank.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addStatementJobs } from '../../../src/cli/commands/run-statements.js';
import { SEED, startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { makeTempDir } from '../../support/tmp.js';

describe('settle run fetch / export', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sandbox: RunningSandbox;
  let configFile: string;

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    // The CLI runs on the system clock, so the sandbox starts now.
    sandbox = await startSandbox({ port: 0, start: new Date() });
    await mkdir(join(dir, 'acme'), { recursive: true });
    await writeFile(join(dir, 'secret'), SEED.clientSecret);
    configFile = join(dir, 'settle.yaml');
    await writeFile(
      configFile,
      [
        `dataDir: ${dir}/data`,
        'log: { level: error, format: json }',
        `bank: { baseUrl: "${sandbox.urls.baseUrl}", authUrl: "${sandbox.urls.authUrl}", clientSecret: { file: "${dir}/secret" } }`,
        'companies:',
        '  - { id: acme, name: Sandbox AS, organisationNumber: "999999999", root: ' +
          JSON.stringify(join(dir, 'acme')) +
          ', statements: { formats: [camt.053.001.02, csv] } }',
      ].join('\n') + '\n',
    );
    process.exitCode = undefined;
  });

  afterEach(async () => {
    process.exitCode = undefined;
    vi.restoreAllMocks();
    await sandbox.close();
    await cleanup();
  });

  async function settle(...args: string[]): Promise<{ stdout: string; exitCode: typeof process.exitCode }> {
    const program = new Command('settle').option('-c, --config <file>').exitOverride();
    const run = new Command('run');
    addStatementJobs(run);
    program.addCommand(run);
    let stdout = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += chunk.toString();
      return true;
    });
    try {
      await program.parseAsync(['node', 'settle', '--config', configFile, 'run', ...args]);
    } finally {
      spy.mockRestore();
    }
    const exitCode = process.exitCode;
    process.exitCode = undefined;
    return { stdout, exitCode };
  }

  it('fetches, exports once, and re-exports a day only when asked', async () => {
    const fetched = await settle('fetch');
    expect(fetched.exitCode ?? 0).toBe(0);
    expect(fetched.stdout).toContain(`acme  ${SEED.operatingIban}: from `);
    expect(fetched.stdout).toContain('6 new');

    const exported = await settle('export');
    expect(exported.exitCode ?? 0).toBe(0);
    const files = (await readdir(join(dir, 'acme', 'statements'))).sort();
    // 31 days (days without entries too) × two formats.
    expect(files.filter((f) => f.startsWith(`acme-${SEED.operatingIban}-`))).toHaveLength(62);
    // The last day of the three enabled accounts (two at testbank, one at nordbank), two formats.
    expect(exported.stdout.match(/sequence 31\n/g)).toHaveLength(6);

    expect((await settle('export')).stdout).toBe('nothing to export\n');

    const day = files
      .find((f) => f.startsWith(`acme-${SEED.operatingIban}-`) && f.endsWith('.csv'))!
      .slice(`acme-${SEED.operatingIban}-`.length, -'.csv'.length);
    const again = await settle('export', '--account', SEED.operatingIban, '--from', day, '--to', day, '--json');
    const json = JSON.parse(again.stdout) as { files: { period: string; version: number; sequenceNumber: number }[] };
    expect(json.files.map((f) => [f.period, f.version, f.sequenceNumber])).toEqual([
      [day, 2, 1],
      [day, 2, 1],
    ]);
  });

  it('refuses an explicit export without all of --account, --from and --to, and a date that is not one', async () => {
    await expect(settle('export', '--account', SEED.operatingIban, '--from', '2026-01-02')).rejects.toMatchObject({
      code: 'ERR_STATEMENT_EXPORT_RANGE',
      exitCode: 2,
    });
    await expect(
      settle('export', '--account', SEED.operatingIban, '--from', '2026-02-30', '--to', '2026-03-01'),
    ).rejects.toMatchObject({ code: 'ERR_USAGE_DATE', exitCode: 2 });
  });
});
