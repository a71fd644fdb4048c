import { describe, expect, it } from 'vitest';
import { linesNeeded, planSentBulk, type SentBulkRead } from '../../../src/domain/plans/sent-bulk-plan.js';

const sending: SentBulkRead = { id: 'b1', state: 'sending', lineCount: 3 };
const lines = [1, 2, 3].map((n) => ({ id: `p${n}`, endToEndId: `e${n}` }));
const moves = (plan: ReturnType<typeof planSentBulk>) =>
  plan.steps.map((s) => (s.step === 'move' ? [s.kind, s.ids, s.to, s.bankReported ?? false] : [s.step]));

describe('the plan of a bulk the bank took', () => {
  it('moves the bulk from the state it was read in, under the bank payment id, and every line to sent by bulk', () => {
    const plan = planSentBulk(sending, { bankPaymentId: 'PAY-1', bankId: 'tb', consentId: 'C1', bankStatus: 'rcvd' });
    expect(plan.steps[0]).toEqual({
      step: 'move',
      kind: 'bulk',
      ids: ['b1'],
      from: ['sending'],
      to: 'sent',
      cause: { english: 'bank accepted', said: { key: 'historyCause.bankAccepted' } },
      source: 'submit',
      sentAs: { bankPaymentId: 'PAY-1', bankId: 'tb', consentId: 'C1' },
    });
    expect(moves(plan)).toEqual([
      ['bulk', ['b1'], 'sent', false],
      ['payment', { bulkId: 'b1' }, 'sent', false],
      ['bank_status', ['b1'], 'RCVD', false],
    ]);
    expect(linesNeeded(sending, { bankPaymentId: 'PAY-1' })).toBe(false);
  });

  it('moves the lines together to the one status the answer gives every one of them, as the bank reported it', () => {
    const answer = {
      bankPaymentId: 'PAY-1',
      paymentStatuses: lines.map((l) => ({ endToEndId: l.endToEndId, status: 'rcvd' })),
    };
    expect(linesNeeded(sending, answer)).toBe(false);
    expect(moves(planSentBulk(sending, answer))[1]).toEqual(['payment', { bulkId: 'b1' }, 'RCVD', true]);
  });

  it('moves parted lines by id, one move per status; an unknown code or an unnamed line becomes sent', () => {
    const answer = {
      bankPaymentId: 'PAY-1',
      paymentStatuses: [
        { endToEndId: 'e1', status: 'RJCT' },
        { endToEndId: 'e2', status: 'SOMETHING-NEW' },
      ],
    };
    expect(linesNeeded(sending, answer)).toBe(true);
    expect(moves(planSentBulk(sending, answer, lines))).toEqual([
      ['bulk', ['b1'], 'sent', false],
      ['payment', ['p1'], 'RJCT', true],
      ['payment', ['p2', 'p3'], 'sent', false],
    ]);
  });

  it('parts a bulk of 50,000 lines into its moves in line order, each line once', () => {
    // Grouping by copying each group to add a line took about 80 s at this size (src/domain/group.ts).
    const many = Array.from({ length: 50_000 }, (_, n) => ({ id: `p${n}`, endToEndId: `e${n}` }));
    const answer = {
      bankPaymentId: 'PAY-1',
      paymentStatuses: many.map((l, n) => ({ endToEndId: l.endToEndId, status: n % 10 === 3 ? 'RJCT' : 'ACSP' })),
    };
    const parted = moves(planSentBulk({ ...sending, lineCount: many.length }, answer, many)).slice(1);
    expect(parted.map(([kind, , to]) => [kind, to])).toEqual([
      ['payment', 'ACSP'],
      ['payment', 'RJCT'],
    ]);
    const [accepted, rejected] = parted.map(([, ids]) => ids as string[]);
    expect(rejected).toHaveLength(5_000);
    expect(accepted).toHaveLength(45_000);
    expect(rejected!.slice(0, 2)).toEqual(['p3', 'p13']);
    expect(new Set([...accepted!, ...rejected!]).size).toBe(50_000);
  });

  it('moves a bulk already sent under the same payment id no more (a replay), and its lines tolerantly', () => {
    const plan = planSentBulk({ ...sending, state: 'sent', bankPaymentId: 'PAY-1' }, { bankPaymentId: 'PAY-1' });
    expect(plan.steps).toEqual([
      {
        step: 'move',
        kind: 'payment',
        ids: { bulkId: 'b1' },
        to: 'sent',
        cause: { english: 'bank accepted', said: { key: 'historyCause.bankAccepted' } },
        source: 'submit',
        mode: 'tolerant',
      },
    ]);
  });
});
