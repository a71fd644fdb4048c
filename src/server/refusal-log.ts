// Refused webhook requests (missing or wrong Authorization) are counted, not logged one by one:
// anyone on the network can send them, so a line per request would let a stranger flood the
// logs. The first refusal from a source address is logged at once (so an operator setting up
// the bank's subscription sees it), later ones are summed and logged once per window. A line
// carries the source address and the count only: never the body, a header or the presented value.
import type { Logger } from '../log/index.js';

/** Beyond this many distinct addresses in one window, refusals are counted under "(other addresses)". */
const MAX_SOURCES = 1000;
const OTHER = '(other addresses)';

export class RefusalLog {
  private readonly pending = new Map<string, number>();
  private readonly seen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly windowMs = 60_000,
  ) {}

  /** One refused request from `source` (the client's address). */
  note(source: string): void {
    if (!this.seen.has(source) && this.seen.size < MAX_SOURCES) {
      this.seen.add(source);
      this.write(source, 1);
    } else {
      const key = this.seen.has(source) ? source : OTHER;
      this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    }
    this.timer ??= setTimeout(() => this.flush(), this.windowMs).unref();
  }

  /** Logs the counts gathered since the last line per source and starts a new window. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const [source, count] of this.pending) this.write(source, count);
    this.pending.clear();
    this.seen.clear();
  }

  private write(source: string, count: number): void {
    this.log.warn('webhook requests refused: missing or wrong Authorization', { source, count });
  }
}
