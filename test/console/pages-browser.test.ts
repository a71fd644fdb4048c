// Every console page in a real browser (Debian's chromium through playwright-core) against a
// running `settle serve` with seeded data: navigation to Files, a File, Payments (searched by
// end-to-end id and by creditor), a Payment's story, Approvals, a Basket, Reconciliation,
// Statements and Banks; a finding acknowledged by an operator (one audit entry, with its
// address) and refused to a viewer; the approval link shown to an approver only on request;
// hostile text from outside shown as text; the operator's pages (Unknown bulks, Held payments,
// a cancellation's preview, Cancellations) driven by an operator, with four eyes confirmed by a
// second operator and refused to the one who asked and to a viewer (recorded); axe-core on every
// page with no serious or critical violation, and a screenshot of each in test-artifacts/console/.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditChanges, BrowserSession, screenshot, seriousViolations, signInWithPassword } from '../support/browser.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';
import { SCA_LINK, seedOperatorWorld, seedPagesWorld } from './pages-world.js';

const TEST_MS = 240_000;

describe('console pages in a browser', () => {
  let f: ConsoleFixture;
  let session: BrowserSession;
  const ids = { file: '', payment: '', basket: '' };

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture({ cancelFourEyes: true }), BrowserSession.open()]);
    Object.assign(ids, await seedPagesWorld(f.app.store));
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  /** A signed-in page that fails the test if any dialog (an injected script) ever opens. */
  const signIn = async (user: keyof typeof PASSWORDS): Promise<Page> => {
    const page = await session.newPage();
    page.on('dialog', (d) => {
      throw new Error(`a dialog opened: ${d.message()}`);
    });
    // Where the console starts for the person: Today, or Approvals for an approver.
    await signInWithPassword(page, {
      base: f.base,
      user,
      password: PASSWORDS[user],
      landing: /\/console\/(approvals\?company=acme)?$/,
    });
    return page;
  };

  /** Accessible, nothing injected (no script, no element with an event attribute), saved as a screenshot. */
  const check = async (page: Page, name: string) => {
    expect(await seriousViolations(page), name).toEqual([]);
    expect(await page.locator('main script, main [onmouseover]').count(), name).toBe(0);
    // One heading per page, and no bidirectional control from outside anywhere in it.
    expect(await page.locator('h1').count(), name).toBe(1);
    expect(await page.locator('body').textContent(), name).not.toContain('\u202E');
    await screenshot(page, 'console', name);
  };

  it(
    'walks every page as an operator, searches payments and shows hostile text as text',
    async () => {
      const page = await signIn('olga');

      await page.getByRole('link', { name: 'Files', exact: true }).click();
      await page.waitForURL(/\/console\/files\?company=acme/);
      const files = (await page.locator('main').textContent())!;
      expect(files).toContain('<script>alert(1)</script>"onmouseover=alert(2)');
      expect(files).not.toContain('\u202E');
      await check(page, 'files');

      await page.goto(`${f.base}/console/files/${ids.file}?company=acme`);
      expect(await page.locator('main').textContent()).toContain('E2E-HOSTILE');
      await check(page, 'file');

      await page.getByRole('link', { name: 'Payments', exact: true }).click();
      await page.waitForURL(/\/console\/payments\?company=acme/);
      await check(page, 'payments');

      await page.getByLabel('End-to-end id').fill('E2E-PLAIN');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/e2e=E2E-PLAIN/);
      expect(await page.locator('main tbody').textContent()).toContain('E2E-PLAIN');
      expect(await page.locator('main tbody').textContent()).not.toContain('E2E-HOSTILE');
      await check(page, 'payments-by-end-to-end-id');

      await page.getByLabel('End-to-end id').fill('');
      await page.getByLabel('Creditor name (start) or IBAN').fill('<script>');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/creditor=/);
      expect(await page.locator('main tbody').textContent()).toContain('E2E-HOSTILE');
      expect(await page.locator('main tbody').textContent()).not.toContain('E2E-PLAIN');
      expect(await page.getByLabel('Creditor name (start) or IBAN').inputValue()).toBe('<script>');
      await check(page, 'payments-by-creditor');

      await page.getByRole('link', { name: 'E2E-HOSTILE' }).click();
      await page.waitForURL(new RegExp(`/console/payments/${ids.payment}`));
      expect(await page.locator('main').textContent()).toContain('<script>alert(1)</script>');
      await check(page, 'payment');

      await page.getByRole('link', { name: 'Approvals', exact: true }).click();
      await page.waitForURL(/\/console\/approvals\?company=acme/);
      expect(await page.locator('main').textContent()).toContain(ids.basket);
      expect(await page.content()).not.toContain(SCA_LINK);
      await check(page, 'approvals');

      await page.goto(`${f.base}/console/approvals/${ids.basket}?company=acme`);
      expect(await page.content()).not.toContain(SCA_LINK);
      await check(page, 'basket');

      for (const [name, label] of [
        ['reconciliation', 'Reconciliation'],
        ['statements', 'Statements'],
        ['banks', 'Banks'],
      ] as const) {
        await page.getByRole('link', { name: label, exact: true }).click();
        await page.waitForURL(new RegExp(`/console/${name}\\?company=acme`));
        expect(await page.locator('a[aria-current=page]').textContent()).toBe(label);
        await check(page, name);
      }
    },
    TEST_MS,
  );

  it(
    'lets an operator acknowledge a finding with one audit entry, and refuses a viewer and a form without token',
    async () => {
      const vera = await signIn('vera');
      const before = auditChanges(await f.app.store.audit.list()).length;
      // Her own valid token, sent by her browser to the operator's action: refused by role.
      const token = await vera.locator('input[name=_csrf]').first().inputValue();
      const refused = await vera.context().request.post(`${f.base}/console/findings/F-UNMATCHED/ack?company=acme`, {
        form: { _csrf: token, company: 'acme', reason: 'not mine to say' },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      expect((await f.app.store.findings.find('F-UNMATCHED', 'acme'))[0]!.decision).toBe('open');

      const olga = await signIn('olga');
      const forged = await olga.context().request.post(`${f.base}/console/findings/F-UNMATCHED/ack?company=acme`, {
        form: { company: 'acme', reason: 'forged' },
        maxRedirects: 0,
      });
      expect(forged.status()).toBe(403);
      expect((await f.app.store.findings.find('F-UNMATCHED', 'acme'))[0]!.decision).toBe('open');
      // A refusal's minute entry (`console.refused`) is written by a timer once its minute closes,
      // so on a slow machine it may land anywhere in this test: only the changes are counted.
      const afterRefusals = auditChanges(await f.app.store.audit.list());

      await olga.goto(`${f.base}/console/reconciliation?company=acme`);
      await olga.locator('#reason-F-UNMATCHED-ack').fill('booked late, seen on the statement');
      await olga.getByRole('button', { name: 'Acknowledge', exact: true }).click();
      await olga.waitForURL(/\/console\/reconciliation\?company=acme#finding-F-UNMATCHED$/);
      const finding = (await f.app.store.findings.find('F-UNMATCHED', 'acme'))[0]!;
      expect([finding.decision, finding.decidedBy]).toEqual(['acknowledged', 'local:olga']);
      await check(olga, 'reconciliation-acknowledged');

      // One entry for the change: the specific one, with who and from where; no generic second.
      const now = auditChanges(await f.app.store.audit.list());
      const added = now.slice(0, now.length - afterRefusals.length);
      expect(added.map((e) => [e.action, e.actor, e.origin, e.reason])).toEqual([
        ['finding.acknowledge', 'local:olga', 'console@127.0.0.1', 'booked late, seen on the statement'],
      ]);
      expect(afterRefusals.length).toBeGreaterThanOrEqual(before);
    },
    TEST_MS,
  );

  it(
    'shows the approval link to an approver only on request, and records it once',
    async () => {
      const olga = await signIn('olga');
      await olga.goto(`${f.base}/console/approvals?company=acme`);
      // An operator may do much, but the link is an approver's: no button, and asking is refused.
      expect(await olga.getByRole('button', { name: /Show the approval link/ }).count()).toBe(0);
      const token = await olga.locator('input[name=_csrf]').first().inputValue();
      const refused = await olga.context().request.post(`${f.base}/console/approvals/${ids.basket}/link?company=acme`, {
        form: { _csrf: token, company: 'acme' },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).not.toContain(SCA_LINK);

      const alma = await signIn('alma');
      await alma.goto(`${f.base}/console/approvals?company=acme`);
      expect(await alma.content()).not.toContain(SCA_LINK);
      await alma
        .getByRole('button', { name: /Show the approval link/ })
        .first()
        .click();
      await alma.getByRole('link', { name: 'Approve at the bank' }).waitFor();
      expect(await alma.getByRole('link', { name: 'Approve at the bank' }).getAttribute('href')).toBe(SCA_LINK);
      await check(alma, 'approval-link');
      const shown = await f.app.store.audit.list({ subject: { type: 'basket', id: ids.basket } });
      expect(shown.map((e) => [e.action, e.actor, e.origin])).toEqual([
        ['approval.link_shown', 'local:alma', 'console@127.0.0.1'],
      ]);
      const generic = (await f.app.store.audit.list()).filter(
        (e) => e.action === 'console /console/approvals/:id/link',
      );
      // Alma's shown link is not doubled; Olga's refusal is counted as a refusal (coalesced per minute).
      expect(generic).toEqual([]);
      await f.app.store.auditRefusals.flush({ open: true });
      const refusals = (await f.app.store.audit.list()).filter(
        (e) => e.action === 'console.refused' && e.subject.id === '/console/approvals/:id/link',
      );
      expect(refusals.map((e) => [e.actor, e.details])).toEqual([
        ['local:olga', expect.objectContaining({ count: 1, needed: 'approver', company: 'acme' })],
      ]);
    },
    TEST_MS,
  );

  it(
    'lets operators resolve an unknown bulk, release a held duplicate and cancel with four eyes; refuses a viewer',
    async () => {
      const store = f.app.store;
      const { unknownBulk, waiting } = await seedOperatorWorld(store);
      const unknown = await store.bulks.get(unknownBulk);
      const [held] = (await store.operatorViews.heldPayments('acme')).rows;

      // A viewer does not open the operator's pages (src/server/console/access.ts): no entry in
      // the navigation, 403 at the address; her POST is refused by the router, nothing changes.
      const vera = await signIn('vera');
      expect(await vera.getByRole('link', { name: 'Unknown bulks', exact: true }).count()).toBe(0);
      expect((await vera.goto(`${f.base}/console/bulks?company=acme`))?.status()).toBe(403);
      expect(await vera.locator('main').textContent()).not.toContain(unknown!.id);
      const refused = await vera.context().request.post(`${f.base}/console/bulks/${unknown!.id}/resolve?company=acme`, {
        form: {
          _csrf: await vera.locator('input[name=_csrf]').first().inputValue(),
          as: 'not-at-bank',
          reason: 'not mine to say',
        },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      expect((await store.bulks.get(unknown!.id))!.state).toBe('unknown');
      // Counted like the router's refusals, one entry per person, route, company and minute.
      await store.auditRefusals.flush({ open: true });
      expect((await store.audit.list()).at(-1)).toMatchObject({
        actor: 'local:vera',
        action: 'console.refused',
        subject: { type: 'console', id: '/console/bulks/:id/resolve' },
        origin: 'console@127.0.0.1',
        details: { count: 1, needed: 'operator', company: 'acme' },
      });

      const olga = await signIn('olga');
      await olga.getByRole('link', { name: 'Unknown bulks', exact: true }).click();
      await olga.waitForURL(/\/console\/bulks\?company=acme/);
      await check(olga, 'bulks');
      await olga.getByLabel(/never received it/).check();
      await olga.locator(`#reason-bulk-${unknown!.id}`).fill('the bank confirmed by phone: never received');
      await olga.getByRole('button', { name: 'Record' }).click();
      await olga.waitForURL(/\/console\/bulks\?company=acme$/);
      expect((await store.bulks.get(unknown!.id))!.state).toBe('rejected');

      await olga.getByRole('link', { name: 'Held payments', exact: true }).click();
      await olga.waitForURL(/\/console\/held\?company=acme/);
      expect(await olga.locator('main').textContent()).toContain('<script>alert(1)</script>');
      await check(olga, 'held');
      await olga.locator(`#reason-held-${held!.id}-release`).fill('two invoices with the same amount');
      await olga.getByRole('button', { name: /^Release/ }).click();
      await olga.waitForURL(/\/console\/held\?company=acme$/);
      expect((await store.payments.findByEndToEndId('acme', 'H-AGAIN'))!.state).toBe('accepted');

      // Cancel from the payment's page: the preview first, then the request waits for a second operator.
      await olga.goto(`${f.base}/console/payments/${waiting}?company=acme`);
      await olga.getByRole('link', { name: 'Cancel this payment…' }).click();
      await olga.waitForURL(new RegExp(`/console/payments/${waiting}/cancel`));
      expect(await olga.locator('main').textContent()).toContain('another operator confirms it');
      await check(olga, 'cancel-preview');
      await olga.locator(`#reason-cancel-${waiting}`).fill('the ERP sent it by mistake');
      await olga.getByRole('button', { name: 'Cancel the payment' }).click();
      await olga.waitForURL(/\/console\/cancellations\?company=acme#cancellation-/);
      const [request] = (await store.operatorViews.openCancellations('acme')).rows;
      expect(await olga.locator('main').textContent()).toContain('You asked for it: another operator confirms it.');
      await check(olga, 'cancellations');
      const self = await olga
        .context()
        .request.post(`${f.base}/console/cancellations/${request!.id}/confirm?company=acme`, {
          form: { _csrf: await olga.locator('input[name=_csrf]').first().inputValue() },
          maxRedirects: 0,
        });
      expect(self.status()).toBe(403);
      expect(await self.text()).toContain('a second person must confirm it (four eyes)');
      expect((await store.payments.findByEndToEndId('acme', 'OP-WAITING'))!.state).toBe('accepted');

      const oskar = await signIn('oskar');
      await oskar.getByRole('link', { name: 'Cancellations', exact: true }).click();
      await oskar.waitForURL(/\/console\/cancellations\?company=acme/);
      await oskar.getByRole('button', { name: 'Confirm: cancel it' }).click();
      await oskar.getByText('Confirmed and carried out: withdrawn.').waitFor();
      await check(oskar, 'cancellation-confirmed');
      expect((await store.payments.findByEndToEndId('acme', 'OP-WAITING'))!.state).toBe('CANC');
      const trail = (await store.audit.list()).map((e) => [e.action, e.actor, e.origin]);
      for (const entry of [
        ['bulk.resolve', 'local:olga', 'console@127.0.0.1'],
        ['payment.release', 'local:olga', 'console@127.0.0.1'],
        ['payment.cancel.request', 'local:olga', 'console@127.0.0.1'],
        ['console /console/cancellations/:id/confirm', 'local:olga', 'console@127.0.0.1'],
        ['payment.cancel.confirm', 'local:oskar', 'console@127.0.0.1'],
        ['payment.cancel', 'local:oskar', 'console@127.0.0.1'],
      ])
        expect(trail).toContainEqual(entry);
      expect((await store.audit.verify()).ok).toBe(true);
    },
    TEST_MS,
  );
});
