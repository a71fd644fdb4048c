// Incoming credits with structured references: the sandbox's seed and its control
// POST /__sandbox/credits, read by the bank client, stored with the transaction, and carried
// into the camt.053 statement (only a reference whose check digits hold is structured there).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFetchStatements } from '../../jobs/statements/fetch.js';
import { buildStatement } from '../../jobs/statements/build-statement.js';
import { PaymentRepository } from '../../src/store/index.js';
import { StatementDayRepository } from '../../src/store/statement-days.js';
import { StatementRepository } from '../../src/store/statements.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import type { StatementEntry } from '../../src/domain/statement.js';
import { SEED, startStatementHarness, type StatementHarness } from '../jobs/statements/harness.js';

describe('incoming credits with creditor references', () => {
  let h: StatementHarness;
  const post = (body: unknown) =>
    fetch(`${h.sandbox.urls.controlUrl}/credits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    h = await startStatementHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('refuses a credit it cannot book, saying which field and why', async () => {
    const cases: [unknown, RegExp][] = [
      [{ account: SEED.operatingIban, amount: '-5' }, /amount must be a positive decimal/],
      [{ account: SEED.operatingIban, amount: '5.00', referenceType: 'KID' }, /reference is required/],
      [{ account: SEED.operatingIban, amount: '5.00', referenceType: 'OCR', reference: '1' }, /KID, RF or none/],
      [{ account: SEED.operatingIban, amount: '5.00', debtorIban: 'NO00' }, /debtorIban must be a valid IBAN/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(message);
    }
    expect((await post({ account: 'nope', amount: '1.00' })).status).toBe(404);
  });

  it('books a credit with a KID that the bank client reads, the store keeps and the statement structures', async () => {
    const today = new Date(h.clock.now()).toISOString().slice(0, 10);
    const res = await post({
      account: SEED.operatingIban,
      amount: '1500.00',
      debtorName: 'Kunde Øst AS',
      debtorIban: 'NO93 8601 1117 947',
      reference: '10020000021',
      referenceType: 'KID',
      remittance: 'Faktura 1004',
      bookingDate: today,
    });
    expect(res.status).toBe(201);
    const view = (await res.json()) as Record<string, unknown>;
    expect(view.structuredRemittanceInformationArray).toEqual([
      { reference: '10020000021', referenceType: 'KID', referenceIssuer: null },
    ]);

    h.sandbox.advance(86_400_000); // the booking day is complete
    await runFetchStatements(h.fetchDeps(), [h.company]);
    const repo = new StatementRepository(h.db, h.clock);
    const booked = await repo.listTransactions(SEED.operatingAccountId, { status: 'booked' });
    const refs = booked.flatMap((t) => (t.creditorReference ? [[t.counterpartyName, t.creditorReference]] : []));
    // The seed's KID, RF and mistyped KID, and the credit just booked.
    expect(refs).toEqual(
      expect.arrayContaining([
        ['Kunde Nord AS', { reference: '10010000015', type: 'KID' }],
        ['Kunde Sør AS', { reference: 'RF48FAKTURA1002', type: 'RF' }],
        ['Kunde Vest AS', { reference: '10030000036', type: 'KID' }],
        ['Kunde Øst AS', { reference: '10020000021', type: 'KID' }],
      ]),
    );
    expect(refs).toHaveLength(4);

    const days = await new StatementDayRepository(h.db, h.clock).list(
      SEED.operatingAccountId,
      toLocalDate('2000-01-01'),
      toLocalDate('2100-12-31'),
    );
    const sources = { statements: repo, payments: new PaymentRepository(h.db, h.clock) };
    const { entries } = await buildStatement(sources, {
      account: (await repo.listAccounts('acme')).find((a) => a.id === SEED.operatingAccountId)!,
      company: 'acme',
      ownerName: 'Sandbox AS',
      days,
      sequenceNumber: 1,
      timeZone: 'Europe/Oslo',
    });
    const byName = (name: string): StatementEntry | undefined => entries.find((e) => e.counterparty?.name === name);
    expect(byName('Kunde Øst AS')?.remittance).toEqual({
      unstructured: 'Faktura 1004',
      creditorReference: '10020000021',
      creditorReferenceKind: 'KID',
    });
    expect(byName('Kunde Sør AS')?.remittance).toMatchObject({ creditorReference: 'RF48FAKTURA1002' });
    // A check digit that does not hold is kept as text, never as a structured reference.
    expect(byName('Kunde Vest AS')?.remittance).toEqual({ unstructured: '10030000036 Faktura 1003' });
  });
});
