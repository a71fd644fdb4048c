// The process the chaos campaign SIGKILLs: `settle run nightly` as a loop (the same runNightly
// the CLI, `settle serve` and the demo call), with settle's clock following the sandbox's, plus
// a webhook receiver that hands events to the same handler `settle serve` uses. It tells the
// parent on stderr which step is running (`stage:NAME`) and where its webhook receiver listens
// (`webhook:URL`), so the parent can name the step each kill hit and route the bank's events.
//
// Started as `node --import tsx nightly-child.ts` with SETTLE_CHAOS_CONFIG (the YAML/JSON
// configuration) and SETTLE_CHAOS_CONTROL (the sandbox's control URL). With SETTLE_CHAOS_ONCE=1
// it runs one night and exits 0, or 4 when a step of it failed or did not run.
import { createServer, type Server } from 'node:http';
import { createInterface } from 'node:readline';
import { readEventDelivery } from '../../../src/bank/cloud-events.js';
import { loadConfig, type Config } from '../../../src/config/index.js';
import type { Clock } from '../../../src/domain/clock.js';
import { createLogger, type Logger } from '../../../src/log/index.js';
import { createApp, newRunId, type App } from '../../../src/main/app.js';
import { runNightly, type NightlyResult } from '../../../jobs/nightly/nightly.js';
import { STEP_NAMES } from '../../../jobs/nightly/step-result.js';
import { nightlyDeps } from '../../../src/main/nightly-deps.js';
import { paymentJobs } from '../../../src/main/payment-jobs.js';

/** settle time = the sandbox's time, re-read before each night. */
export class BankTimeClock implements Clock {
  private offset = 0;
  constructor(private readonly controlUrl: string) {}
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  async sync(): Promise<void> {
    const res = await fetch(this.controlUrl);
    const body = (await res.json()) as { now: string };
    this.offset = Date.parse(body.now) - Date.now();
  }
}

/** A webhook receiver for the bank's deliveries, handled as `settle serve` handles them. */
export async function startWebhookReceiver(
  app: App,
  instanceId: string,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const jobs = paymentJobs(app, { bank: app.bank(), instanceId });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const handle = async () => {
        const delivery = readEventDelivery(req.headers, Buffer.concat(chunks));
        await jobs.handleEvents(delivery.events);
      };
      handle().then(
        () => res.writeHead(200).end(),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks/banking`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await jobs.close();
    },
  };
}

/** One night, reporting each step as it starts. */
export async function oneNight(app: App, config: Config, onStage: (stage: string) => void): Promise<NightlyResult> {
  onStage('pickup');
  return runNightly(nightlyDeps(app), config.companies, {
    runId: newRunId(),
    onStep: (result) => {
      const next = STEP_NAMES[STEP_NAMES.indexOf(result.step) + 1];
      if (next !== undefined) onStage(next);
    },
  });
}

async function childMain(): Promise<number> {
  const env = process.env;
  const config = loadConfig({ file: env.SETTLE_CHAOS_CONFIG! });
  const clock = new BankTimeClock(env.SETTLE_CHAOS_CONTROL!);
  await clock.sync();
  const logger: Logger = createLogger({ level: 'error', stream: process.stderr, format: 'json' });
  const app = await createApp(config, logger, clock);
  const receiver = await startWebhookReceiver(app, `chaos-${process.pid}`);
  process.stderr.write(`webhook:${receiver.url}\n`);
  const once = env.SETTLE_CHAOS_ONCE === '1';
  let exitCode = 0;
  try {
    do {
      await clock.sync();
      const night = await oneNight(app, config, (stage) => process.stderr.write(`stage:${stage}\n`));
      process.stderr.write('stage:between-nights\n');
      // A night meant to run clean says which step failed or was skipped as claimed by another
      // process (or that the whole chain was), and exits 4 so the parent shows it.
      const missed = night.steps.filter((s) => !s.ok || s.claimedElsewhere === true);
      if (once && (missed.length > 0 || night.steps.length === 0)) {
        for (const s of missed) process.stderr.write(`step ${s.step} did not run: ${s.summary}\n`);
        if (night.steps.length === 0) process.stderr.write('the chain did not run: claimed by another process\n');
        exitCode = 4;
      }
    } while (!once);
  } finally {
    await receiver.close();
    await app.close();
  }
  return exitCode;
}

/**
 * With SETTLE_CHAOS_WAIT=1 the child loads every module, then waits for "go" on stdin: the
 * parent starts the next child while the current one runs, so node + tsx start-up (seconds on
 * a busy machine) does not stretch the campaign. Nothing of settle's state is touched before "go".
 */
async function waitForGo(): Promise<void> {
  if (process.env.SETTLE_CHAOS_WAIT !== '1') return;
  for await (const line of createInterface({ input: process.stdin })) if (line.trim() === 'go') return;
  throw new Error('the chaos parent went away before saying go');
}

if (process.env.SETTLE_CHAOS_CHILD === '1') {
  waitForGo()
    .then(childMain)
    .then(
      (code) => process.exit(code),
      (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        process.exit(3);
      },
    );
}
