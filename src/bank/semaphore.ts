// Bounded concurrency towards the bank: at most `limit` requests in flight per client, the
// rest wait in order. Backoff sleeps happen outside the semaphore, so a waiting retry does not
// hold a slot.
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('concurrency must be a positive integer');
  }

  get inFlight(): number {
    return this.active;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter, so `active` stays counted for it.
      if (next) next();
      else this.active--;
    }
  }
}
