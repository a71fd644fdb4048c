// The longest the event loop went without a turn while a bench's timed part ran: `settle serve`
// runs its jobs in the process that answers webhooks, console pages and health checks, and none
// of those is answered while a job keeps the loop. A timer that ticks every few milliseconds
// notes the gaps between its turns, from the start on (perf_hooks' monitorEventLoopDelay misses
// a stall that begins as it is enabled: its first sample is taken after it).

const TICK_MS = 5;

/** Starts watching; stop() gives the longest gap between turns in ms (the tick's own 5 ms included). */
export function watchStalls(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  const note = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const timer = setInterval(note, TICK_MS);
  return {
    stop() {
      note();
      clearInterval(timer);
      return longest;
    },
  };
}
