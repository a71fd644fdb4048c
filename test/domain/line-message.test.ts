import { describe, expect, it } from 'vitest';
import {
  messageForTpp,
  messagesForRefusal,
  reasonCodeForField,
  reasonCodeForStatus,
  reasonCodeOf,
  splitLineField,
} from '../../src/domain/line-message.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { parseBulkRequest } from '../../src/sandbox/payment-request.js';

const TODAY = '2026-01-05' as LocalDate;

describe('one message per line: ISO reason code, bank text, field, line, action', () => {
  it('gives every field error the sandbox bank can answer an ISO reason code other than NARR', () => {
    const bad = [
      null,
      {},
      { debtorAccount: {}, requestedExecutionDate: TODAY, batchBookingPreferred: 'yes', paymentLines: [] },
      {
        debtorAccount: { iban: 'NO00' },
        debtorName: 'x'.repeat(71),
        requestedExecutionDate: 'soon',
        paymentLines: 'x',
      },
      {
        debtorAccount: { iban: 'NO9386011117947' },
        requestedExecutionDate: '2026-01-07',
        paymentLines: [
          7,
          {},
          {
            endToEndIdentification: 'E2E~1',
            instructedAmount: { currency: 'NOK', amount: '-1' },
            creditorAccount: { iban: 'NO00' },
            creditorName: '',
            remittanceInformationUnstructured: 'x'.repeat(141),
            instructionPriority: 'urgent',
          },
          { endToEndIdentification: 'A', instructedAmount: { currency: 'XYZ', amount: '1' }, creditorAccount: 1 },
          {
            endToEndIdentification: 'A',
            instructedAmount: { amount: 'one' },
            creditorAccount: { iban: 'NO9386011117947' },
          },
        ],
      },
      { debtorAccount: { iban: 'NO9386011117947' }, requestedExecutionDate: '2026-01-07', paymentLines: [{}, {}, {}] },
    ];
    const fields = new Set<string>();
    for (const body of bad) {
      const parsed = parseBulkRequest(body, TODAY, body === bad.at(-1) ? 2 : 10);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) for (const e of parsed.errors) fields.add(splitLineField(e.field).field);
    }
    // The currency check the bank does after finding the account (sandbox payments.ts).
    fields.add('instructedAmount.currency');
    expect([...fields]).toEqual(
      expect.arrayContaining([
        'requestedExecutionDate',
        'creditorAccount.iban',
        'creditorName',
        'instructedAmount.amount',
      ]),
    );
    for (const field of fields) expect([field, reasonCodeForField(field)]).not.toEqual([field, 'NARR']);
  });

  it('gives every refusal status the facts sheet lists an ISO reason code, and keeps ISO codes the bank gives', () => {
    for (const status of [400, 401, 403, 404]) expect(reasonCodeForStatus(status)).not.toBe('NARR');
    // tppMessage codes seen in the facts sheet (AC03) and the sandbox (AM04, AC01 and any it is told).
    for (const code of ['AC03', 'AM04', 'AC01', 'AC04', 'ac06 '])
      expect(reasonCodeOf(code)).toBe(code.trim().toUpperCase());
    expect(reasonCodeOf('BANK-42')).toBe('NARR');
    expect(messageForTpp({ code: 'BANK-42', message: 'Blocked' }, 3)).toMatchObject({
      code: 'NARR',
      bankText: 'BANK-42: Blocked',
      lineNumber: 3,
    });
  });

  it("puts a line's field error on that line, a bulk field on every line, and says so when the bank named no line", () => {
    const lines = [4, 7, 9];
    const m = messagesForRefusal(
      {
        status: 400,
        errors: [
          { field: 'paymentLines[1].creditorAccount.iban', message: 'fails the mod-97 check' },
          { field: 'requestedExecutionDate', message: 'must be a future date (after 2026-01-05)' },
        ],
      },
      lines,
    );
    expect(m.get(7)).toEqual([
      {
        code: 'AC03',
        bankText: 'creditorAccount.iban fails the mod-97 check',
        field: 'creditorAccount.iban',
        lineNumber: 7,
        action: expect.stringContaining("creditor's account number") as string,
      },
      expect.objectContaining({ code: 'DT01', field: 'requestedExecutionDate', lineNumber: 7 }),
    ]);
    expect(m.get(4)!.map((x) => x.code)).toEqual(['DT01']);
    expect(m.get(4)![0]!.action).toMatch(/execution date/);

    const none = messagesForRefusal({ status: 404, title: 'Account not found' }, [1, 2]);
    expect(none.get(2)).toEqual([
      {
        code: 'AC02',
        bankText: 'Account not found (the bank named no line)',
        // The bank's words go into settle's sentence as they came; the sentence follows the company's language.
        words: { key: 'lineText.bankNamedNoLine', values: { said: 'Account not found' } },
        lineNumber: 2,
        action: expect.stringContaining('debtor account') as string,
      },
    ]);
  });

  it('sends back every line of a refused bulk of 50,000 that the bank named nothing on, each saying which lines it named', () => {
    // Each of those lines looked the named lines up in a list and joined the list three times:
    // 45,000 × 5,000 comparisons and 135,000 joins of a 30 KB list.
    const lines = Array.from({ length: 50_000 }, (_, i) => i + 1);
    const errors = Array.from({ length: 5_000 }, (_, k) => ({
      field: `paymentLines[${k * 10}].creditorAccount.iban`,
      message: 'fails the mod-97 check',
    }));
    const m = messagesForRefusal({ status: 400, errors }, lines);
    expect(m.get(1)!.map((x) => x.code)).toEqual(['AC03']);
    const unnamed = lines.filter((n) => n % 10 !== 1);
    expect(unnamed).toHaveLength(45_000);
    for (const n of unnamed) expect(m.get(n)!.map((x) => [x.code, x.lineNumber])).toEqual([['FF01', n]]);
    const said = m.get(2)![0]!;
    // The first 20 named lines and how many more: each of the 45,000 lines says so in a sentence,
    // not in a list of 5,000.
    const first = Array.from({ length: 20 }, (_, k) => k * 10 + 1).join(', ');
    expect(said.bankText).toBe(
      `Refused with its bulk because of line ${first} and 4,980 other lines (nothing named on this line)`,
    );
    expect(said.action).toBe(
      `Nothing is wrong with this line: send it again in a new file, with line ${first} and 4,980 other lines corrected.`,
    );
    expect(said.words).toEqual({ key: 'lineText.refusedWithBulkMany', values: { lines: first, more: 4980 } });
  });
});
