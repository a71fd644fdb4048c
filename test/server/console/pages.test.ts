// The console's pages against a real SQLite store with seeded data: what each page shows, the
// payroll role, the single-use approval link (never on a page; shown on request, recorded),
// finding decisions with their role checks inside the actions, and hostile data from outside
// (`<script>`, `"onmouseover=`, U+202E) escaped on every page.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import type { LocalDate } from '../../../src/domain/local-date.js';
import type { Role } from '../../../src/domain/roles.js';
import type {
  ActionRequest,
  ActionResult,
  ConsoleAction,
  ConsoleDeps,
  ConsolePage,
  PageRequest,
  PageResult,
} from '../../../src/server/console/page.js';
import { CONSOLE_ACTIONS, CONSOLE_PAGES } from '../../../src/server/console/pages/index.js';
import { createStore, openDatabase, type Database, type Store } from '../../../src/store/index.js';
import { oneLineBulk, payment, paymentFile } from '../../store/fixtures.js';
import { recordSent } from '../../../jobs/submit/index.js';

const HOSTILE = '<script>alert(1)</script>"onmouseover=alert(2) \u202Egnp.exe';
const SCA_LINK = 'https://bank.example/sca/one-time-7f3a9c';
const PAYROLL_ACCOUNT = 'NO6512345678903';

function page(path: string): ConsolePage {
  const found = CONSOLE_PAGES.find((p) => p.path === path);
  if (!found) throw new Error(`no page ${path}`);
  return found;
}

function action(path: string): ConsoleAction {
  const found = CONSOLE_ACTIONS.find((a) => a.path === path);
  if (!found) throw new Error(`no action ${path}`);
  return found;
}

function request(roles: Role[], options: { query?: Record<string, string>; params?: Record<string, string> } = {}) {
  const req: PageRequest = {
    user: {
      id: `local:${roles.join('+')}`,
      person: roles.join('+'),
      name: roles.join('+'),
      rolesByCompany: new Map([['acme', new Set<Role>(roles)]]),
    },
    company: 'acme',
    query: new URLSearchParams({ company: 'acme', ...options.query }),
    params: options.params ?? {},
    csrfToken: 'csrf-token-1',
  };
  return req;
}

function actionRequest(
  roles: Role[],
  params: Record<string, string>,
  form: Record<string, string> = {},
): ActionRequest {
  const req = request(roles, { params });
  return { ...req, form, origin: { actor: req.user.id, address: '127.0.0.1' } };
}

/** What every page must never carry: the raw hostile text or the approval link. */
function expectSafe(result: PageResult | ActionResult): void {
  const html = 'body' in result ? result.body : '';
  expect(html).not.toContain('<script>');
  expect(html).not.toContain('"onmouseover=');
  expect(html).not.toContain('\u202E');
}

describe('console pages on SQLite', () => {
  let dir: string;
  let db: Database;
  let store: Store;
  let deps: ConsoleDeps;
  const clock = new ManualClock('2026-01-05T08:00:00Z');
  const ids: { file: string; rejected: string; payment: string; payroll: string; basket: string } = {
    file: '',
    rejected: '',
    payment: '',
    payroll: '',
    basket: '',
  };

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'settle-console-pages-'));
    db = await openDatabase({ url: `sqlite:${path.join(dir, 'console.sqlite')}` });
    await db.migrate();
    store = createStore(db, clock);
    deps = {
      store,
      clock,
      companies: [
        {
          id: 'acme',
          name: 'Acme AS',
          timeZone: 'Europe/Oslo',
          organisationNumber: '999999999',
          bankIds: ['testbank'],
          payrollAccounts: [PAYROLL_ACCOUNT],
        },
      ],
    };
    const file = await store.files.recordAcceptedFile(paymentFile(`${HOSTILE}-file`), [
      payment(1, { endToEndId: 'E2E-HOSTILE', creditorName: HOSTILE, remittanceInformation: HOSTILE }),
      payment(2, { endToEndId: 'E2E-SALARY', categoryPurpose: 'SALA', creditorName: 'Kari Nordmann' }),
      payment(3, { endToEndId: 'E2E-PAYROLL-ACCOUNT', debtorIban: PAYROLL_ACCOUNT, creditorName: 'Ola Nordmann' }),
      payment(4, { endToEndId: 'E2E-PLAIN', amount: { minor: 123_450n, currency: 'NOK' } }),
    ]);
    ids.file = file.id;
    const rejected = await store.files.recordRejectedFile(
      paymentFile(`${HOSTILE}-rejected`),
      `line 3: creditor name ${HOSTILE} is not valid`,
      { lineCount: 3, rejectedCount: 1 },
    );
    ids.rejected = rejected.id;
    const lines = await store.payments.listByFile(file.id);
    ids.payment = lines.find((p) => p.endToEndId === 'E2E-HOSTILE')!.id;
    ids.payroll = lines.find((p) => p.endToEndId === 'E2E-SALARY')!.id;
    const [bulk] = await store.bulks.createBulks(file.id, [
      {
        position: 0,
        debtorIban: 'NO9386011117947',
        executionDate: '2026-01-06' as LocalDate,
        batchBooking: false,
        paymentIds: lines.map((p) => p.id),
      },
    ]);
    await store.bulks.markSending(bulk!.id);
    await recordSent(store, bulk!.id, { bankPaymentId: 'BANK-PAY-1', bankId: 'testbank', consentId: 'CONSENT-TB-1' });
    const basket = await store.baskets.create('acme', [bulk!.id]);
    await store.baskets.markCreated(basket.id, 'BANK-BASKET-1');
    await store.baskets.issueLink(basket.id, SCA_LINK, new Date('2026-01-08T08:00:00Z'));
    ids.basket = basket.id;
    await store.findings.recordRun('acme', 'run-1', [
      {
        id: 'F-UNMATCHED',
        type: 'unmatched_payment',
        factHash: 'h1',
        subject: `payment E2E-HOSTILE to ${HOSTILE}`,
        summary: HOSTILE,
      },
      {
        id: 'F-PROPOSED',
        type: 'match_proposed',
        factHash: 'h2',
        subject: 'payment E2E-PLAIN',
        summary: 'amount and date fit',
      },
    ]);
    await store.statements.upsertAccount({
      id: 'acc-1',
      company: 'acme',
      iban: 'NO9386011117947',
      currency: 'NOK',
      name: HOSTILE,
    });
    await store.statements.upsertAccount({ id: 'acc-2', company: 'acme', iban: 'NO1111111111111' });
    await store.accountStatus.record('acc-1', 'enabled', new Date('2026-01-04T08:00:00Z'));
    await store.accountStatus.record('acc-2', 'blocked', new Date('2026-01-04T08:00:00Z'));
    await store.statementDays.record({
      accountId: 'acc-1',
      day: '2026-01-04' as LocalDate,
      currency: 'NOK',
      openingMinor: 100_000n,
      closingMinor: 90_000n,
      bookedSumMinor: -10_000n,
      entryCount: 2,
      continuity: 'ok',
    });
    await store.statementDays.record({
      accountId: 'acc-1',
      day: '2026-01-03' as LocalDate,
      currency: 'NOK',
      entryCount: 0,
      continuity: 'gap',
      finding: `no statement: ${HOSTILE}`,
    });
    await store.exports.record({
      company: 'acme',
      format: 'camt.053.001.02',
      subjectId: 'acc-1',
      period: '2026-01-04',
      fileName: 'acme-NO9386011117947-2026-01-04.xml',
      entryCount: 2,
    });
    await store.consents.record({
      company: 'acme',
      bankId: 'bank-1',
      consentId: 'consent-1',
      status: 'Authorized',
      expiresAt: new Date('2026-03-01T00:00:00Z'),
      statusAt: clock.now(),
      source: 'onboarding',
    });
  });

  afterAll(async () => {
    await db?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const load = (path: string, roles: Role[], options: Parameters<typeof request>[1] = {}) =>
    page(path).load(deps, request(roles, options));

  it('escapes hostile names, remittance and file names on every page', async () => {
    const views: [string, Parameters<typeof request>[1]][] = [
      ['/console/files', {}],
      ['/console/files/:id', { params: { id: ids.file } }],
      ['/console/files/:id', { params: { id: ids.rejected } }],
      ['/console/payments', { query: { creditor: '<script>' } }],
      ['/console/payments', {}],
      ['/console/payments/:id', { params: { id: ids.payment } }],
      ['/console/approvals', {}],
      ['/console/approvals/:id', { params: { id: ids.basket } }],
      ['/console/reconciliation', {}],
      ['/console/statements', {}],
      ['/console/banks', {}],
    ];
    for (const [path, options] of views) {
      for (const roles of [['viewer'], ['approver', 'finance', 'payroll']] as Role[][]) {
        const result = await load(path, roles, options);
        expect(result.status ?? 200, path).toBeLessThan(300);
        expectSafe(result);
      }
    }
    const files = await load('/console/files', ['viewer']);
    expect(files.body).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover=alert(2) [U+202E]gnp.exe-file.csv',
    );
    const story = await load('/console/payments/:id', ['viewer'], { params: { id: ids.payment } });
    expect(story.body).toContain('&lt;script&gt;');
    // A search echoes what was typed, escaped.
    const search = await load('/console/payments', ['viewer'], { query: { creditor: HOSTILE } });
    expect(search.body).toContain('value="&lt;script&gt;');
  });

  it('shows hostile text of the audit trail escaped, bidirectional controls as their code point', async () => {
    await store.audit.append({
      actor: 'local:mallory',
      action: 'console /console/findings/:id/ack',
      subject: { type: 'finding', id: HOSTILE },
      reason: HOSTILE,
      origin: 'console@127.0.0.1',
      details: { company: 'acme' },
    });
    const audit = await load('/console/audit', ['operator']);
    expectSafe(audit);
    expect(audit.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;onmouseover=alert(2) [U+202E]gnp.exe');
  });

  it('lists files with state, lines, totals and the error report', async () => {
    const files = await load('/console/files', ['viewer']);
    expect(files.body).toContain('<caption>Payment files, newest first</caption>');
    expect(files.body).toContain('<th scope="col">Totals</th>');
    expect(files.body).toMatch(/rejected/);
    expect(files.body).toContain('#error-report');
    const rejected = await load('/console/files/:id', ['viewer'], { params: { id: ids.rejected } });
    expect(rejected.body).toContain('id="error-report"');
    expect(rejected.body).toContain('line 3: creditor name');
    const onlyRejected = await load('/console/files', ['viewer'], { query: { state: 'rejected' } });
    expect(onlyRejected.body).toContain('-rejected.csv');
    expect(onlyRejected.body).not.toContain('-file.csv');
  });

  it("tells a payment's whole story, times in the company's zone", async () => {
    const story = await load('/console/payments/:id', ['viewer'], { params: { id: ids.payment } });
    expect(story.body).toContain('line 1');
    expect(story.body).toContain('BANK-PAY-1');
    expect(story.body).toMatch(/Sent under<\/th>\s*<td>testbank consent CONSENT-TB-1</);
    expect(story.body).toContain(ids.basket);
    expect(story.body).toContain('BANK-BASKET-1');
    expect(story.body).toContain('2026-01-05 09:00 Europe/Oslo');
    for (const state of ['accepted', 'sending', 'sent', 'link_issued']) expect(story.body).toContain(state);
    expect(story.body).toContain('F-UNMATCHED');
    expect(story.body).not.toContain(SCA_LINK);
    const missing = await load('/console/payments/:id', ['viewer'], { params: { id: 'nope' } });
    expect(missing.status).toBe(404);
  });

  it('searches by exact amount, reference and state, and says what is wrong with a bad field', async () => {
    const byAmount = await load('/console/payments', ['viewer'], { query: { amount: '1234.50', currency: 'NOK' } });
    expect(byAmount.body).toContain('E2E-PLAIN');
    expect(byAmount.body).not.toContain('E2E-HOSTILE');
    const byE2e = await load('/console/payments', ['viewer'], { query: { e2e: 'E2E-PLAIN' } });
    expect(byE2e.body).toContain('1,234.50 NOK');
    const tooPrecise = await load('/console/payments', ['viewer'], { query: { amount: '1234.505', currency: 'NOK' } });
    expect(tooPrecise.status).toBe(400);
    expect(tooPrecise.body).toContain('is not an exact amount');
    const badDate = await load('/console/payments', ['viewer'], { query: { from: '2026-02-30' } });
    expect(badDate.status).toBe(400);
    expect(badDate.body).toContain('is not a calendar date');
    const badCursor = await load('/console/payments', ['viewer'], { query: { after: 'garbage' } });
    expect(badCursor.status).toBe(400);
  });

  it("shows payroll lines' amounts and creditors only to the payroll role", async () => {
    const viewer = await load('/console/payments', ['viewer']);
    expect(viewer.body).not.toContain('Kari Nordmann');
    expect(viewer.body).not.toContain('Ola Nordmann');
    expect(viewer.body).toContain('payroll (hidden)');
    const payroll = await load('/console/payments', ['viewer', 'payroll']);
    expect(payroll.body).toContain('Kari Nordmann');
    expect(payroll.body).toContain('Ola Nordmann');
    // Nor can a search by the creditor or the amount find a payroll line for someone without the role.
    const probe = { creditor: 'Kari' };
    expect((await load('/console/payments', ['viewer'], { query: probe })).body).not.toContain('E2E-SALARY');
    expect((await load('/console/payments', ['payroll'], { query: probe })).body).toContain('E2E-SALARY');
    const story = await load('/console/payments/:id', ['approver'], { params: { id: ids.payroll } });
    expect(story.body).not.toContain('Kari Nordmann');
    const approvals = await load('/console/approvals', ['approver']);
    expect(approvals.body).not.toContain('Kari Nordmann');
    expect(approvals.body).toContain('payroll (hidden)');
  });

  it('lists waiting baskets with every payment and totals, never with the link', async () => {
    const approver = await load('/console/approvals', ['approver']);
    expect(approver.body).toContain(ids.basket);
    expect(approver.body).toContain('E2E-PLAIN');
    expect(approver.body).toContain('<th scope="row">Payments</th><td>4</td>');
    // Without the payroll role, the totals are the visible lines' (the whole less them would give
    // the salaries), with a note; the payroll role sees the whole, exact to the øre.
    expect(approver.body).toContain(
      '<th scope="row">Totals</th><td>1,357.95 NOK<span class="muted"> (visible lines only: 2 payroll lines left out)</span></td>',
    );
    expect(approver.body).not.toContain('1,975.20');
    expect((await load('/console/approvals', ['approver', 'payroll'])).body).toContain(
      '<th scope="row">Totals</th><td>1,975.20 NOK</td>',
    );
    expect(approver.body).not.toContain(SCA_LINK);
    expect(approver.body).toContain(`action="/console/approvals/${ids.basket}/link?company=acme"`);
    expect(approver.body).toContain('name="_csrf" value="csrf-token-1"');
    const viewer = await load('/console/approvals', ['viewer']);
    expect(viewer.body).not.toContain('/link?');
    expect(viewer.body).not.toContain(SCA_LINK);
  });

  it('shows a basket as a payment order: payees, remittance, file, first payments, released holds and totals per account', async () => {
    const lines = await store.payments.listByFile(ids.file);
    const plain = lines.find((p) => p.endToEndId === 'E2E-PLAIN')!;
    await db.knex('held_payments').insert({
      id: 'held-plain',
      payment_id: plain.id,
      company: 'acme',
      matched_payment_id: lines[0]!.id,
      reason: 'held by payment controls: changed-account: …',
      rules: 'changed-account',
      releases_needed: 2,
      held_at: '2026-01-05T07:00:00.000Z',
      first_released_by: 'local:kari',
      first_released_person: 'kari@acme.example',
      first_released_at: '2026-01-05T07:30:00.000Z',
      first_release_reason: 'called the supplier',
      decision: 'released',
      decided_by: 'local:ola',
    });
    const page = (await load('/console/approvals', ['approver'])).body;
    expect(page).toContain('<h2>4 payments, 1,357.95 NOK, waiting for approval</h2>');
    expect(page).toContain('1,357.95 NOK<span class="muted"> (visible lines only: 2 payroll lines left out)</span>');
    expect(page).toContain('Waiting for an approver <span class="muted">(link_issued)</span>');
    for (const head of ['ERP reference', 'Creditor account', 'Remittance', 'File', 'Dropped by'])
      expect(page).toContain(`<th scope="col">${head}</th>`);
    expect(page).toContain('-file.csv');
    expect(page).toContain('never paid before: first payment to this account');
    // Which rule held it and both people who released it.
    expect(page).toContain('held by Changed creditor account (changed-account), released by local:kari and local:ola');
    // So does the payment's own page.
    const story = await load('/console/payments/:id', ['viewer'], { params: { id: plain.id } });
    expect(story.body).toContain(
      '<th scope="row">Hold</th><td>held by Changed creditor account (changed-account), released by local:kari and local:ola</td>',
    );
    expect(page).toMatch(/Total from NO9386011117947<\/th><td>1,357\.95 NOK/);
    expect(page).not.toContain(`Total from ${PAYROLL_ACCOUNT}`);
    // Once a line to the account was paid, the account is no longer a first payment.
    const { line, bulk } = await oneLineBulk(store, 'paid-before');
    await store.bulks.markSending(bulk.id);
    await recordSent(store, bulk.id, { bankPaymentId: 'BANK-PAY-3', bankId: 'testbank', consentId: 'CONSENT-TB-1' });
    await store.payments.applyBankStatus([line.id], { status: 'ACSC', cause: 'status poll', source: 'poll' });
    const after = (await load('/console/approvals', ['approver'])).body;
    const plainRow = after.split('<tr>').find((r) => r.includes('>E2E-PLAIN</a>'))!;
    expect(plainRow).not.toContain('first payment to this account');
    await db.knex('held_payments').where({ id: 'held-plain' }).delete();
  });

  it("marks on Today the waiting approvals whose link expires within the link warning period, by settle's basket id", async () => {
    const { bulk } = await oneLineBulk(store, 'later-file');
    const later = await store.baskets.create('acme', [bulk.id]);
    await store.baskets.markCreated(later.id, 'BANK-BASKET-LATER');
    // Issued just now, valid for the 7 days a link lives at most: not "expiring soon".
    await store.baskets.issueLink(later.id, `${SCA_LINK}-later`, new Date('2026-01-12T08:00:00Z'));
    const { bulk: soonBulk } = await oneLineBulk(store, 'soon-file');
    const soonBasket = await store.baskets.create('acme', [soonBulk.id]);
    await store.baskets.markCreated(soonBasket.id, 'BANK-BASKET-SOON');
    await store.baskets.issueLink(soonBasket.id, `${SCA_LINK}-soon`, new Date('2026-01-05T20:00:00Z'));
    const today = await load('/console/', ['viewer']);
    const row = (id: string, body = today.body) =>
      body.split('\n').find((l) => l.includes(`>${id}</a>`) && l.includes('link_issued'));
    // The clock says 2026-01-05 08:00; the default link warning period is 1 day. Both links were
    // issued just now: neither expires soon, though the short one ends within the day.
    expect(row(soonBasket.id)).toContain('(12 hours 0 minutes left)');
    expect(row(soonBasket.id)).not.toContain('expires soon');
    expect(row(later.id)).toBeDefined();
    expect(row(later.id)).toContain('(7 days 0 hours left)');
    expect(row(later.id)).not.toContain('expires soon');
    expect(row(ids.basket)).not.toContain('expires soon');
    // Past half of its life and within the warning period, the short one does.
    clock.set('2026-01-05T16:30:00Z');
    try {
      const afternoon = await load('/console/', ['viewer']);
      expect(row(soonBasket.id, afternoon.body)).toContain('<span class="warn">expires soon</span>');
      expect(row(soonBasket.id, afternoon.body)).toContain('(3 hours 30 minutes left)');
    } finally {
      clock.set('2026-01-05T08:00:00Z');
    }
    expect(today.body).not.toContain('>BANK-BASKET-');
    expect(today.body).toContain('<h2 id="links">Approval links near expiry (1)</h2>');
    expect(today.body).not.toContain(SCA_LINK);
    clock.set('2026-01-09T08:00:00Z');
    try {
      const after = await load('/console/', ['viewer']);
      expect(after.body).toContain('<span class="bad">(expired)</span>');
    } finally {
      clock.set('2026-01-05T08:00:00Z');
    }
    await store.baskets.markAuthorised(later.id);
    await store.baskets.markAuthorised(soonBasket.id);
  });

  it('shows the approval link only to an approver who asks, and records that it was shown', async () => {
    const show = action('/console/approvals/:id/link');
    const refused = await show.handle(deps, actionRequest(['viewer', 'finance'], { id: ids.basket }));
    expect(refused).toMatchObject({ status: 403 });
    expect(JSON.stringify(refused)).not.toContain(SCA_LINK);
    expect(await store.audit.list({ subject: { type: 'basket', id: ids.basket } })).toEqual([]);
    const shown = await show.handle(deps, actionRequest(['approver'], { id: ids.basket }));
    expect(shown).toMatchObject({ status: 200 });
    expect('body' in shown && shown.body).toContain(SCA_LINK);
    const entries = await store.audit.list({ subject: { type: 'basket', id: ids.basket } });
    expect(entries.map((e) => [e.action, e.actor, e.origin])).toEqual([
      ['approval.link_shown', 'local:approver', 'console@127.0.0.1'],
    ]);
    const unknown = await show.handle(deps, actionRequest(['approver'], { id: 'no-such-basket' }));
    expect(unknown).toMatchObject({ status: 404 });
  });

  it('lets finance acknowledge, confirm and reopen findings, and refuses others inside the action', async () => {
    const ack = action('/console/findings/:id/ack');
    const confirm = action('/console/findings/:id/confirm');
    const reopen = action('/console/findings/:id/reopen');
    const refused = await ack.handle(
      deps,
      actionRequest(['viewer', 'approver'], { id: 'F-UNMATCHED' }, { reason: 'x' }),
    );
    expect(refused).toMatchObject({ status: 403 });
    expect((await store.findings.find('F-UNMATCHED', 'acme'))[0]!.decision).toBe('open');
    expect(await ack.handle(deps, actionRequest(['finance'], { id: 'F-UNMATCHED' }, { reason: ' ' }))).toMatchObject({
      status: 400,
    });
    const done = await ack.handle(deps, actionRequest(['finance'], { id: 'F-UNMATCHED' }, { reason: 'booked late' }));
    expect(done).toEqual({ redirect: '/console/reconciliation?company=acme#finding-F-UNMATCHED', audited: true });
    const acked = (await store.findings.find('F-UNMATCHED', 'acme'))[0]!;
    expect([acked.decision, acked.decidedBy, acked.decidedReason]).toEqual([
      'acknowledged',
      'local:finance',
      'booked late',
    ]);
    expect(
      await confirm.handle(deps, actionRequest(['finance'], { id: 'F-UNMATCHED' }, { reason: 'r' })),
    ).toMatchObject({
      status: 409,
    });
    expect(
      await confirm.handle(deps, actionRequest(['finance'], { id: 'F-PROPOSED' }, { reason: 'fits' })),
    ).toHaveProperty('redirect');
    expect((await store.findings.find('F-PROPOSED', 'acme'))[0]!.decision).toBe('confirmed');
    await reopen.handle(deps, actionRequest(['finance'], { id: 'F-UNMATCHED' }, { reason: 'wrong' }));
    expect((await store.findings.find('F-UNMATCHED', 'acme'))[0]!.decision).toBe('open');
    const audit = await store.audit.list({ subject: { type: 'finding', id: 'acme/F-UNMATCHED' } });
    expect(audit.map((e) => e.action)).toEqual(['finding.acknowledge', 'finding.reopen']);
    // The page offers the forms to finance only.
    expect((await load('/console/reconciliation', ['finance'])).body).toContain('/console/findings/F-UNMATCHED/ack');
    expect((await load('/console/reconciliation', ['viewer'])).body).not.toContain('method="post"');
  });

  it('shows statement days with continuity, balances and exports, and accounts with their status', async () => {
    const statements = await load('/console/statements', ['viewer'], { query: { account: 'acc-1' } });
    expect(statements.body).toContain('2026-01-04');
    expect(statements.body).toContain('1,000.00 NOK');
    expect(statements.body).toContain('900.00 NOK');
    expect(statements.body).toContain('acme-NO9386011117947-2026-01-04.xml');
    expect(statements.body).toMatch(/gap/);
    const banks = await load('/console/banks', ['viewer']);
    expect(banks.body).toContain('consent-1');
    expect(banks.body).toContain('Authorized');
    expect(banks.body).toContain('2026-03-01 01:00 Europe/Oslo');
    expect(banks.body).toMatch(/enabled<\/td><td>yes/);
    expect(banks.body).toMatch(/blocked<\/td><td>no/);
  });

  // Last: it records a reconciliation run of its own, which the tests above must not see.
  it("shows a rejected payment's bank reason in plain words and the finding reconciliation wrote about it", async () => {
    const { line, bulk } = await oneLineBulk(store, 'ACME-2026-0003');
    await store.bulks.markSending(bulk.id);
    await recordSent(store, bulk.id, { bankPaymentId: 'BANK-PAY-2', bankId: 'testbank', consentId: 'CONSENT-TB-1' });
    await store.payments.applyBankStatus([line.id], {
      status: 'RJCT',
      cause: 'status poll',
      source: 'poll',
      tppMessages: [{ code: 'AC04', message: 'Closed account number' }],
    });
    // As the reconcile job names it: by settle's payment id, not the end-to-end id.
    await store.findings.recordRun('acme', 'run-2', [
      {
        id: 'F-REJECTED',
        type: 'rejected',
        factHash: 'h3',
        subject: `payment ${line.id}`,
        summary: 'Rejected by the bank',
      },
      {
        id: 'F-SALARY',
        type: 'unmatched_payment',
        factHash: 'h4',
        subject: `payment ${ids.payroll}`,
        summary: 'not booked: 246.90 NOK to Kari Nordmann',
      },
    ]);
    const story = await load('/console/payments/:id', ['viewer'], { params: { id: line.id } });
    expect(story.body).toContain('RJCT — Rejected by the bank: AC04 Closed account number');
    expect(story.body).toContain('ask the creditor for their new account number');
    expect(story.body).toContain('F-REJECTED');
    expect(story.body).not.toMatch(/findings about it<\/caption>[\s\S]*none/);
    // Reconciliation names what each finding is about in money and counterparty, not by id.
    const recon = (await load('/console/reconciliation', ['finance'])).body;
    expect(recon).toContain('>ACME-2026-0003-1</a> — Supplier 1 (NO8330001234567), 123.45 NOK');
    expect(recon).not.toContain(`payment ${line.id}`);
    expect(recon).toContain('payroll (hidden)');
    expect(recon).not.toContain('Kari Nordmann');
    expect(recon).toContain('At stake in the open findings on this page: 123.45 NOK.');
    // The finding's sentence names the salary too: hidden with it, on Reconciliation and Today.
    expect(recon).not.toContain('246.90');
    // Today's findings are for whoever opens Reconciliation (src/server/console/access.ts).
    expect((await load('/console/', ['viewer'])).body).not.toContain('<h2 id="findings">');
    const today = (await load('/console/', ['finance'])).body;
    expect(today).toContain('>ACME-2026-0003-1</a> — Supplier 1 (NO8330001234567), 123.45 NOK');
    expect(today).not.toContain('246.90');
    expect(today).not.toContain('Kari Nordmann');
    expect((await load('/console/', ['viewer', 'payroll'])).body).toContain('not booked: 246.90 NOK to Kari Nordmann');
    const payroll = (await load('/console/reconciliation', ['finance', 'payroll'])).body;
    expect(payroll).toContain('Kari Nordmann');
    expect(payroll).toContain('At stake in the open findings on this page: 370.35 NOK.');
  });
});
