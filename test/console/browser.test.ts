// The console in a real browser (Debian's chromium through playwright-core): sign-in through a
// real OpenID Connect provider and with a local password, navigation and the company switcher,
// a change accepted for an operator and refused for a viewer, a POST without CSRF token
// refused; axe-core on every page of the shell with no serious or critical violation, and a
// screenshot of each kept in test-artifacts/console/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserSession, screenshot, seriousViolations } from '../support/browser.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

/** A browser on a loaded shared machine: generous, never a speed assertion. */
const TEST_MS = 180_000;

describe('console in a browser', () => {
  let f: ConsoleFixture;
  let session: BrowserSession;

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture(), BrowserSession.open()]);
    // Something in the trail, with text from outside, for the Audit page.
    await f.app.store.audit.append({
      actor: 'local:olga',
      action: 'finding.acknowledge',
      subject: { type: 'finding', id: 'F-1' },
      reason: '<script>alert(1)</script> "onmouseover=x \u202Etxt.exe',
      origin: 'cli@host',
      details: { company: 'acme' },
    });
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  const newPage = (): Promise<Page> => session.newPage();

  const signInLocal = async (page: Page, user: keyof typeof PASSWORDS) => {
    await page.goto(`${f.base}/console/`);
    expect(page.url()).toContain('/console/sign-in');
    await page.getByLabel('User name').fill(user);
    await page.getByLabel('Password').fill(PASSWORDS[user]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/$/);
  };

  const expectAccessible = async (page: Page) => expect(await seriousViolations(page)).toEqual([]);

  it(
    'signs in through the OpenID Connect provider and shows Today for the person in it',
    async () => {
      const page = await newPage();
      await page.goto(`${f.base}/console/sign-in`);
      await expectAccessible(page);
      await screenshot(page, 'console', 'sign-in');
      await page.getByRole('link', { name: 'Sign in with your company account' }).click();
      await page.waitForURL(new RegExp(`^${f.provider.issuer}/`));
      await page.locator('input[name=login]').fill('otto');
      await page.locator('input[name=password]').fill('anything');
      await page.locator('button[type=submit]').click();
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.waitForURL(new RegExp(`^${f.base}/console/`));
      expect(await page.locator('h1').textContent()).toBe('Today — ACME AS');
      expect(await page.locator('header').textContent()).toContain('Otto Finance (finance)');
      // Finance may not read the audit trail: no entry in the navigation, 403 at the address.
      expect(await page.getByRole('link', { name: 'Audit' }).count()).toBe(0);
      const audit = await page.goto(`${f.base}/console/audit?company=acme`);
      expect(audit?.status()).toBe(403);
    },
    TEST_MS,
  );

  it(
    'refuses a provider account no company lists',
    async () => {
      const page = await newPage();
      await page.goto(`${f.base}/console/sign-in/oidc`);
      await page.locator('input[name=login]').fill('mallory');
      await page.locator('input[name=password]').fill('anything');
      await page.locator('button[type=submit]').click();
      const answer = page.waitForResponse((r) => r.url().includes('/console/sign-in/oidc/callback'));
      await page.getByRole('button', { name: 'Continue' }).click();
      expect((await answer).status()).toBe(403);
      expect(await page.locator('main').textContent()).toContain('no company lists this address');
    },
    TEST_MS,
  );

  it(
    'lets an operator navigate, switch company and record a checkpoint, which the Audit page then shows',
    async () => {
      const page = await newPage();
      await signInLocal(page, 'olga');
      expect(await page.locator('h1').textContent()).toBe('Today — ACME AS');
      await expectAccessible(page);
      await screenshot(page, 'console', 'today');

      await page.getByRole('link', { name: 'Audit' }).click();
      await page.waitForURL(/\/console\/audit\?company=acme$/);
      expect(await page.locator('[aria-current=page]').textContent()).toBe('Audit');
      expect(await page.getByRole('status').textContent()).toMatch(/^The chain holds: \d+ entr(y|ies)/);
      // Outside text shows as text: no element was made of it.
      expect(await page.locator('main script').count()).toBe(0);
      expect(await page.locator('main').textContent()).toContain('<script>alert(1)</script> "onmouseover=x');
      await expectAccessible(page);
      await screenshot(page, 'console', 'audit');

      await page.getByRole('button', { name: 'Record a verified checkpoint' }).click();
      await page.waitForURL(/\/console\/audit\?company=acme$/);
      const first = page.locator('tbody tr').first();
      expect(await first.textContent()).toContain('console /console/audit/checkpoint');
      expect(await first.textContent()).toContain('console@127.0.0.1');
      expect(await first.textContent()).toContain('local:olga');

      await page.getByLabel('Company').selectOption('beta');
      await page.getByRole('button', { name: 'Switch' }).click();
      await page.waitForURL(/company=beta/);
      expect(await page.locator('h1').textContent()).toBe('Audit trail');
      await page.getByRole('link', { name: 'Today' }).click();
      expect(await page.locator('h1').textContent()).toBe('Today — Beta <b>AS</b>');
      await expectAccessible(page);

      // A POST without the CSRF token, with her session cookie: refused, nothing recorded.
      const entries = (await f.app.store.audit.list()).length;
      const forged = await page.context().request.post(`${f.base}/console/audit/checkpoint`, {
        form: { company: 'acme' },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(403);
      expect((await f.app.store.audit.list()).length).toBe(entries);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/console\/sign-in$/);
      await page.goto(`${f.base}/console/audit?company=acme`);
      expect(page.url()).toContain('/console/sign-in?next=');
    },
    TEST_MS,
  );

  it(
    'refuses the same change to a viewer with 403',
    async () => {
      const page = await newPage();
      await signInLocal(page, 'vera');
      expect(await page.locator('header').textContent()).toContain('Vera Viewer (viewer)');
      await expectAccessible(page);
      const entries = (await f.app.store.audit.list()).length;
      // Her own valid CSRF token (from the sign-out form) in the operator's form, sent by the browser.
      const response = page.waitForResponse((r) => r.url().endsWith('/console/audit/checkpoint'));
      await page.evaluate(() => {
        const d = (globalThis as unknown as { document: DocumentLike }).document;
        const token = d.querySelector<{ value: string }>('input[name=_csrf]')!.value;
        const form = d.createElement('form');
        form.method = 'post';
        form.action = '/console/audit/checkpoint';
        for (const [name, value] of [
          ['_csrf', token],
          ['company', 'acme'],
        ]) {
          const input = d.createElement('input');
          input.type = 'hidden';
          input.name = name!;
          input.value = value!;
          form.appendChild(input);
        }
        d.body.appendChild(form);
        form.submit();
      });
      expect((await response).status()).toBe(403);
      await page.waitForLoadState();
      expect(await page.locator('main').textContent()).toContain(
        'This needs the role operator in acme; you have viewer.',
      );
      await expectAccessible(page);
      await screenshot(page, 'console', 'refused');
      expect((await f.app.store.audit.list()).length).toBe(entries);
    },
    TEST_MS,
  );
});

/** The little of the DOM the in-page script above uses (the test compiles without the DOM lib). */
interface ElementLike {
  method: string;
  action: string;
  type: string;
  name: string;
  value: string;
  appendChild(child: ElementLike): void;
  submit(): void;
}
interface DocumentLike {
  body: ElementLike;
  querySelector<T>(selector: string): T | null;
  createElement(tag: string): ElementLike;
}
