// Runs the settle CLI in a child process, as a user would run it: compiled JavaScript (built once
// per test run by test/support/cli-build.ts from the current source), no transpiler at start-up.
import { spawn } from 'node:child_process';
import { CLI_MAIN, ROOT } from './cli-paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnSettle(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; at?: Date }) {
  // Under libfaketime the system clock starts at `at`; TZ=UTC because faketime reads the instant
  // in the local zone (settle works in its configured zone).
  const command = options.at
    ? ['faketime', '-f', `@${options.at.toISOString().slice(0, 19).replace('T', ' ')}`, process.execPath]
    : [process.execPath];
  return spawn(command[0]!, [...command.slice(1), CLI_MAIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, SETTLE_LOG_FORMAT: 'json', ...(options.at ? { TZ: 'UTC' } : {}), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * `at`: the system clock of the child starts at that instant (libfaketime; see itWith('faketime')),
 * so that settle's calendar is the sandbox's, whose clock the test moves.
 */
export function runSettle(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; at?: Date } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnSettle(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

export interface RunningSettle {
  /** Resolves with the first match of `pattern` in stdout (rejects after `timeoutMs` or on exit). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  stdout(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts a long-running settle command (sandbox, serve). */
export function startSettle(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): RunningSettle {
  const child = spawnSettle(args, options);
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    stdout: () => stdout,
    waitFor: async (pattern, timeoutMs = 20_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(stdout);
        if (match) return match;
        if (child.exitCode !== null || Date.now() > until)
          throw new Error(`no ${String(pattern)} in the output of settle ${args.join(' ')}:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
