// Reconciliation that finance works through (issue #48, Must 2), in a real browser (Debian's
// chromium through playwright-core) against a running `settle serve`: the filters (type, amount,
// assigned to me) answer in the address and the page's links keep them; several findings
// acknowledged at once with one reason (one audit entry each), a batch that does not fit refused
// whole, a viewer refused; a finding assigned; a period's sign-off refused with the list of what
// needs a person, then signed, exported as HTML (sandboxed) and CSV with the signer, and
// reopened visibly by a later run's finding. axe-core on each state, screenshots kept.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FindingSeen } from '../../src/store/index.js';
import { auditChanges, BrowserSession, screenshot, seriousViolations, signInWithPassword } from '../support/browser.js';
import { PASSWORDS, startConsoleFixture, type ConsoleFixture } from './fixture.js';

const TEST_MS = 240_000;
const A = 'NO9386011117947';
const B = 'NO7215031234562';
const seen = (id: string, over: Partial<FindingSeen> = {}): FindingSeen => ({
  id,
  type: 'unexpected_debit',
  factHash: `hash-${id}`,
  subject: `booking tx-${id}`,
  summary: `A debit (${id}) settle did not send.`,
  accountIban: A,
  amount: { minor: 10_000n, currency: 'NOK' },
  factDate: '2026-01-05',
  ...over,
});
const RUN = [
  seen('F-A'),
  seen('F-B', { accountIban: B, amount: { minor: 2_500_000_00n, currency: 'NOK' }, factDate: '2026-01-06' }),
  seen('F-C', { type: 'match_proposed', subject: 'booking tx-C', factDate: '2026-01-07' }),
  seen('F-D', { type: 'rejected', factDate: '2026-02-02' }),
];

describe('reconciliation worked through in a browser', () => {
  let f: ConsoleFixture;
  let session: BrowserSession;

  beforeAll(async () => {
    [f, session] = await Promise.all([startConsoleFixture(), BrowserSession.open()]);
    await f.app.store.findings.recordRun('acme', 'run-1', RUN);
  }, TEST_MS);
  afterAll(async () => {
    await session?.close();
    await f?.close();
  });

  const signIn = async (user: keyof typeof PASSWORDS): Promise<Page> => {
    const page = await session.newPage();
    await signInWithPassword(page, { base: f.base, user, password: PASSWORDS[user] });
    return page;
  };
  const check = async (page: Page, name: string) => {
    expect(await seriousViolations(page), name).toEqual([]);
    expect(await page.locator('h1').count(), name).toBe(1);
    await screenshot(page, 'console', name);
  };
  const rows = async (page: Page) =>
    (await page.locator('main table').nth(0).locator('tbody tr').allTextContents()).map(
      (t) => /F-[A-Z]/.exec(t)?.[0] ?? t,
    );
  const decision = async (id: string) => (await f.app.store.findings.find(id, 'acme'))[0]!.decision;

  it(
    'filters by type and amount in the address, and keeps the filters in its links',
    async () => {
      const page = await signIn('olga');
      await page.goto(`${f.base}/console/reconciliation?company=acme`);
      expect((await rows(page)).sort()).toEqual(['F-A', 'F-B', 'F-C', 'F-D']);
      await page.getByLabel('Type').selectOption('match_proposed');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/type=match_proposed/);
      expect(await rows(page)).toEqual(['F-C']);
      const every = await page.getByRole('link', { name: 'Every finding ever recorded' }).getAttribute('href');
      expect(every).toContain('type=match_proposed');
      await check(page, 'reconciliation-filtered');

      // A shared address shows the same: amount at least 1,000,000.00 and the account.
      await page.goto(`${f.base}/console/reconciliation?company=acme&min=1%20000%20000.00&account=${B}`);
      expect(await rows(page)).toEqual(['F-B']);
      // The money at stake is the money the run recorded with the finding.
      expect(await page.locator('main').textContent()).toContain('this page: 2,500,000.00 NOK');
      expect(await page.getByLabel('Amount at least').inputValue()).toBe('1 000 000.00');
      await page.goto(`${f.base}/console/reconciliation?company=acme&age=nonsense`);
      expect(await page.locator('main').textContent()).toContain('The age is one of');
    },
    TEST_MS,
  );

  it(
    'acknowledges several findings with one reason, one audit entry each; refuses a batch that does not fit and a viewer',
    async () => {
      const vera = await signIn('vera');
      await vera.goto(`${f.base}/console/reconciliation?company=acme`);
      expect(await vera.locator('input[type=checkbox][form=bulk]').count()).toBe(0);
      const token = await vera.locator('input[name=_csrf]').first().inputValue();
      const refused = await vera.context().request.post(`${f.base}/console/findings/bulk?company=acme`, {
        form: { _csrf: token, company: 'acme', reason: 'not mine', verb: 'ack', 'f-F-A': '1' },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);

      const olga = await signIn('olga');
      await olga.goto(`${f.base}/console/reconciliation?company=acme`);
      // A proposed match is not acknowledged: the whole batch is refused, nothing decided.
      await olga.getByLabel('Select finding F-A').check();
      await olga.getByLabel('Select finding F-C').check();
      await olga.locator('#bulk-reason').fill('bank fees');
      await olga.getByRole('button', { name: 'Acknowledge selected' }).click();
      expect(await olga.locator('main').textContent()).toContain('F-C (match_proposed)');
      expect([await decision('F-A'), await decision('F-C')]).toEqual(['open', 'open']);

      await olga.goto(`${f.base}/console/reconciliation?company=acme&decision=needs-person`);
      // Vera's refusal becomes a `console.refused` entry when a timer closes its minute, which on a
      // slow machine can fall between these two reads: only the changes are counted.
      const before = auditChanges(await f.app.store.audit.list()).length;
      await olga.getByLabel('Select finding F-A').check();
      await olga.getByLabel('Select finding F-B').check();
      await olga.locator('#bulk-reason').fill('bank fees, booked by hand');
      await olga.getByRole('button', { name: 'Acknowledge selected' }).click();
      await olga.waitForURL(/decision=needs-person/);
      expect([await decision('F-A'), await decision('F-B')]).toEqual(['acknowledged', 'acknowledged']);
      expect((await rows(olga)).sort()).toEqual(['F-C', 'F-D']);
      const all = auditChanges(await f.app.store.audit.list());
      // In the page's order (newest first), each its own entry.
      const added = all
        .filter((e) => e.action === 'finding.acknowledge')
        .sort((x, y) => x.subject.id.localeCompare(y.subject.id));
      expect(all.length - before).toBe(2);
      expect(added.map((e) => [e.action, e.subject.id, e.actor, e.origin, e.reason])).toEqual([
        ['finding.acknowledge', 'acme/F-A', 'local:olga', 'console@127.0.0.1', 'bank fees, booked by hand'],
        ['finding.acknowledge', 'acme/F-B', 'local:olga', 'console@127.0.0.1', 'bank fees, booked by hand'],
      ]);
      await check(olga, 'reconciliation-bulk-acknowledged');
    },
    TEST_MS,
  );

  it(
    'assigns a finding to the one who asks, and "assigned to me" shows it',
    async () => {
      const olga = await signIn('olga');
      await olga.goto(`${f.base}/console/reconciliation?company=acme`);
      const row = olga.locator('tr', { has: olga.locator('#finding-F-C') });
      await row.getByRole('button', { name: 'Assign to me' }).click();
      await olga.waitForURL(/#finding-F-C$/);
      expect((await f.app.store.findings.find('F-C', 'acme'))[0]!.assignedTo).toBe('olga@acme.example');
      await olga.getByLabel('Assigned to me').check();
      await olga.getByRole('button', { name: 'Filter' }).click();
      await olga.waitForURL(/mine=1/);
      expect(await rows(olga)).toEqual(['F-C']);
      expect(await olga.locator('main table').first().textContent()).toContain('olga@acme.example');
      await check(olga, 'reconciliation-assigned');
    },
    TEST_MS,
  );

  it(
    'signs a period off once nothing in it needs a person, exports it with the signer, and shows it reopened',
    async () => {
      const olga = await signIn('olga');
      await olga.goto(`${f.base}/console/reconciliation?company=acme`);
      await olga.getByLabel('Month or day').fill('2026-01');
      await olga.getByRole('button', { name: 'Sign off' }).click();
      const refusal = (await olga.locator('main').textContent())!;
      expect(refusal).toContain('2026-01 cannot be signed off while 1 finding about its days needs a person');
      expect(refusal).toContain('F-C');
      expect(await f.app.store.signoffs.get('acme', '2026-01')).toBeUndefined();
      await check(olga, 'reconciliation-signoff-refused');

      await olga.goto(`${f.base}/console/reconciliation?company=acme`);
      await olga.locator('#reason-F-C-confirm').fill('the invoice matches');
      await olga.getByRole('button', { name: 'Confirm match', exact: true }).click();
      await olga.waitForURL(/#finding-F-C$/);
      await olga.getByLabel('Month or day').fill('2026-01');
      await olga.getByLabel('Note').fill('January closed');
      await olga.getByRole('button', { name: 'Sign off' }).click();
      await olga.waitForURL(/#period-2026-01$/);
      const periods = (await olga.locator('section[aria-labelledby=periods]').textContent())!;
      expect(periods).toContain('2026-01 (2026-01-01 to 2026-01-31)');
      expect(periods).toContain('local:olga');
      expect(await f.app.store.audit.list({ subject: { type: 'period', id: 'acme/2026-01' } })).toEqual([
        expect.objectContaining({ action: 'period.signoff', actor: 'local:olga', origin: 'console@127.0.0.1' }),
      ]);
      await check(olga, 'reconciliation-signed-off');

      const csvHref = await olga.getByRole('link', { name: 'CSV', exact: true }).getAttribute('href');
      const csv = await olga.context().request.get(`${f.base}${csvHref!}`);
      expect(csv.headers()['content-disposition']).toContain('attachment');
      expect(await csv.text()).toContain(
        'period,acme,2026-01,2026-01-01,2026-01-31,signed,local:olga,olga@acme.example',
      );
      const [html] = await Promise.all([
        olga.waitForResponse((r) => r.url().includes('/console/periods/2026-01/html')),
        olga.getByRole('link', { name: 'HTML', exact: true }).click(),
      ]);
      expect(html.headers()['content-security-policy']).toContain('sandbox');
      expect(await olga.locator('h1').textContent()).toBe('Period 2026-01 signed off: ACME AS');
      expect(await olga.locator('body').textContent()).toContain('local:olga (olga@acme.example)');
      await screenshot(olga, 'console', 'signoff-export');
      // The sandbox lets no script run, axe's neither: the same document is checked in a page of its own.
      const copy = await olga.context().newPage();
      await copy.setContent(await html.text());
      await check(copy, 'signoff-export-checked');

      // A later run finds a debit on 20 January: the period is reopened, with the reason, on the page.
      await f.app.store.findings.recordRun('acme', 'run-2', [...RUN, seen('F-E', { factDate: '2026-01-20' })]);
      await olga.goto(`${f.base}/console/reconciliation?company=acme`);
      const reopened = (await olga.locator('section[aria-labelledby=periods]').textContent())!;
      expect(reopened).toContain('reopened');
      expect(reopened).toContain('finding F-E (unexpected_debit, 2026-01-20) new since the sign-off');
      await check(olga, 'reconciliation-period-reopened');
    },
    TEST_MS,
  );
});
