// Which lines pickup holds, decided in the domain from the facts the store reads: a likely
// duplicate of another file's payment, a repeat of an earlier line of the same file (in an earlier
// batch too, through the lines already stored), a control hit, each with the messages its line keeps;
// and a fresh rule for each attempt at storing a file, so a file's transaction run again (a
// deadlock victim) holds the same lines, not every line as a repeat of itself.
import { describe, expect, it } from 'vitest';
import { NO_CONTROLS, PickupHolds } from '../../src/domain/controls/index.js';
import type { EarlierPayment, PickupFacts, StoredLine } from '../../src/domain/hold.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import type { PaymentInstruction } from '../../src/domain/payment.js';

const pay = (line: number, over: Partial<PaymentInstruction> = {}): PaymentInstruction => ({
  debtorIban: 'NO9386011117947',
  debtorName: 'ACME AS',
  requestedExecutionDate: toLocalDate('2026-01-09'),
  endToEndId: `E-${line}`,
  amount: { minor: 100_00n * BigInt(line), currency: 'NOK' },
  creditorIban: 'NO0612000000009',
  creditorName: 'Oslo Trykkeri AS',
  remittanceInformation: `Invoice ${line}`,
  lineNumber: line,
  ...over,
});

/** Facts as a store would read them, with a record of what was asked. */
function facts(earlier: EarlierPayment[] = [], stored = new Map<number, StoredLine>()) {
  const asked: string[] = [];
  const reader: PickupFacts = {
    earlierPayments: (ibans) => {
      asked.push(`earlier ${ibans.join(',')}`);
      return Promise.resolve(earlier.filter((e) => ibans.includes(e.creditorIban)));
    },
    storedLines: (lines) => {
      asked.push(`stored ${lines.join(',')}`);
      return Promise.resolve(new Map([...stored].filter(([n]) => lines.includes(n))));
    },
    controlHistory: () => {
      asked.push('history');
      return Promise.resolve({ paid: [], days: [] });
    },
  };
  return { reader, asked };
}

const since = new Date('2026-01-01T00:00:00Z');
const receivedAt = new Date('2026-01-05T08:00:00Z');

describe('the holds of pickup', () => {
  it("holds a line like another file's payment, with the line it matches and the DUPL message", async () => {
    const earlier: EarlierPayment = {
      id: 'P-OLD',
      lineNumber: 7,
      endToEndId: 'OLD-7',
      fileName: 'monday.csv',
      receivedAt: new Date('2026-01-04T09:30:00Z'),
      creditorIban: 'NO0612000000009',
      amount: { minor: 100_00n, currency: 'NOK' },
      remittanceInformation: ' invoice  1 ',
    };
    const { reader, asked } = facts([earlier]);
    const rule = new PickupHolds({ duplicatesSince: since }).forFile(receivedAt);
    const holds = await rule.holds([pay(1), pay(2)], ['ID-1', 'ID-2'], reader);
    expect(holds).toEqual([
      {
        endToEndId: 'E-1',
        matchedPaymentId: 'P-OLD',
        reason:
          'likely duplicate: same creditor account, amount and reference as line 7 (end-to-end id OLD-7) of "monday.csv", accepted 2026-01-04 09:30 UTC',
        reasonText: {
          key: 'held.reason.otherFile',
          values: { line: 7, e2e: 'OLD-7', file: 'monday.csv', at: '2026-01-04 09:30' },
        },
        messages: [expect.objectContaining({ category: 'INFO', code: 'DUPL', key: 'held.reason.otherFile' })],
      },
    ]);
    // A creditor is asked for once a file, not once a batch.
    await rule.holds([pay(3)], ['ID-3'], reader);
    expect(asked).toEqual(['earlier NO0612000000009']);
  });

  it('holds a repeat of a line of an earlier batch, matched through the lines already stored', async () => {
    const { reader, asked } = facts([], new Map([[1, { ...pay(1), id: 'ID-1' }]]));
    const rule = new PickupHolds({ duplicatesSince: since }).forFile(receivedAt);
    expect(await rule.holds([pay(1)], ['ID-1'], reader)).toEqual([]);
    const again = pay(1, { endToEndId: 'E-1b', lineNumber: 2, remittanceInformation: 'INVOICE 1' });
    const [hold] = await rule.holds([again], ['ID-2'], reader);
    expect(hold).toMatchObject({ endToEndId: 'E-1b', matchedPaymentId: 'ID-1' });
    expect(hold!.reason).toMatch(/as line 1 \(end-to-end id E-1\) of this file$/);
    expect(asked).toContain('stored 1');
  });

  it('gives each attempt at a file its own state: the same batch again holds the same lines', async () => {
    const rules = new PickupHolds({ duplicatesSince: since });
    const batch = [pay(1), pay(2), pay(1, { endToEndId: 'E-1b', lineNumber: 3 })];
    const first = await rules.forFile(receivedAt).holds(batch, ['A', 'B', 'C'], facts().reader);
    const retry = await rules.forFile(receivedAt).holds(batch, ['A', 'B', 'C'], facts().reader);
    expect(first.map((h) => h.endToEndId)).toEqual(['E-1b']);
    expect(retry).toEqual(first);
  });

  it('adds a control hit to a duplicate, holds a line by the controls alone, and reads the history once', async () => {
    const { reader, asked } = facts();
    const controls = {
      settings: { ...NO_CONTROLS, limits: { perLine: { NOK: '150.00' } } },
      known: [],
      timeZone: 'Europe/Oslo',
      today: toLocalDate('2026-01-05'),
    };
    const rule = new PickupHolds({ duplicatesSince: since, controls }).forFile(receivedAt);
    const holds = await rule.holds(
      [pay(1), pay(2), pay(2, { endToEndId: 'E-2b', lineNumber: 3 })],
      ['A', 'B', 'C'],
      reader,
    );
    expect(holds.map((h) => [h.endToEndId, h.matchedPaymentId, h.rules, h.releases])).toEqual([
      ['E-2', 'B', ['limit-line'], 2],
      ['E-2b', 'B', ['duplicate', 'limit-line'], 2],
    ]);
    expect(holds.map((h) => h.messages.map((m) => m.code))).toEqual([
      ['SETTLE-HELD-LIMIT-LINE'],
      ['DUPL', 'SETTLE-HELD-LIMIT-LINE'],
    ]);
    await rule.holds([pay(4)], ['D'], reader);
    expect(asked.filter((a) => a === 'history')).toHaveLength(1);
  });

  it('holds nothing and reads nothing without a window or controls', async () => {
    const { reader, asked } = facts();
    expect(await new PickupHolds({}).forFile(receivedAt).holds([pay(1), pay(1)], ['A', 'B'], reader)).toEqual([]);
    expect(asked).toEqual([]);
  });
});
