// A one-line progress display for long interactive runs: drawn on stderr only when stderr is a
// terminal, so logs piped to journald or a file stay plain JSON lines. Redrawn at most every
// 100 ms; `done()` clears the line.

export interface Progress {
  /** Adds `n` (default 1) to the count. */
  tick(n?: number): void;
  /** Sets the count. */
  set(count: number): void;
  /** Clears the line and, when given, prints a closing message. */
  done(message?: string): void;
}

export interface ProgressOptions {
  stream?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Milliseconds; injected by tests. */
  now?: () => number;
  intervalMs?: number;
}

const NOOP: Progress = { tick: () => undefined, set: () => undefined, done: () => undefined };

export function createProgress(label: string, total?: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  if (!stream.isTTY) return NOOP;
  const now = options.now ?? (() => performance.now());
  const interval = options.intervalMs ?? 100;
  const started = now();
  let count = 0;
  let drawnAt = -Infinity;
  let finished = false;

  const render = (force: boolean) => {
    const t = now();
    if (finished || (!force && t - drawnAt < interval)) return;
    drawnAt = t;
    const seconds = ((t - started) / 1000).toFixed(0);
    const amount =
      total && total > 0 ? `${count}/${total} (${Math.min(100, Math.floor((count / total) * 100))}%)` : `${count}`;
    const line = `${label}: ${amount} ${seconds}s`;
    const width = stream.columns ?? 80;
    stream.write(`\r\x1b[2K${line.slice(0, Math.max(10, width - 1))}`);
  };

  return {
    tick(n = 1) {
      count += n;
      render(total !== undefined && count >= total);
    },
    set(value) {
      count = value;
      render(false);
    },
    done(message) {
      if (finished) return;
      finished = true;
      stream.write('\r\x1b[2K' + (message ? `${message}\n` : ''));
    },
  };
}
