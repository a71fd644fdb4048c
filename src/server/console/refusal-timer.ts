// Writes the console's refused minutes (src/store/audit-refusals.ts) by a timer, so a burst of
// refused requests is in the audit trail within about a minute even when no later refusal or
// view of the trail comes to write it. The timer does not keep the process alive and stops
// when the console closes, which writes the minute still open as well.
import type { FastifyInstance } from 'fastify';
import type { ConsoleOptions } from './options.js';

/** How often closed refusal minutes are written: a minute is in the trail at most this long after it ends. */
export const REFUSAL_FLUSH_MS = 15_000;

export function flushRefusalsByTimer(app: FastifyInstance, options: ConsoleOptions): void {
  const refusals = options.deps.store.auditRefusals;
  const flush = async (open: boolean): Promise<number> => {
    try {
      return await refusals.flush({ open });
    } catch (error) {
      // The rows stay; the next flush (timer, refusal, view or start) writes them.
      options.logger.warn('refused console requests could not be written to the audit trail yet', {
        error: error instanceof Error ? error.message : String(error),
      });
      return 0;
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', (done) => {
    timer = setInterval(() => {
      running = running.then(() => flush(false));
    }, options.refusalFlushMs ?? REFUSAL_FLUSH_MS);
    timer.unref();
    done();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    timer = undefined;
    // A console that closes writes the minute still open too; each flush writes at most a batch.
    await running;
    while ((await flush(true)) > 0);
  });
}
