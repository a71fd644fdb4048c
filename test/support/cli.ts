// Runs the settle CLI from source in a child process, as a user would run it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
// tsx is resolved from the project, not from the child's working directory (tests run in temp dirs).
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnSettle(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv }) {
  return spawn(process.execPath, ['--import', tsxLoader, `${root}src/cli/main.ts`, ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, SETTLE_LOG_FORMAT: 'json', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export function runSettle(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
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

/** Starts a long-running settle command (sandbox, serve) from source. */
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
