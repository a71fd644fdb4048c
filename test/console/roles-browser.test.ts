// Issue #48, Must 5: roles shape the pages, on any screen. In a real browser at 390 px wide (a
// phone) against a running `settle serve` with the seeded world of the page tests
// (pages-world.ts), each person — Vera (viewer), Alma (approver), Otto (finance, through the
// OpenID Connect provider), Paula (viewer and payroll) and Olga (operator) — starts where their
// work starts (an approver on Approvals), finds in the navigation exactly the pages their roles
// open (docs/console.md, "Roles"), opens each of them without the page scrolling sideways and
// without an axe violation, is refused (403) every other page, and sees no form that sends a
// decision they may not make.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, BrowserSession } from '../support/browser.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';
import { seedCancellation, seedOperatorWorld, seedPagesWorld } from './pages-world.js';

const TEST_MS = 300_000;
const PHONE = { width: 390, height: 844 };

type Who = 'vera' | 'alma' | 'otto' | 'paula' | 'olga';
const EVERYONE: readonly Who[] = ['vera', 'alma', 'otto', 'paula', 'olga'];
const RECONCILERS: readonly Who[] = ['otto', 'paula', 'olga'];

/** The navigation each person finds, in its order: what docs/console.md's table of roles promises. */
const NAV: Record<Who, string[]> = {
  vera: ['Today', 'Files', 'Payments', 'Approvals'],
  alma: ['Today', 'Files', 'Payments', 'Approvals'],
  otto: [
    'Today',
    'Files',
    'Payments',
    'Approvals',
    'Reconciliation',
    'Statements',
    'Banks',
    'Unknown bulks',
    'Held payments',
  ],
  paula: ['Today', 'Files', 'Payments', 'Approvals', 'Reconciliation', 'Statements', 'Unknown bulks', 'Held payments'],
  // Olga has a role in two companies: the board is hers too.
  olga: [
    'Today',
    'Board',
    'Files',
    'Payments',
    'Approvals',
    'Reconciliation',
    'Statements',
    'Banks',
    'Audit',
    'Unknown bulks',
    'Held payments',
    'Cancellations',
  ],
};

describe('roles shape the pages, at 390 px', () => {
  let f: ConsoleFixture;
  let session: BrowserSession;
  let pages: { name: string; path: string; who: readonly Who[] }[] = [];

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture({ cancelFourEyes: true }), BrowserSession.open()]);
    const store = f.app.store;
    const world = await seedPagesWorld(store);
    const operator = await seedOperatorWorld(store);
    await seedCancellation(store, operator.waiting);
    pages = [
      { name: 'today', path: '/console/', who: EVERYONE },
      // Someone with one company is sent from the board to their Today.
      { name: 'board', path: '/console/board', who: EVERYONE },
      { name: 'files', path: '/console/files', who: EVERYONE },
      { name: 'file', path: `/console/files/${world.file}`, who: EVERYONE },
      { name: 'payments', path: '/console/payments', who: EVERYONE },
      { name: 'payment', path: `/console/payments/${world.payment}`, who: EVERYONE },
      { name: 'approvals', path: '/console/approvals', who: EVERYONE },
      { name: 'basket', path: `/console/approvals/${world.basket}`, who: EVERYONE },
      { name: 'reconciliation', path: '/console/reconciliation', who: RECONCILERS },
      { name: 'statements', path: '/console/statements', who: RECONCILERS },
      { name: 'banks', path: '/console/banks', who: ['otto', 'olga'] },
      { name: 'bulks', path: '/console/bulks', who: RECONCILERS },
      { name: 'held', path: '/console/held', who: RECONCILERS },
      { name: 'cancellations', path: '/console/cancellations', who: ['olga'] },
      { name: 'cancel-preview', path: `/console/payments/${operator.waiting}/cancel`, who: ['olga'] },
      { name: 'audit', path: '/console/audit', who: ['olga'] },
    ];
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  /** A phone-sized page signed in as the person, at the address the sign-in lands on. */
  const signIn = async (who: Who): Promise<Page> => {
    const page = await session.newPage({ viewport: PHONE });
    await page.goto(`${f.base}/console/sign-in`);
    if (who === 'otto') {
      await page.getByRole('link', { name: 'Sign in with your company account' }).click();
      await page.waitForURL(new RegExp(`^${f.provider.issuer}/`));
      await page.locator('input[name=login]').fill('otto');
      await page.locator('input[name=password]').fill('anything');
      await page.locator('button[type=submit]').click();
      await page.getByRole('button', { name: 'Continue' }).click();
    } else {
      await page.getByLabel('User name').fill(who);
      await page.getByLabel('Password').fill(PASSWORDS[who]);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.waitForURL(new RegExp(`^${f.base}/console/`));
    await page.waitForLoadState('load');
    return page;
  };

  /** How far the document reaches sideways: more than the viewport is a horizontal scroll. */
  const scrollWidth = (page: Page) =>
    page.evaluate(
      () =>
        (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
          .scrollWidth,
    );

  it.each(EVERYONE)(
    '%s starts where their work starts, sees their pages only, each without sideways scroll or axe violation',
    async (who) => {
      const page = await signIn(who);
      // The landing: an approver (and no broader role) starts on Approvals, everyone else on Today.
      expect(new URL(page.url()).pathname).toBe(who === 'alma' ? '/console/approvals' : '/console/');
      expect(await page.locator('header nav a').allTextContents()).toEqual(NAV[who]);

      const problems: string[] = [];
      for (const p of pages) {
        const response = await page.goto(`${f.base}${p.path}${p.path.includes('?') ? '&' : '?'}company=acme`);
        const allowed = p.who.includes(who);
        expect([p.name, response?.status()]).toEqual([p.name, allowed ? 200 : 403]);
        const width = await scrollWidth(page);
        if (width > PHONE.width) problems.push(`${p.name}: ${width} px wide`);
        if (!allowed) continue;
        for (const v of await axeViolations(page))
          problems.push(`${p.name}: axe ${v.id} (${v.impact}) ${v.nodes.map((n) => n.html).join(' | ')}`);
        // The forms that send a decision: only those of a capability the person has.
        const posts = await page
          .locator('main form[method=post]')
          .evaluateAll((forms) =>
            forms.map((form) => new URL((form as unknown as { action: string }).action).pathname),
          );
        const unexpected = posts.filter((action) => !mayPostThere(who, action));
        if (unexpected.length > 0) problems.push(`${p.name}: forms ${unexpected.join(', ')}`);
      }
      expect(problems).toEqual([]);
    },
    TEST_MS,
  );
});

/** Which decisions each person may send, written out from docs/console.md rather than read from the code. */
function mayPostThere(who: Who, action: string): boolean {
  const finance = /^\/console\/(findings\/|periods\/signoff$)/.test(action);
  const link = /^\/console\/approvals\/[^/]+\/link$/.test(action);
  const operate = /^\/console\/(bulks\/[^/]+\/resolve|held\/|payments\/[^/]+\/cancel$|cancellations\/|audit\/)/.test(
    action,
  );
  if (who === 'olga') return finance || operate;
  if (who === 'otto') return finance;
  if (who === 'alma') return link;
  return false;
}
