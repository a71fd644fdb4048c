// Part of the repository contract (repository-contract.ts): lines held as likely duplicates are
// stored held with the file, in one transaction; a person's decision is kept on the held row and
// moves the line (released → accepted and plannable again, dropped → CANC).
import { expect, it } from 'vitest';
import type { ContractContext } from './contract-approval-reporting.js';
import { payment, paymentFile, rejectsWithCode, holdDuplicatesSince } from './fixtures.js';
import { decideHeldPayment } from '../../jobs/controls/index.js';

export function heldCases(ctx: () => ContractContext): void {
  it('holds lines matching a payment accepted from another file in the window, and records who released or dropped them', async () => {
    const { store, clock } = ctx();
    const company = 'held-co';
    const since = new Date(clock.now().getTime() - 14 * 24 * 3600_000);
    const first = await store.files.recordAcceptedFile(
      paymentFile('held-1', { company }),
      [payment(1, { endToEndId: 'H-1' }), payment(2, { endToEndId: 'H-2' })],
      0,
      holdDuplicatesSince(since),
    );
    expect(first.holds).toEqual([]);
    const again = await store.files.recordAcceptedFile(
      paymentFile('held-2', { company }),
      [
        payment(1, { endToEndId: 'H-1b', remittanceInformation: ' invoice 1 ' }),
        payment(2, { endToEndId: 'H-2b' }),
        payment(3, { endToEndId: 'H-3' }),
      ],
      0,
      holdDuplicatesSince(since),
    );
    expect(again.holds.map((h) => h.endToEndId)).toEqual(['H-1b', 'H-2b']);
    const lines = await store.payments.listByFile(again.id);
    expect(lines.map((l) => [l.endToEndId, l.state])).toEqual([
      ['H-1b', 'held'],
      ['H-2b', 'held'],
      ['H-3', 'accepted'],
    ]);
    expect(lines[0]!.tppMessages[0]).toMatchObject({ code: 'DUPL', message: expect.stringMatching(/held-1\.csv/) });

    const held = await store.held.list({ company });
    expect(held.map((h) => [h.endToEndId, h.fileName, h.lineNumber])).toEqual([
      ['H-1b', 'held-2.csv', 1],
      ['H-2b', 'held-2.csv', 2],
    ]);
    await decideHeldPayment(store, held[0]!.id, { decision: 'released', by: 'ola', reason: 'a second delivery' });
    await decideHeldPayment(store, held[1]!.id, { decision: 'dropped', by: 'kari', reason: 'ERP re-export' });
    await rejectsWithCode(
      decideHeldPayment(store, held[1]!.id, { decision: 'released', by: 'ola', reason: 'again' }),
      'ERR_PAYMENT_NOT_HELD',
    );
    expect((await store.payments.listByFile(again.id)).map((l) => l.state)).toEqual(['accepted', 'CANC', 'accepted']);
    expect((await store.held.releasedUnplanned(company)).map((p) => p.endToEndId)).toEqual(['H-1b']);
    const all = await store.held.list({ company, all: true });
    expect(all.map((h) => [h.decision, h.decidedBy, h.decisionReason])).toEqual([
      ['released', 'ola', 'a second delivery'],
      ['dropped', 'kari', 'ERP re-export'],
    ]);
    expect(await store.held.list({ company })).toEqual([]);
    expect((await store.held.find('H-2b', company)).map((h) => h.id)).toEqual([held[1]!.id]);
  });

  it('holds a line that repeats an earlier line of its own file, matched to that line, in file order', async () => {
    const { store, clock } = ctx();
    const company = 'held-same-file';
    const since = new Date(clock.now().getTime() - 14 * 24 * 3600_000);
    const file = await store.files.recordAcceptedFile(
      paymentFile('same-1', { company }),
      [
        payment(1, { endToEndId: 'S-1' }),
        payment(2, { endToEndId: 'S-2' }),
        payment(1, { endToEndId: 'S-1b', lineNumber: 3, remittanceInformation: 'INVOICE  1' }),
        payment(1, { endToEndId: 'S-1c', lineNumber: 4 }),
      ],
      0,
      holdDuplicatesSince(since),
    );
    expect(file.holds.map((h) => [h.endToEndId, h.lineNumber])).toEqual([
      ['S-1b', 3],
      ['S-1c', 4],
    ]);
    const lines = await store.payments.listByFile(file.id);
    expect(lines.map((l) => [l.endToEndId, l.state])).toEqual([
      ['S-1', 'accepted'],
      ['S-2', 'accepted'],
      ['S-1b', 'held'],
      ['S-1c', 'held'],
    ]);
    const held = await store.held.list({ company });
    expect(held.every((h) => h.matchedPaymentId === lines[0]!.id)).toBe(true);
    expect(held[0]!.reason).toMatch(/as line 1 \(end-to-end id S-1\) of this file/);
    // Without a window (duplicateWindow 0s), nothing is held.
    const off = await store.files.recordAcceptedFile(paymentFile('same-2', { company }), [
      payment(5, { endToEndId: 'T-1' }),
      payment(5, { endToEndId: 'T-2', lineNumber: 2 }),
    ]);
    expect(off.holds).toEqual([]);
  });
}
