// `settle sandbox [--port N] [--host 127.0.0.1] [--latency MS] [--start ISO] [--page-size N]`:
// runs the bank simulator (docs/sandbox.md) in the foreground, prints its URLs and the seeded
// credentials, and stops on SIGINT/SIGTERM. Started by hand its clock follows the real time, so
// a first dry run asks for today's statements; `--start` fixes it for a repeatable session.
import { Command, InvalidArgumentError } from 'commander';
import { SettleError } from '../../domain/errors.js';
import { SEED, startSandbox, type RunningSandbox } from '../../sandbox/index.js';

export const DEFAULT_SANDBOX_PORT = 8090;

export interface SandboxCommandDeps {
  out?: (text: string) => void;
  /** Resolves when the sandbox should stop (default: SIGINT or SIGTERM). */
  waitForStop?: (running: RunningSandbox) => Promise<void>;
}

function integer(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`);
    return Number(value);
  };
}

function instant(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value)))
    throw new InvalidArgumentError('--start must be an RFC 3339 instant, e.g. 2026-01-05T08:00:00Z.');
  return value;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

export function sandboxCommand(deps: SandboxCommandDeps = {}): Command {
  const out = deps.out ?? ((text: string) => void process.stdout.write(text));
  return new Command('sandbox')
    .description(
      'run the bank simulator: banking API under /api, identity provider under /id, control API under /__sandbox',
    )
    .option('--port <n>', 'port to listen on (0 = any free port)', integer('--port', 0, 65535), DEFAULT_SANDBOX_PORT)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--latency <ms>', 'extra delay before every bank answer, in ms', integer('--latency', 0, 600_000), 0)
    .option(
      '--start <instant>',
      'fix the sandbox clock at this instant; it then moves only through the control API (default: follow the real time)',
      instant,
    )
    .option('--page-size <n>', 'items per page on every list', integer('--page-size', 1, 1000), 25)
    .action(async (opts: { port: number; host: string; latency: number; start?: string; pageSize: number }) => {
      let running: RunningSandbox;
      try {
        running = await startSandbox({
          port: opts.port,
          host: opts.host,
          latencyMs: opts.latency,
          pageSize: opts.pageSize,
          ...(opts.start ? { start: opts.start } : { followRealTime: true }),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new SettleError(
          'ERR_SANDBOX_LISTEN_FAILED',
          `The sandbox could not listen on ${opts.host}:${opts.port}: ${reason}`,
          { cause: error },
        );
      }
      const { urls } = running;
      out(
        [
          `settle sandbox listening (sandbox clock ${running.sandbox.clock.now().toISOString()}, ${
            opts.start ? 'fixed: moves only by POST /__sandbox/clock' : 'following the real time'
          })`,
          `  base_url (banking API)  ${urls.baseUrl}`,
          `  auth_url (identity)     ${urls.authUrl}   token: ${urls.tokenUrl}`,
          `  control API             ${urls.controlUrl}`,
          `  tenant ${SEED.tenant} · client ${SEED.clientId} / ${SEED.clientSecret} · subscription ${SEED.subscriptionId} · resource group ${SEED.resourceGroupName}`,
          `  accounts ${SEED.operatingIban} (normal), ${SEED.approvalIban} (pre-approved)`,
          'Press Ctrl+C to stop.',
          '',
        ].join('\n'),
      );
      await (deps.waitForStop ?? untilSignal)(running);
      await running.close();
    });
}
