import { readdir, readFile, rename, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runApprove } from '../../../jobs/approve/approve.js';
import { runStatus } from '../../../jobs/status/poll.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { APPROVAL_IBAN, bankBulks, createWorld, type World } from './world.js';

const DAY = 24 * 3600_000;

describe('the approve job', () => {
  let w: World;
  let mails: { to: readonly string[]; subject: string; text: string }[];
  beforeEach(async () => {
    w = await createWorld({ company: { payments: { approvers: ['cfo@acme.example'] } } });
    mails = [];
  });
  afterEach(async () => {
    await w.close();
  });

  const deps = (run: string) =>
    w.deps(run, {
      approvalMail: { send: (to, subject, text) => Promise.resolve(void mails.push({ to, subject, text })) },
    });
  const linkCount = async (bankBasketId: string) => {
    const basket = await w.bank.getSigningBasket(bankBasketId);
    return (basket.raw.authorizations as unknown[]).length;
  };

  it('e-mails the approvers on a later run when the mail server was down, and then only once', async () => {
    await w.acceptFile('pay.csv', [{ debtorIban: APPROVAL_IBAN }]);
    await runSubmit(deps('s1'), [w.company]);
    let down = true;
    const flaky = w.deps('a1', {
      approvalMail: {
        send: (to, subject, text) => {
          if (down)
            return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ESOCKET' }));
          mails.push({ to, subject, text });
          return Promise.resolve();
        },
      },
    });
    const first = await runApprove(flaky, [w.company]);
    expect(first.baskets[0]).toMatchObject({ linkIssued: true, state: 'link_issued' });
    expect(first.baskets[0]!.report).toBeDefined();
    expect(mails).toHaveLength(0);
    down = false;
    await runApprove(flaky, [w.company]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain((await w.store.baskets.get(first.baskets[0]!.basketId))!.approvalLink);
    await runApprove(flaky, [w.company]);
    expect(mails).toHaveLength(1);
  });

  it('puts bulks of a pre-approved account in one basket, hands the link to the approvers, and the payments settle once approved', async () => {
    const fileId = await w.acceptFile('pay.csv', [
      { debtorIban: APPROVAL_IBAN },
      { debtorIban: APPROVAL_IBAN, requestedExecutionDate: '2026-01-08' as never },
    ]);
    await runSubmit(deps('s1'), [w.company]);
    const first = await runApprove(deps('a1'), [w.company]);
    expect(first.baskets).toHaveLength(1);
    const basket = first.baskets[0]!;
    expect(basket).toMatchObject({ bulks: 2, linkIssued: true, state: 'link_issued' });
    const stored = (await w.store.baskets.get(basket.basketId))!;
    expect(stored.approvalLink).toMatch(/__sandbox\/sca\//);
    expect(stored.approvalLinkExpiresAt!.getTime() - w.clock.now().getTime()).toBe(7 * DAY);
    // The reports folder is read by others: the notice there has the figures, not the link.
    const report = await readFile(join(w.company.root, basket.report!), 'utf8');
    expect(report).not.toContain(stored.approvalLink);
    expect(report).toContain('The approval link went to the approvers by e-mail');
    expect(report).toMatch(/^ {2}NO72…4562 +NOK +2 +200\.00$/m);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toEqual(['cfo@acme.example']);
    expect(mails[0]!.text).toContain(stored.approvalLink);
    expect(mails[0]!.text).toMatch(/works ONCE/);

    // A second run reuses the live link: no new link, no new mail.
    const again = await runApprove(deps('a2'), [w.company]);
    expect(again.baskets[0]).toMatchObject({ linkIssued: false, state: 'link_issued' });
    expect(await linkCount(stored.bankBasketId!)).toBe(1);
    expect(mails).toHaveLength(1);

    // The approver completes the SCA; the bank releases the payments.
    await w.control('/sca', { link: stored.approvalLink });
    w.advance(3 * DAY);
    await runStatus(deps('st'), [w.company]);
    expect((await w.store.payments.listByFile(fileId)).map((p) => p.state)).toEqual(['ACSC', 'ACSC']);
    const done = await runApprove(deps('a3'), [w.company]);
    expect(done.baskets.map((b) => b.state)).toEqual(['authorised']);
    expect((await runApprove(deps('a4'), [w.company])).baskets).toEqual([]);
    expect(await bankBulks(w)).toHaveLength(2);
  });

  it('issues exactly one new link when the previous one expired', async () => {
    await w.acceptFile('pay.csv', [{ debtorIban: APPROVAL_IBAN, requestedExecutionDate: '2026-01-20' as never }]);
    await runSubmit(deps('s1'), [w.company]);
    const [first] = (await runApprove(deps('a1'), [w.company])).baskets;
    const oldLink = (await w.store.baskets.get(first!.basketId))!.approvalLink;
    w.advance(7 * DAY + 60_000);
    const [second] = (await runApprove(deps('a2'), [w.company])).baskets;
    expect(second).toMatchObject({ linkIssued: true, state: 'link_issued' });
    const [third] = (await runApprove(deps('a3'), [w.company])).baskets;
    expect(third).toMatchObject({ linkIssued: false });
    const stored = (await w.store.baskets.get(first!.basketId))!;
    expect(stored.approvalLink).not.toBe(oldLink);
    expect(await linkCount(stored.bankBasketId!)).toBe(2);
    expect(mails).toHaveLength(2);
    expect((await readdir(join(w.company.root, 'reports'))).length).toBe(2);
  });

  it('issues exactly one new link when the previous one was used without completing', async () => {
    await w.acceptFile('pay.csv', [{ debtorIban: APPROVAL_IBAN }]);
    await runSubmit(deps('s1'), [w.company]);
    const [first] = (await runApprove(deps('a1'), [w.company])).baskets;
    const stored = (await w.store.baskets.get(first!.basketId))!;
    await w.control('/sca', { link: stored.approvalLink, outcome: 'failed' });
    expect((await runApprove(deps('a2'), [w.company])).baskets[0]).toMatchObject({ linkIssued: true });
    expect((await runApprove(deps('a3'), [w.company])).baskets[0]).toMatchObject({ linkIssued: false });
    expect(await linkCount(stored.bankBasketId!)).toBe(2);
  });

  it('leaves bulks of accounts without approval alone, unless the configuration asks for approval', async () => {
    await w.acceptFile('pay.csv', [{}]);
    await runSubmit(deps('s1'), [w.company]);
    expect((await runApprove(deps('a1'), [w.company])).baskets).toEqual([]);
  });

  it('shows payroll lines only to approvers with the payroll role; the others get the totals', async () => {
    await w.close();
    w = await createWorld({
      company: {
        payments: { payrollAccounts: [APPROVAL_IBAN] },
        people: [
          { name: 'Per Payroll', email: 'payroll@acme.example', roles: ['approver', 'payroll'] },
          { name: 'Ola Approver', email: 'approver@acme.example', roles: ['approver'] },
          { name: 'Vera Viewer', email: 'viewer@acme.example', roles: ['viewer'] },
        ],
      },
    });
    await w.acceptFile('salaries.csv', [{ debtorIban: APPROVAL_IBAN, creditorName: 'Employee One' }]);
    await runSubmit(deps('s1'), [w.company]);
    await runApprove(deps('a1'), [w.company]);
    expect(mails.map((m) => m.to)).toEqual([['payroll@acme.example'], ['approver@acme.example']]);
    expect(mails[0]!.text).toContain('Employee One');
    expect(mails[1]!.text).not.toContain('Employee One');
    expect(mails[1]!.text).toContain('1 payroll payment(s) are counted in the totals above');
    for (const mail of mails) expect(mail.text).toMatch(/^ {2}NO72…4562 +NOK +1 +100\.00$/m);
  });

  it("writes the approvers' notice again after a run killed before it, and removes the half-written one", async () => {
    const world = await createWorld({ company: { folders: { approvals: 'approvals' } } });
    try {
      await world.acceptFile('pay.csv', [{ debtorIban: APPROVAL_IBAN }]);
      await runSubmit(world.deps('s1'), [world.company]);
      await runApprove(world.deps('a1'), [world.company]);
      const dir = join(world.company.root, 'approvals');
      const [notice] = await readdir(dir);
      // What a SIGKILL between the report and the approvers' copy leaves: the copy's NAME.part only.
      const part = join(dir, `${notice!}.dead01.part`);
      await rename(join(dir, notice!), part);
      const anHourAndMoreAgo = new Date(world.clock.now().getTime() - 2 * 3600_000);
      await utimes(part, anHourAndMoreAgo, anHourAndMoreAgo);
      await runApprove(world.deps('a2'), [world.company]);
      expect(await readdir(dir)).toEqual([notice]);
      expect(await readFile(join(dir, notice!), 'utf8')).toContain('__sandbox/sca/');
    } finally {
      await world.close();
    }
  });
});
