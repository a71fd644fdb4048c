// The same-file repeats behind pay-once: a line with the creditor account, amount and reference of
// an earlier line of its file is a repeat of that line. Only a hash of each key is kept, so these
// check that a shared hash alone never makes a repeat (every key compared in full, the keys of
// earlier batches read back once a batch), and that the cost a line stays a few bytes of table.
import { describe, expect, it } from 'vitest';
import { NO_EARLIER_LINES, SameFileLines } from '../../src/domain/controls/index.js';
import { FirstLines } from '../../src/domain/controls/first-lines.js';
import { likelyDuplicateKey } from '../../src/domain/likely-duplicate.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import type { PaymentInstruction } from '../../src/domain/payment.js';

const pay = (line: number, invoice: number, over: Partial<PaymentInstruction> = {}): PaymentInstruction => ({
  debtorIban: 'NO9386011117947',
  debtorName: 'ACME AS',
  requestedExecutionDate: toLocalDate('2026-01-09'),
  endToEndId: `E-${line}`,
  amount: { minor: 100_00n, currency: 'NOK' },
  creditorIban: 'NO0612000000009',
  creditorName: 'Oslo Trykkeri AS',
  remittanceInformation: `Invoice ${invoice}`,
  lineNumber: line,
  ...over,
});

/** Every key has the same hash: only the keys themselves tell lines apart. */
const sameHash = () => 7;

/** The file's lines as a store keeps them: the keys of stored lines, with a record of what was asked. */
function store() {
  const keys = new Map<number, string>();
  const asked: number[][] = [];
  return {
    asked,
    keep: (batch: readonly PaymentInstruction[]) => batch.forEach((p) => keys.set(p.lineNumber, likelyDuplicateKey(p))),
    earlierKeys: (lines: readonly number[]) => {
      asked.push([...lines].sort((a, b) => a - b));
      return Promise.resolve(new Map(lines.flatMap((l) => (keys.has(l) ? [[l, keys.get(l)!] as const] : []))));
    },
  };
}

const lines = (repeats: { payment: PaymentInstruction; firstLine: number }[]) =>
  repeats.map((r) => [r.payment.lineNumber, r.firstLine]);

describe('SameFileLines', () => {
  it('finds the first line of a repeated key, in the batch and across batches, whatever the end-to-end id', async () => {
    const file = store();
    const same = new SameFileLines();
    const first = [pay(1, 1), pay(2, 2), pay(3, 1, { remittanceInformation: ' INVOICE  1 ' })];
    expect(lines(await same.repeats(first, file.earlierKeys))).toEqual([[3, 1]]);
    file.keep(first);
    const second = [pay(4, 3), pay(5, 2), pay(6, 1)];
    expect(lines(await same.repeats(second, file.earlierKeys))).toEqual([
      [5, 2],
      [6, 1],
    ]);
    // Only the lines whose hash a line of the batch has are read back, once a batch.
    expect(file.asked).toEqual([[1, 2]]);
  });

  it('never takes a shared hash for a repeat: every key is compared in full', async () => {
    const file = store();
    const same = new SameFileLines({ hash: sameHash });
    const first = [pay(1, 1), pay(2, 2), pay(3, 3, { amount: { minor: 100_01n, currency: 'NOK' } })];
    expect(await same.repeats(first, file.earlierKeys)).toEqual([]);
    file.keep(first);
    // Nothing read for the first batch: its lines' keys were at hand.
    expect(file.asked).toEqual([]);
    const second = [pay(4, 4), pay(5, 2), pay(6, 3, { amount: { minor: 100_01n, currency: 'NOK' } }), pay(7, 4)];
    expect(lines(await same.repeats(second, file.earlierKeys))).toEqual([
      [5, 2],
      [6, 3],
      [7, 4],
    ]);
    expect(file.asked).toEqual([[1, 2, 3]]);
  });

  it('is no repeat of a line whose key the store does not give back', async () => {
    const same = new SameFileLines({ hash: sameHash });
    expect(await same.repeats([pay(1, 1)], NO_EARLIER_LINES)).toEqual([]);
    // The same key again, but the earlier line's key is unknown: not held on the hash alone.
    expect(await same.repeats([pay(2, 1)], NO_EARLIER_LINES)).toEqual([]);
    // The line was kept instead, so a third use of the key in its batch matches it.
    expect(lines(await same.repeats([pay(3, 1), pay(4, 1)], NO_EARLIER_LINES))).toEqual([[4, 3]]);
  });

  it('keeps a hash and a line a key, not the key: under 16 bytes a line, the same for long references', async () => {
    const n = 100_000;
    const short = new SameFileLines();
    const long = new SameFileLines();
    const batch = (from: number, text: (i: number) => string) =>
      Array.from({ length: 1000 }, (_, k) => pay(from + k, from + k, { remittanceInformation: text(from + k) }));
    for (let from = 1; from <= n; from += 1000) {
      expect(
        await short.repeats(
          batch(from, (i) => `Invoice ${i}`),
          NO_EARLIER_LINES,
        ),
      ).toEqual([]);
      expect(
        await long.repeats(
          batch(from, (i) => `Invoice ${i} ${'x'.repeat(130)}`),
          NO_EARLIER_LINES,
        ),
      ).toEqual([]);
    }
    expect(short.byteLength / n).toBeLessThan(16);
    expect(long.byteLength).toBe(short.byteLength);
  });
});

describe('FirstLines', () => {
  it('gives every line kept with a hash, in file order, through growths of the table', () => {
    const table = new FirstLines({ initialSlots: 2, hash: (key) => Number(key) % 5 });
    for (let line = 0; line < 500; line++) table.add(table.hashOf(String(line)), line);
    expect(table.size).toBe(500);
    const withThree = table.linesWith(3);
    expect(withThree).toHaveLength(100);
    expect(withThree).toEqual(Array.from({ length: 100 }, (_, k) => 3 + 5 * k));
    expect(table.linesWith(9)).toEqual([]);
  });

  it('keeps line 0 and the largest line, and refuses a line it cannot keep', () => {
    const table = new FirstLines();
    table.add(1, 0);
    table.add(1, 0xffff_fffe);
    expect(table.linesWith(1)).toEqual([0, 0xffff_fffe]);
    expect(() => table.add(1, 0xffff_ffff)).toThrow(RangeError);
    expect(() => table.add(1, 1.5)).toThrow(RangeError);
  });
});
