// A real browser for page tests: Debian's chromium driven by playwright-core, with axe-core
// run inside each page for accessibility, and screenshots kept under test-artifacts/ (ignored
// by git; CI keeps the folder as the run's artifacts). axe is evaluated through the DevTools
// protocol, which the pages' strict Content-Security-Policy does not block — the CSP stays on.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = process.env.SETTLE_CHROMIUM ?? '/usr/bin/chromium';
export const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-artifacts');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // The CI container runs as root, where chromium's sandbox cannot start.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string }[];
}

/** axe-core's violations on the page as it is now (WCAG 2 A/AA and best practices). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const w = globalThis as unknown as {
      document: unknown;
      axe: { run(ctx: unknown, o: unknown): Promise<{ violations: AxeViolation[] }> };
    };
    const result = await w.axe.run(w.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html })),
    }));
  });
}

/** The violations that fail a page: serious and critical ones. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Saves a full-page screenshot as test-artifacts/<folder>/<name>.png and returns its path. */
export async function screenshot(page: Page, folder: string, name: string): Promise<string> {
  const dir = join(ARTIFACTS, folder);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * One browser for a test file, each person's page in a context of its own (cookies apart), all
 * closed with the browser at the end. A page waits at most a minute for anything: the suite
 * shares the machine's cores.
 */
export class BrowserSession {
  private readonly contexts: BrowserContext[] = [];

  private constructor(readonly browser: Browser) {}

  static async open(): Promise<BrowserSession> {
    return new BrowserSession(await launchBrowser());
  }

  async newPage(options: BrowserContextOptions = {}): Promise<Page> {
    const context = await this.browser.newContext(options);
    this.contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    return page;
  }

  async close(): Promise<void> {
    for (const c of this.contexts) await c.close();
    await this.browser.close();
  }
}

/** How a test reaches the console's sign-in form: its address, and where a signed-in person lands. */
export interface PasswordSignIn {
  base: string;
  user: string;
  password: string;
  /** Where the sign-in must land before the page is handed back; default the Today page. */
  landing?: RegExp | ((url: URL) => boolean);
}

/** Signs a person in on the console's own password form (docs/console.md) in `page`. */
export async function signInWithPassword(page: Page, sign: PasswordSignIn): Promise<Page> {
  await page.goto(`${sign.base}/console/sign-in`);
  await page.getByLabel('User name').fill(sign.user);
  await page.getByLabel('Password').fill(sign.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(sign.landing ?? /\/console\/$/);
  return page;
}

/** The page's `main` text as a person reads it: runs of white space folded to one space. */
export async function mainText(page: Page): Promise<string> {
  return ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
}

/**
 * The audit entries of changes: all but the refusal minutes (`console.refused`), which a timer
 * writes once a minute closes, so on a slow machine they land at any point of a test.
 */
export function auditChanges<E extends { action: string }>(entries: E[]): E[] {
  return entries.filter((e) => e.action !== 'console.refused');
}
