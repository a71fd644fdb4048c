// A real browser for page tests: Debian's chromium driven by playwright-core, with axe-core
// run inside each page for accessibility, and screenshots kept under test-artifacts/ (ignored
// by git; CI keeps the folder as the run's artifacts). axe is evaluated through the DevTools
// protocol, which the pages' strict Content-Security-Policy does not block — the CSP stays on.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

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
