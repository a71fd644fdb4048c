// `settle serve`: the long-running service — job schedules, the bank's webhook, /healthz and
// /metrics — until SIGTERM or SIGINT, then a graceful stop (docs/operations.md). SIGHUP (or
// `settle reload`, which finds it by its pid file) reloads the configuration (src/main/reload.ts).
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../../config/index.js';
import { createApp } from '../../main/app.js';
import { writeServePid } from '../../main/serve-pid.js';
import { startServe } from '../../main/serve.js';
import { context, type GlobalOptions } from '../context.js';

interface ServeCliOptions {
  host?: string;
  port?: number;
  scheduler: boolean;
  grace?: number;
}

function parsePort(value: string): number {
  const n = /^\d+$/.test(value) ? Number.parseInt(value, 10) : NaN;
  if (!(n >= 0 && n <= 65535)) throw new InvalidArgumentError('a port number 0–65535');
  return n;
}

function parseSeconds(value: string): number {
  const n = /^\d+$/.test(value) ? Number.parseInt(value, 10) : NaN;
  if (!(n >= 0 && n <= 86_400)) throw new InvalidArgumentError('whole seconds');
  return n;
}

export function serveCommand(): Command {
  return new Command('serve')
    .description(
      'run the scheduler, the webhook receiver, /healthz and /metrics until SIGTERM; SIGHUP reloads the configuration',
    )
    .option('--host <address>', 'listen address (default: server.host)')
    .option('--port <n>', 'listen port, 0 for any free one (default: server.port)', parsePort)
    .option('--no-scheduler', 'do not run scheduled jobs (a webhook-only instance)')
    .option(
      '--grace <seconds>',
      'on SIGTERM, how long running jobs may take to finish before they are asked to checkpoint',
      parseSeconds,
      60,
    )
    .action(async (options: ServeCliOptions, cmd: Command) => {
      const { config, logger } = context(cmd);
      const file = cmd.optsWithGlobals<GlobalOptions>().config;
      const app = await createApp(config, logger);
      let running;
      try {
        running = await startServe(app, {
          ...(options.host === undefined ? {} : { host: options.host }),
          ...(options.port === undefined ? {} : { port: options.port }),
          scheduler: options.scheduler,
          graceMs: (options.grace ?? 60) * 1000,
          // The same file, environment and working directory as at start.
          loadConfig: () => loadConfig(file === undefined ? {} : { file }),
        });
      } catch (error) {
        await app.close();
        throw error;
      }
      const { url } = running;
      const serving = running;
      // On a terminal, the addresses for a person; under systemd the JSON line "settle serve started" carries the URL, and stdout stays JSON only.
      if (process.stdout.isTTY)
        process.stdout.write(
          `settle serve: listening on ${url}\n  webhook  ${url}/webhooks/banking\n  health   ${url}/healthz\n  metrics  ${url}/metrics\n${running.consoleUrl ? `  console  ${running.consoleUrl}\n` : ''}`,
        );
      const removePid = writeServePid(config.dataDir);
      const onHangUp = () => {
        logger.info('signal received', { signal: 'SIGHUP' });
        // The outcome is logged by the reload itself; a failure to apply is a bug, logged too.
        serving.reload().catch((error: unknown) =>
          logger.error('configuration reload failed', {
            error: error instanceof Error ? error.message : String(error),
          }),
        );
      };
      process.on('SIGHUP', onHangUp);
      await new Promise<void>((resolve) => {
        const onSignal = (signal: NodeJS.Signals) => {
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
          process.off('SIGHUP', onHangUp);
          removePid();
          logger.info('signal received', { signal });
          serving.stop().then(resolve, (error: unknown) => {
            logger.error('graceful stop failed', { error: error instanceof Error ? error.message : String(error) });
            process.exitCode = 3;
            resolve();
          });
        };
        process.on('SIGTERM', onSignal);
        process.on('SIGINT', onSignal);
      });
    });
}
