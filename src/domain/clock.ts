// Time is injected: the domain never calls Date.now(), so tests and the sandbox can move it.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests and the sandbox. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-05T08:00:00Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    if (ms < 0) throw new RangeError('a clock only moves forward');
    this.current += ms;
  }
  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
}
