// Runs Debian's Tryton 6.0 (the system python3 with trytond and proteus) through
// test/erp/tryton/tryton-loop.py, and settle's CLI at a given instant under libfaketime, so that
// settle's calendar is the sandbox's (README.md beside this file).
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { ROOT } from '../../support/cli-paths.js';
import { runSettle, type CliResult } from '../../support/cli.js';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'tryton-loop.py');
/** Debian's interpreter, whose dist-packages hold trytond (not a python3 of pyenv or a venv). */
const PYTHON = '/usr/bin/python3';
export const TRYTON_PACKAGES = 'tryton-server tryton-proteus tryton-modules-account-payment-sepa faketime';

function missing(): string | undefined {
  const tryton = spawnSync(PYTHON, ['-c', 'import proteus, trytond.modules.account_payment_sepa'], {
    stdio: 'ignore',
  });
  if (tryton.status !== 0) return 'Tryton (trytond, proteus, account_payment_sepa)';
  if (spawnSync('sh', ['-c', 'command -v faketime'], { stdio: 'ignore' }).status !== 0) return 'faketime';
  return undefined;
}

/**
 * `describe` for tests that need Tryton and faketime: runs them when installed; in CI (CI set)
 * fails instead of skipping; elsewhere skips them and says so on stderr.
 */
export function describeWithTryton(name: string, fn: () => void): void {
  const absent = missing();
  if (absent === undefined) return void describe(name, { timeout: 600_000 }, fn);
  const install = `apt-get install -y --no-install-recommends ${TRYTON_PACKAGES}`;
  if (process.env.CI)
    return void describe(name, () =>
      it(`needs ${absent}`, () => {
        throw new Error(`${absent} is required in CI: ${install}`);
      }),
    );
  process.stderr.write(`\n*** SKIPPED (no ${absent}; ${install}): ${name}\n`);
  describe.skip(name, () => it('needs Tryton', () => undefined));
}

export interface TrytonPayment {
  id: number;
  flavor: string;
  amount: string;
  party: string;
  state: 'draft' | 'approved' | 'processing' | 'succeeded' | 'failed';
  returnReasonCode: string | null;
  returnReasonInformation: string | null;
}

export interface TrytonWritten {
  files: Record<string, string>;
  payments: TrytonPayment[];
}

export interface TrytonRead {
  messages: { file: string; state: 'done' | 'error'; error?: string }[];
  payments: TrytonPayment[];
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(args[0]!, args.slice(1), {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function tryton<T>(args: string[], dir: string): Promise<T> {
  const r = await run([PYTHON, SCRIPT, ...args], dir);
  if (r.code !== 0) throw new Error(`tryton-loop.py ${args[0]} failed (${r.code}):\n${r.stderr.slice(-3000)}`);
  return JSON.parse(r.stdout) as T;
}

/** A company, creditors and a payment run per flavour, written by Tryton into `dbDir`/out. */
export function trytonWrite(dbDir: string, specFile: string): Promise<TrytonWritten> {
  return tryton(['write', dbDir, specFile], dbDir);
}

/** Hands each file to Tryton's SEPA message handling; the payments as Tryton then holds them. */
export function trytonRead(dbDir: string, files: string[]): Promise<TrytonRead> {
  return tryton(['read', dbDir, ...files], dbDir);
}

/**
 * `settle ARGS` as the compiled CLI, with the system clock starting at `at` (libfaketime):
 * the sandbox's calendar is fixed in 2026, and settle reads the system clock.
 */
export function settleAt(at: Date, args: string[]): Promise<CliResult> {
  return runSettle(args, { at, cwd: ROOT });
}
