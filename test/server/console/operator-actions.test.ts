// The console's operator actions against a real store (SQLite, and MariaDB when it is there) and
// the sandbox bank over HTTP,
// through the same use cases as the CLI: an operator resolves an unknown bulk, releases or
// rejects a held duplicate, and cancels a waiting payment after a preview that shows every line
// of its bulk; a viewer sees the lists without forms and is refused (403) inside the action, so
// the router records the refusal; with four eyes the one who asked cannot confirm, a second
// operator confirms (the bulk is cancelled at the sandbox) or declines; ACSP is refused with the
// reason. Each change is one entry of the hash-chained audit trail with who and from where.
import { afterEach, describe, expect, it } from 'vitest';
import { runStatus } from '../../../jobs/status/poll.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
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
import { consolePersonOf } from '../../../src/server/console/people.js';
import { APPROVAL_IBAN, bankBulks, createWorld, type World } from '../../jobs/payments/world.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../../support/mariadb.js';
import { holdDuplicatesSince } from '../../store/fixtures.js';

const HOSTILE = '<script>alert(1)</script>"onmouseover=alert(2) \u202Egnp.exe';

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

/** The console's people: one person each, whichever way they sign in. */
const WHO_IS_WHO = {
  localUsers: [],
  people: new Map([
    ['acme', ['olga', 'otto', 'vera'].map((n) => ({ name: n, email: `${n}@acme.example`, roles: [] }))],
  ]),
};

function request(who: string, roles: Role[], params: Record<string, string> = {}): PageRequest {
  return {
    user: {
      id: `local:${who}`,
      person: consolePersonOf(WHO_IS_WHO, { id: `local:${who}`, email: `${who}@acme.example` }),
      name: who,
      rolesByCompany: new Map([['acme', new Set<Role>(roles)]]),
    },
    company: 'acme',
    query: new URLSearchParams({ company: 'acme' }),
    params,
    csrfToken: 'csrf-token-1',
  };
}

function post(who: string, roles: Role[], params: Record<string, string>, form: Record<string, string>): ActionRequest {
  const req = request(who, roles, params);
  return { ...req, form, origin: { actor: req.user.id, address: '192.0.2.7' } };
}

const OLGA: [string, Role[]] = ['olga', ['operator']];
const OTTO: [string, Role[]] = ['otto', ['operator']];
const VERA: [string, Role[]] = ['vera', ['viewer']];

function body(r: PageResult | ActionResult): string {
  return 'body' in r ? r.body : '';
}

const useMaria = await mariaDbForTests();

function suite(name: string, maria: boolean): void {
  describe(`console operator actions on ${name} with the sandbox`, () => {
    let w: World | undefined;
    let db: ThrowawayDatabase | undefined;
    afterEach(async () => {
      await w?.close();
      await db?.drop();
      w = undefined;
      db = undefined;
    });

    async function world(company: Record<string, unknown> = {}): Promise<{ w: World; deps: ConsoleDeps }> {
      // On MariaDB a throwaway database per test: end-to-end ids repeat across tests.
      db = maria ? await createThrowawayDatabase() : undefined;
      w = await createWorld({ company, ...(db ? { databaseUrl: db.url } : {}) });
      const current = w;
      const deps: ConsoleDeps = {
        store: current.store,
        clock: current.clock,
        companies: [
          {
            id: 'acme',
            name: 'ACME AS',
            timeZone: 'Europe/Oslo',
            organisationNumber: '999999999',
            bankIds: ['testbank'],
          },
        ],
        operations: { companies: [current.company], bank: () => current.bank, logger: current.logger },
      };
      return { w: current, deps };
    }

    async function paymentId(w: World, endToEndId: string): Promise<string> {
      return (await w.store.payments.findByEndToEndId('acme', endToEndId))!.id;
    }

    it('an operator resolves an unknown bulk with a reason; a viewer sees the list without a form and is refused', async () => {
      const { w, deps } = await world();
      const fileId = await w.acceptFile('pay-1.csv', [{}, {}]);
      const lines = await w.store.payments.listByFile(fileId);
      const [bulk] = await w.store.bulks.createBulks(fileId, [
        {
          position: 0,
          debtorIban: lines[0]!.debtorIban,
          executionDate: lines[0]!.requestedExecutionDate,
          batchBooking: false,
          paymentIds: lines.map((l) => l.id),
        },
      ]);
      await w.store.bulks.markSending(bulk!.id);
      await w.store.bulks.markUnknown(bulk!.id, { title: 'timeout' });

      // Today names it and leads to the page where it is resolved.
      expect(body(await page('/console/').load(deps, request(...OLGA)))).toContain(
        `href="/console/bulks?company=acme#bulk-${bulk!.id}"`,
      );
      const asViewer = await page('/console/bulks').load(deps, request(...VERA));
      expect(body(asViewer)).toContain(bulk!.id);
      expect(body(asViewer)).not.toContain('<form');
      const asOperator = await page('/console/bulks').load(deps, request(...OLGA));
      expect(body(asOperator)).toContain(`action="/console/bulks/${bulk!.id}/resolve?company=acme"`);
      expect(body(asOperator)).toContain('name="_csrf" value="csrf-token-1"');

      const resolve = action('/console/bulks/:id/resolve');
      const refused = await resolve.handle(
        deps,
        post(...VERA, { id: bulk!.id }, { as: 'at-bank', paymentId: 'BANK-1', reason: 'bank said so' }),
      );
      expect(refused).toMatchObject({ status: 403 });
      expect(refused.audited).toBeUndefined(); // the router records the refusal
      expect(body(refused)).toContain('Only an operator of this company may resolve an unknown bulk.');
      expect(await resolve.handle(deps, post(...OLGA, { id: bulk!.id }, { as: 'at-bank', reason: ' ' }))).toMatchObject(
        {
          status: 400,
        },
      );
      expect(
        await resolve.handle(deps, post(...OLGA, { id: bulk!.id }, { as: 'at-bank', reason: 'phoned the bank' })),
      ).toMatchObject({ status: 400, title: 'Payment id missing' });
      expect((await w.store.bulks.get(bulk!.id))!.state).toBe('unknown');

      const done = await resolve.handle(
        deps,
        post(...OLGA, { id: bulk!.id }, { as: 'at-bank', paymentId: 'BANK-1', reason: 'phoned the bank, 09:10' }),
      );
      expect(done).toEqual({ redirect: '/console/bulks?company=acme', audited: true });
      expect(await w.store.bulks.get(bulk!.id)).toMatchObject({ state: 'sent', bankPaymentId: 'BANK-1' });
      expect(await w.store.audit.list()).toEqual([
        expect.objectContaining({
          actor: 'local:olga',
          action: 'bulk.resolve',
          subject: { type: 'bulk', id: bulk!.id },
          reason: 'phoned the bank, 09:10',
          origin: 'console@192.0.2.7',
        }),
      ]);
      // Resolved: no longer listed; a second try is refused with why.
      expect(body(await page('/console/bulks').load(deps, request(...OLGA)))).not.toContain(bulk!.id);
      const again = await resolve.handle(deps, post(...OLGA, { id: bulk!.id }, { as: 'not-at-bank', reason: 'again' }));
      expect(again).toMatchObject({ status: 409 });
      expect(body(again)).toContain('only unknown or attention bulks are resolved by hand');
    }, 60_000);

    it('an operator releases or rejects a held duplicate; hostile names are escaped', async () => {
      const { w, deps } = await world();
      const since = new Date('2026-01-01T00:00:00Z');
      const line = (e2e: string, n: number) => ({
        debtorIban: 'NO9386011117947',
        debtorName: 'ACME AS',
        requestedExecutionDate: '2026-01-07' as never,
        endToEndId: e2e,
        amount: { minor: 1000n * BigInt(n), currency: 'NOK' },
        creditorIban: 'NO0612000000009',
        creditorName: HOSTILE,
        lineNumber: n,
      });
      const file = (name: string, sha: string) => ({
        company: 'acme',
        fileName: name,
        sha256: sha.repeat(64),
        format: 'csv:generic',
        sizeBytes: 10,
        receivedAt: w.clock.now(),
      });
      await w.store.files.recordAcceptedFile(
        file('first.csv', 'a'),
        [line('A-1', 1), line('A-2', 2)],
        0,
        holdDuplicatesSince(since),
      );
      const again = await w.store.files.recordAcceptedFile(
        file(`${HOSTILE}.csv`, 'b'),
        [line('B-1', 1), line('B-2', 2)],
        0,
        holdDuplicatesSince(since),
      );
      expect(again.holds).toHaveLength(2);
      const held = (await w.store.operatorViews.heldPayments('acme')).rows;
      const [one, two] = held;

      const viewerPage = body(await page('/console/held').load(deps, request(...VERA)));
      expect(viewerPage).toContain('B-1');
      expect(viewerPage).not.toContain('<form');
      expect(viewerPage).not.toContain('<script>');
      expect(viewerPage).not.toContain('\u202E');
      expect(body(await page('/console/held').load(deps, request(...OLGA)))).toContain(
        `action="/console/held/${one!.id}/release?company=acme"`,
      );

      const release = action('/console/held/:id/release');
      const drop = action('/console/held/:id/drop');
      expect(await release.handle(deps, post(...VERA, { id: one!.id }, { reason: 'x' }))).toMatchObject({
        status: 403,
      });
      expect(
        await release.handle(deps, post(...OLGA, { id: one!.id }, { reason: 'not a duplicate: two invoices' })),
      ).toEqual({ redirect: '/console/held?company=acme', audited: true });
      expect(await drop.handle(deps, post(...OLGA, { id: two!.id }, { reason: 'sent twice by the ERP' }))).toEqual({
        redirect: '/console/held?company=acme',
        audited: true,
      });
      expect((await w.store.payments.findByEndToEndId('acme', 'B-1'))!.state).toBe('accepted');
      expect((await w.store.payments.findByEndToEndId('acme', 'B-2'))!.state).toBe('CANC');
      expect((await w.store.audit.list()).map((e) => [e.action, e.actor, e.origin])).toEqual([
        ['payment.release', 'local:olga', 'console@192.0.2.7'],
        ['payment.drop', 'local:olga', 'console@192.0.2.7'],
      ]);
      // Decided already: refused with who decided, and the router records that refusal.
      const twice = await drop.handle(deps, post(...OLGA, { id: one!.id }, { reason: 'again' }));
      expect(twice).toMatchObject({ status: 409 });
      expect(twice.audited).toBeUndefined();
      expect(body(twice)).toContain('was already released by local:olga');
      expect((await w.store.operatorViews.heldPayments('acme')).rows).toEqual([]);
    }, 60_000);

    it('previews every line of a bulk at the bank, then cancels the bulk at the sandbox and re-queues the others', async () => {
      const { w, deps } = await world();
      await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }, { debtorIban: APPROVAL_IBAN }]);
      await runSubmit(w.deps('s1'), [w.company]);
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('RCVD');
      const id = await paymentId(w, 'E2E-1-2');

      // The payment's page offers it to an operator only.
      expect(body(await page('/console/payments/:id').load(deps, request(...OLGA, { id })))).toContain(
        `/console/payments/${id}/cancel?company=acme`,
      );
      expect(body(await page('/console/payments/:id').load(deps, request(...VERA, { id })))).not.toContain('/cancel');

      const preview = await page('/console/payments/:id/cancel').load(deps, request(...OLGA, { id }));
      expect(preview.title).toBe('Cancel E2E-1-2?');
      expect(body(preview)).toContain('cancels its bulk of 2 payments at the bank');
      expect(body(preview)).toContain('E2E-1-1');
      expect(body(preview)).toContain('Cancel the whole bulk at the bank');
      expect(body(preview)).toContain('name="confirm" value="yes"');
      // The preview changed nothing.
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('RCVD');
      expect(await w.store.audit.list()).toEqual([]);

      const cancel = action('/console/payments/:id/cancel');
      expect(await cancel.handle(deps, post(...VERA, { id }, { reason: 'x', confirm: 'yes' }))).toMatchObject({
        status: 403,
      });
      // Not confirmed on the preview: back to the preview, nothing done.
      expect(await cancel.handle(deps, post(...OLGA, { id }, { reason: 'wrong creditor' }))).toEqual({
        redirect: `/console/payments/${id}/cancel?company=acme`,
      });
      const done = await cancel.handle(deps, post(...OLGA, { id }, { reason: 'wrong creditor', confirm: 'yes' }));
      expect(done).toMatchObject({ status: 200, audited: true });
      expect(body(done)).toContain('Cancelled at the bank with its whole bulk; the other 1 payment goes again');
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('CANC');
      expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-2'))!.state).toBe('CANC');
      expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-1'))!.state).toBe('queued');
      const trail = await w.store.audit.list();
      expect(trail.map((e) => [e.action, e.actor, e.origin])).toEqual([
        ['payment.cancel.request', 'local:olga', 'console@192.0.2.7'],
        ['payment.cancel', 'local:olga', 'console@192.0.2.7'],
      ]);
      expect(trail[0]!.details).toMatchObject({ channel: 'console' });
      expect((await w.store.audit.verify()).ok).toBe(true);
    }, 60_000);

    it('answers 502 when the bank fails the cancellation, and the same form again finishes it', async () => {
      const { w, deps } = await world();
      await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }]);
      await runSubmit(w.deps('s1'), [w.company]);
      const id = await paymentId(w, 'E2E-1-1');
      const cancel = action('/console/payments/:id/cancel');
      const form = { reason: 'wrong creditor', confirm: 'yes' };
      await w.control('/faults', {
        faults: [{ route: 'DELETE /api/bulk-payments/**', kind: 'error', status: 503, rate: 1 }],
      });
      const failed = await cancel.handle(deps, post(...OLGA, { id }, form));
      expect(failed).toMatchObject({ status: 502 });
      expect(failed.audited).toBeUndefined(); // the router records the failure beside the request
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('RCVD');
      expect((await w.store.operatorViews.openCancellations('acme')).rows).toHaveLength(1);
      await w.control('/faults', undefined, 'DELETE');
      const done = await cancel.handle(deps, post(...OLGA, { id }, form));
      expect(done).toMatchObject({ status: 200, audited: true });
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('CANC');
      expect((await w.store.audit.list()).map((e) => e.action)).toEqual(['payment.cancel.request', 'payment.cancel']);
    }, 60_000);

    it('four eyes: the one who asked cannot confirm; a second operator confirms and the bulk is cancelled at the sandbox', async () => {
      const { w, deps } = await world({ payments: { cancelFourEyes: true } });
      await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }]);
      await runSubmit(w.deps('s1'), [w.company]);
      const id = await paymentId(w, 'E2E-1-1');
      expect(body(await page('/console/payments/:id/cancel').load(deps, request(...OLGA, { id })))).toContain(
        'another operator confirms it',
      );
      const asked = await action('/console/payments/:id/cancel').handle(
        deps,
        post(...OLGA, { id }, { reason: 'paid by card instead', confirm: 'yes' }),
      );
      const [open] = (await w.store.operatorViews.openCancellations('acme')).rows;
      expect(asked).toEqual({
        redirect: `/console/cancellations?company=acme#cancellation-${open!.id}`,
        audited: true,
      });
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('RCVD');

      // The list: waiting for a second operator; the one who asked gets no confirm form.
      const mine = body(await page('/console/cancellations').load(deps, request(...OLGA)));
      expect(mine).toContain('waiting for a second operator');
      expect(mine).toContain(`>E2E-1-1</a>`);
      expect(mine).toContain('You asked for it: another operator confirms it.');
      expect(mine).not.toContain(`/console/cancellations/${open!.id}/confirm`);
      expect(body(await page('/console/cancellations').load(deps, request(...OTTO)))).toContain(
        `action="/console/cancellations/${open!.id}/confirm?company=acme"`,
      );
      expect(body(await page('/console/cancellations').load(deps, request(...VERA)))).not.toContain('<form');

      const confirm = action('/console/cancellations/:id/confirm');
      const self = await confirm.handle(deps, post(...OLGA, { id: open!.id }, {}));
      expect(self).toMatchObject({ status: 403 });
      expect(self.audited).toBeUndefined();
      expect(body(self)).toContain(
        `local:olga asked for cancellation ${open!.id}; a second person must confirm it (four eyes)`,
      );
      // Her second login (the company's OIDC, her address in other case and with a space) is her too.
      const sso = post(...OLGA, { id: open!.id }, {});
      const login = { id: 'oidc:https://idp.example#4711', email: ' OLGA@Acme.example' };
      const viaSso = await confirm.handle(deps, {
        ...sso,
        user: { ...sso.user, id: login.id, person: consolePersonOf(WHO_IS_WHO, login) },
        origin: { ...sso.origin, actor: login.id },
      });
      expect(body(viaSso)).toContain('a second person must confirm it (four eyes)');
      expect(await confirm.handle(deps, post(...VERA, { id: open!.id }, {}))).toMatchObject({ status: 403 });
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('RCVD');

      const done = await confirm.handle(deps, post(...OTTO, { id: open!.id }, {}));
      expect(done).toMatchObject({ status: 200, audited: true });
      expect(body(done)).toContain('Confirmed and carried out: cancelled.');
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('CANC');
      expect((await w.store.cancellations.get(open!.id))!.confirmedBy).toBe('local:otto');
      expect((await w.store.audit.list()).map((e) => [e.action, e.actor])).toEqual([
        ['payment.cancel.request', 'local:olga'],
        ['payment.cancel.confirm', 'local:otto'],
        ['payment.cancel', 'local:otto'],
      ]);
      expect((await w.store.operatorViews.openCancellations('acme')).rows).toEqual([]);
    }, 60_000);

    it('four eyes: a second operator declines; nothing reaches the bank', async () => {
      const { w, deps } = await world({ payments: { cancelFourEyes: true } });
      await w.acceptFile('pay-1.csv', [{ debtorIban: APPROVAL_IBAN }]);
      await runSubmit(w.deps('s1'), [w.company]);
      const id = await paymentId(w, 'E2E-1-1');
      await action('/console/payments/:id/cancel').handle(
        deps,
        post(...OLGA, { id }, { reason: 'typo', confirm: 'yes' }),
      );
      const [open] = (await w.store.operatorViews.openCancellations('acme')).rows;
      const decline = action('/console/cancellations/:id/decline');
      expect(await decline.handle(deps, post(...OTTO, { id: open!.id }, {}))).toMatchObject({ status: 400 });
      expect(await decline.handle(deps, post(...OTTO, { id: open!.id }, { reason: 'the invoice is right' }))).toEqual({
        redirect: '/console/cancellations?company=acme',
        audited: true,
      });
      expect(await w.store.cancellations.get(open!.id)).toMatchObject({
        outcome: 'declined',
        outcomeDetail: 'declined by local:otto: the invoice is right',
      });
      expect((await bankBulks(w))[0]!.transactionStatus).toBe('RCVD');
      expect((await w.store.payments.findByEndToEndId('acme', 'E2E-1-1'))!.state).not.toBe('CANC');
      // Closed: it can be neither confirmed nor declined again.
      expect(
        await action('/console/cancellations/:id/confirm').handle(deps, post(...OTTO, { id: open!.id }, {})),
      ).toMatchObject({ status: 404 });
      expect((await w.store.audit.list()).map((e) => [e.action, e.actor])).toEqual([
        ['payment.cancel.request', 'local:olga'],
        ['payment.cancel.decline', 'local:otto'],
      ]);
    }, 60_000);

    it('refuses to cancel a payment the bank accepted (ACSP) with the reason and no form', async () => {
      const { w, deps } = await world();
      await w.acceptFile('pay-1.csv', [{}]);
      await runSubmit(w.deps('s1'), [w.company]);
      w.advance(60_000);
      await runStatus(w.deps('st'), [w.company]);
      const id = await paymentId(w, 'E2E-1-1');
      const preview = await page('/console/payments/:id/cancel').load(deps, request(...OLGA, { id }));
      expect(preview).toMatchObject({ status: 409, title: 'E2E-1-1 cannot be cancelled' });
      expect(body(preview)).toContain('the bank accepted it for execution (ACSP)');
      expect(body(preview)).not.toContain('<form');
      const tried = await action('/console/payments/:id/cancel').handle(
        deps,
        post(...OLGA, { id }, { reason: 'too late?', confirm: 'yes' }),
      );
      expect(tried).toMatchObject({ status: 409 });
      expect(tried.audited).toBeUndefined();
      expect(await w.store.audit.list()).toEqual([]);
    }, 60_000);
  });
}

suite('SQLite', false);
if (useMaria) suite('MariaDB', true);
