// The coalescing of event-triggered fetches (src/main/account-fetches.ts), with a recording
// runner: a burst of requests is one fetch of the distinct accounts; requests during a fetch
// wait for the next round; an account the fetch skipped is asked for once more, not forever.
import { describe, expect, it } from 'vitest';
import { AccountFetchCoalescer } from '../../src/main/account-fetches.js';
import { sleep } from './helpers.js';

function recorder(fetchedOf: (ids: ReadonlySet<string>) => ReadonlySet<string> = (ids) => ids) {
  const runs: string[][] = [];
  let release: (() => void) | undefined;
  let hold = false;
  const run = async (ids: ReadonlySet<string>) => {
    runs.push([...ids].sort());
    if (hold) await new Promise<void>((resolve) => (release = resolve));
    return fetchedOf(ids);
  };
  return {
    runs,
    run,
    holdNext: () => (hold = true),
    release: () => ((hold = false), release?.()),
  };
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(10);
  }
}

describe('AccountFetchCoalescer', () => {
  it('turns a burst of requests into one fetch of the distinct accounts', async () => {
    const r = recorder();
    const c = new AccountFetchCoalescer(r.run, { delayMs: 100, onError: () => undefined });
    for (let i = 0; i < 20; i++) c.request(i % 2 === 0 ? 'acc-a' : 'acc-b');
    await until(() => r.runs.length === 1);
    await sleep(300);
    expect(r.runs).toEqual([['acc-a', 'acc-b']]);
    await c.stop();
  });

  it('keeps requests that arrive during a fetch for the next round', async () => {
    const r = recorder();
    const c = new AccountFetchCoalescer(r.run, { delayMs: 50, onError: () => undefined });
    r.holdNext();
    c.request('acc-a');
    await until(() => r.runs.length === 1);
    c.request('acc-a');
    c.request('acc-c');
    await sleep(150);
    expect(r.runs).toHaveLength(1); // still running: nothing starts beside it
    r.release();
    await until(() => r.runs.length === 2);
    expect(r.runs[1]).toEqual(['acc-a', 'acc-c']);
    await c.stop();
  });

  it('asks once more for an account the fetch did not reach, then gives up until the next event', async () => {
    const r = recorder(() => new Set());
    const c = new AccountFetchCoalescer(r.run, { delayMs: 30, onError: () => undefined });
    c.request('held');
    await until(() => r.runs.length === 2);
    await sleep(200);
    expect(r.runs).toEqual([['held'], ['held']]);
    await c.stop();
  });

  it('reports a failing fetch and goes on with the next request', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const runs: string[][] = [];
    const c = new AccountFetchCoalescer(
      (ids) => {
        runs.push([...ids]);
        if (fail) return Promise.reject(new Error('bank away'));
        return Promise.resolve(ids);
      },
      { delayMs: 30, onError: (e) => errors.push(e) },
    );
    c.request('acc-a');
    await until(() => errors.length === 1);
    fail = false;
    c.request('acc-b');
    await until(() => runs.length === 2);
    expect(runs[1]).toEqual(['acc-b']);
    await c.stop();
  });
});
