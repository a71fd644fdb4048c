// The screenshots of docs/console.md (docs/console/*-desktop.png and *-phone.png): the console's
// main pages at a desktop width (1280 px) and a phone's (390 px), against a running
// `settle serve` with the seeded world of the browser tests (test/console/pages-world.ts: its
// file and creditor names carry `<script>`, `"onmouseover=` and U+202E, shown as text), each as
// the person whose work it is. Debian's chromium through playwright-core, as the browser tests.
//
//   npm run docs:screenshots            (SETTLE_CHROMIUM=/path/to/chromium to use another)
//
// A shot is cut at MAX_HEIGHT so that each file stays small (well under 150 KB).
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../test/support/browser.js';
import { PASSWORDS, startConsoleFixture } from '../test/console/fixture.js';
import { seedCancellation, seedOperatorWorld, seedPagesWorld } from '../test/console/pages-world.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'console');
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const MAX_HEIGHT = { desktop: 860, phone: 1600 } as const;

type Person = 'olga' | 'alma' | 'vera';

async function signedIn(browser: Browser, base: string, who: Person, size: keyof typeof SIZES): Promise<Page> {
  const context = await browser.newContext({ viewport: SIZES[size] });
  const page = await context.newPage();
  await page.goto(`${base}/console/sign-in`);
  await page.getByLabel('User name').fill(who);
  await page.getByLabel('Password').fill(PASSWORDS[who]);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\//);
  return page;
}

async function main(): Promise<void> {
  const [f, browser] = await Promise.all([startConsoleFixture({ cancelFourEyes: true }), launchBrowser()]);
  try {
    const store = f.app.store;
    const world = await seedPagesWorld(store);
    const operator = await seedOperatorWorld(store);
    await seedCancellation(store, operator.waiting);
    const shots: { name: string; path: string; who: Person }[] = [
      { name: 'today', path: '/console/', who: 'olga' },
      { name: 'approvals', path: '/console/approvals', who: 'alma' },
      { name: 'files', path: '/console/files', who: 'vera' },
      { name: 'file', path: `/console/files/${world.file}`, who: 'vera' },
      { name: 'payment', path: `/console/payments/${world.payment}`, who: 'olga' },
      { name: 'reconciliation', path: '/console/reconciliation', who: 'olga' },
      { name: 'statements', path: '/console/statements', who: 'olga' },
      { name: 'held', path: '/console/held', who: 'olga' },
    ];
    for (const size of ['desktop', 'phone'] as const) {
      const pages = new Map<Person, Page>();
      for (const shot of shots) {
        let page = pages.get(shot.who);
        if (!page) pages.set(shot.who, (page = await signedIn(browser, f.base, shot.who, size)));
        await page.goto(`${f.base}${shot.path}?company=acme`);
        const height = await page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollHeight: number } } }).document
              .documentElement.scrollHeight,
        );
        const path = join(OUT, `${shot.name}-${size}.png`);
        await page.screenshot({
          path,
          fullPage: true,
          clip: { x: 0, y: 0, width: SIZES[size].width, height: Math.min(height, MAX_HEIGHT[size]) },
        });
        console.log(`${path}  ${Math.round((await stat(path)).size / 1024)} KB`);
      }
      for (const page of pages.values()) await page.context().close();
    }
  } finally {
    await browser.close();
    await f.close();
  }
}

await main();
