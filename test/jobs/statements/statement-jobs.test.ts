// The statement jobs end to end: the sandbox bank over real HTTP, a SQLite file, a local
// statements folder, and the independent oracles (xmllint, aqbanking-cli, hledger).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExportStatements } from '../../../jobs/statements/export.js';
import { fetchNeedsAttention, runFetchStatements } from '../../../jobs/statements/fetch.js';
import { StatementRepository } from '../../../src/store/statements.js';
import { ExportRepository } from '../../../src/store/exports.js';
import { SEED, startStatementHarness, type StatementHarness } from './harness.js';

const file = (day: string, suffix: string, iban: string = SEED.operatingIban) => `acme-${iban}-${day}.${suffix}`;

describe('the statement jobs against the sandbox bank', () => {
  let h: StatementHarness;

  beforeEach(async () => {
    h = await startStatementHarness({ secondBank: true });
  });

  afterEach(async () => {
    await h.close();
  });

  const statementFiles = async () => (await readdir(join(h.root, 'statements'))).sort();
  const read = (name: string) => readFile(join(h.root, 'statements', name));

  it('fetches every page of the enabled accounts at both banks, checks every complete day and finds the chain unbroken', async () => {
    const results = await runFetchStatements(h.fetchDeps(), [h.company]);
    expect(results.map((r) => [r.accountId, r.outcome])).toEqual([
      [SEED.operatingAccountId, 'fetched'],
      [SEED.approvalAccountId, 'fetched'],
      [SEED.nordbankAccountId, 'fetched'],
      [SEED.pendingAccountId, 'not-yet-enabled'],
    ]);
    const operating = results[0]!;
    expect(operating.inserted).toBe(6); // six seeded entries, over three pages of two
    expect(operating.from).toBe('2025-12-05');
    // 2025-12-05 … 2026-01-04: every day before today (2026-01-05 in Oslo) is complete and consistent.
    expect(operating.days).toHaveLength(31);
    expect(new Set(operating.days.map((d) => d.continuity))).toEqual(new Set(['ok']));
    const lastDay = operating.days.at(-1)!;
    expect(lastDay).toMatchObject({
      day: '2026-01-04',
      entryCount: 1,
      bookedSumMinor: -99_000n,
      closingMinor: 250_000_000n + 1_250_000n - 349_900n + 5_000_000n - 1_500_000n + 780_050n - 99_000n,
    });
    expect(fetchNeedsAttention(results)).toBe(false);
  });

  it('the first fetch reaches back 31 calendar days, also late in the evening across the autumn clock change', async () => {
    // 23:30 in Oslo on 24 November 2026: 31 × 24 hours back is 00:30 on 25 October (summer time),
    // which once made the first fetch a day short.
    const late = await startStatementHarness({ start: '2026-11-24T22:30:00Z' });
    try {
      const [operating] = await runFetchStatements(late.fetchDeps(), [late.company]);
      expect(operating!.from).toBe('2026-10-24');
      expect(operating!.days).toHaveLength(31);
    } finally {
      await late.close();
    }
  });

  it('re-fetching the same window (the overlap) stores nothing twice', async () => {
    await runFetchStatements(h.fetchDeps(), [h.company]);
    h.sandbox.advance(3_600_000);
    const again = await runFetchStatements(h.fetchDeps(), [h.company]);
    expect(again.map((r) => ({ inserted: r.inserted, updated: r.updated }))).toEqual([
      { inserted: 0, updated: 0 },
      { inserted: 0, updated: 0 },
      { inserted: 0, updated: 0 },
      { inserted: 0, updated: 0 },
    ]);
    expect(again[0]!.from).toBe('2026-01-02'); // watermark (05 Jan 08:00Z) − 3 days overlap
    const stored = await new StatementRepository(h.db, h.clock).listTransactions(SEED.operatingAccountId);
    expect(stored).toHaveLength(6);
  });

  it('exports each complete day once per format, days without entries too, with stable sequence numbers', async () => {
    await runFetchStatements(h.fetchDeps(), [h.company]);
    const first = await runExportStatements(h.exportDeps(), [h.company]);
    expect(first.withheld).toEqual([]);
    const operating = first.files.filter(
      (f) => f.accountId === SEED.operatingAccountId && f.format === 'camt.053.001.02',
    );
    // 2025-12-05 … 2026-01-04: 31 days, each its own statement; five of them have entries.
    expect(operating).toHaveLength(31);
    expect(operating.map((f) => f.sequenceNumber)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(
      operating.filter((f) => f.entries > 0).map((f) => [f.period, f.sequenceNumber, f.legalSequenceNumber, f.entries]),
    ).toEqual([
      ['2025-12-31', 27, 27, 2],
      ['2026-01-01', 28, 1, 1],
      ['2026-01-02', 29, 2, 1],
      ['2026-01-03', 30, 3, 1],
      ['2026-01-04', 31, 4, 1],
    ]);
    // Three enabled accounts (two at testbank, one at nordbank), 31 days, three formats.
    expect(first.files).toHaveLength((31 + 31 + 31) * 3);
    expect(await statementFiles()).toContain(file('2025-12-31', 'camt.053.001.02.xml'));
    expect(await statementFiles()).toContain(file('2026-01-03', 'csv', SEED.approvalIban));
    expect((await statementFiles()).some((n) => n.endsWith('.part'))).toBe(false);

    // A day without entries: opening and closing balance equal, its own legal sequence number.
    const empty = (await read(file('2025-12-20', 'camt.053.001.02.xml'))).toString('utf8');
    expect(empty).not.toContain('<Ntry>');
    expect(empty).toContain('<LglSeqNb>16</LglSeqNb>');
    const balances = [...empty.matchAll(/<Amt Ccy="NOK">([\d.]+)<\/Amt>/g)].map((m) => m[1]);
    expect(balances).toHaveLength(2);
    expect(balances[0]).toBe(balances[1]);
    expect(empty).toContain('<NbOfNtries>0</NbOfNtries>');

    const second = await runExportStatements(h.exportDeps(), [h.company]);
    expect(second).toEqual({ files: [], withheld: [], changed: [] });

    const xml = (await read(file('2025-12-31', 'camt.053.001.02.xml'))).toString('utf8');
    expect(xml).toContain('<ElctrncSeqNb>27</ElctrncSeqNb>');
    expect(xml).toContain('<LglSeqNb>27</LglSeqNb>');
    expect(xml).toMatch(/<NtryRef>SBX\d+<\/NtryRef>/);
    expect(xml).toContain('<Cd>OPBD</Cd>');
    expect(xml).toContain('<Cd>CLBD</Cd>');
    expect(xml).toMatch(/<AcctSvcrRef>SBX\d+<\/AcctSvcrRef>/);
    expect(xml).toMatch(/<EndToEndId>SEED-E2E-\d+<\/EndToEndId>/);
    expect(xml).toContain('Kontorrekvisita AS');
    expect(xml).toContain('Ordre 77');
    // aqbanking's XML reader fails on a start tag broken over lines.
    expect(xml).not.toMatch(/<[A-Za-z][^>]*\n/);
  });

  it('a payment is stored as pending, then as booked once the bank books it, and its day is exported', async () => {
    await runFetchStatements(h.fetchDeps(), [h.company]);
    await runExportStatements(h.exportDeps(), [h.company]);
    const created = await h.bank.createBulkPayment(
      SEED.resourceGroupName,
      {
        debtorAccount: { iban: SEED.operatingIban },
        requestedExecutionDate: '2026-01-06',
        paymentLines: [
          {
            endToEndIdentification: 'E2E-STMT-1',
            instructedAmount: { currency: 'NOK', amount: '1234.50' },
            creditorAccount: { iban: 'NO6315061111112' },
            creditorName: 'Kunde Nord AS',
            remittanceInformationUnstructured: '=HYPERLINK("x")',
          },
        ],
      },
      { idempotencyKey: '0b6f1c1e-9a77-4e39-8f36-3f7f5d0c1a01' },
    );
    expect(created.transactionStatus).toBe('RCVD');
    h.sandbox.advance(120_000); // RCVD → ACSP: a pending entry
    const pending = await runFetchStatements(h.fetchDeps(), [h.company]);
    expect(pending[0]!.inserted).toBe(1);
    const repo = new StatementRepository(h.db, h.clock);
    expect(
      (await repo.listTransactions(SEED.operatingAccountId, { status: 'pending' })).map((t) => t.endToEndId),
    ).toEqual(['E2E-STMT-1']);

    h.sandbox.advance(2 * 86_400_000); // booked on 2026-01-06; now 2026-01-07, so the 6th is complete
    const booked = await runFetchStatements(h.fetchDeps(), [h.company]);
    expect(booked[0]).toMatchObject({ inserted: 1, pendingResolved: 1 });
    expect(await repo.listTransactions(SEED.operatingAccountId, { status: 'pending' })).toEqual([]);
    const bookedRows = await repo.listTransactions(SEED.operatingAccountId, {
      status: 'booked',
      bookingDate: '2026-01-06' as never,
    });
    expect(bookedRows.map((t) => [t.endToEndId, t.amount.minor])).toEqual([['E2E-STMT-1', -123_450n]]);
    expect(booked[0]!.days.find((d) => d.day === '2026-01-06')).toMatchObject({ continuity: 'ok', entryCount: 1 });

    const exported = await runExportStatements(h.exportDeps(), [h.company]);
    const camt = exported.files.filter(
      (f) => f.format === 'camt.053.001.02' && f.accountId === SEED.operatingAccountId,
    );
    // The 5th had no entries and gets its statement too.
    expect(camt.map((f) => [f.period, f.sequenceNumber, f.legalSequenceNumber, f.entries])).toEqual([
      ['2026-01-05', 32, 5, 0],
      ['2026-01-06', 33, 6, 1],
    ]);
    const csv = (await read(file('2026-01-06', 'csv'))).toString('utf8');
    expect(csv).toContain('E2E-STMT-1');
    expect(csv).toContain('-1234.50');
    // Spreadsheet formula injection is neutralised.
    expect(csv).not.toMatch(/[;"]=HYPERLINK/);
  });

  it('an account that is not enabled is reported, not fatal; one that was enabled before needs a person', async () => {
    const first = await runFetchStatements(h.fetchDeps(), [h.company]);
    // Waiting for the bank to finish onboarding is expected: said, but nobody is called.
    expect(first.find((r) => r.accountId === SEED.pendingAccountId)?.outcome).toBe('not-yet-enabled');
    expect(fetchNeedsAttention(first)).toBe(false);
    h.sandbox.sandbox.state.accounts.get(SEED.approvalAccountId)!.status = 'disabled';
    const results = await runFetchStatements(h.fetchDeps(), [h.company]);
    expect(results.map((r) => [r.accountId, r.outcome, r.status])).toEqual([
      [SEED.operatingAccountId, 'fetched', undefined],
      [SEED.approvalAccountId, 'not-enabled', 'disabled'],
      [SEED.nordbankAccountId, 'fetched', undefined],
      [SEED.pendingAccountId, 'not-yet-enabled', 'disabled'],
    ]);
    expect(first[0]!.inserted).toBe(6);
    expect(fetchNeedsAttention(results)).toBe(true);
  });

  it('an explicit re-export writes the same bytes again, with the same statement id and sequence number, as a new version', async () => {
    await runFetchStatements(h.fetchDeps(), [h.company]);
    await runExportStatements(h.exportDeps(), [h.company]);
    const before = await read(file('2026-01-02', 'camt.053.001.08.xml'));
    const again = await runExportStatements(h.exportDeps(), [h.company], {
      account: SEED.operatingIban,
      from: '2026-01-02' as never,
      to: '2026-01-02' as never,
    });
    expect(again.files.every((f) => f.legalSequenceNumber === 2)).toBe(true);
    expect(again.files.map((f) => [f.format, f.period, f.sequenceNumber, f.version, f.explicit])).toEqual([
      ['camt.053.001.02', '2026-01-02', 29, 2, true],
      ['camt.053.001.08', '2026-01-02', 29, 2, true],
      ['csv-statement', '2026-01-02', 29, 2, true],
    ]);
    expect((await read(file('2026-01-02', 'camt.053.001.08.xml'))).equals(before)).toBe(true);
    await expect(
      runExportStatements(h.exportDeps(), [h.company], {
        account: 'NO0000000000000',
        from: '2026-01-02' as never,
        to: '2026-01-02' as never,
      }),
    ).rejects.toMatchObject({ code: 'ERR_STATEMENT_ACCOUNT_UNKNOWN' });
  });

  it('a crash between writing a file and recording it re-writes the same bytes on the next run', async () => {
    await runFetchStatements(h.fetchDeps(), [h.company]);
    const real = new ExportRepository(h.db, h.clock);
    // The automatic export records an account's new files together once they are written.
    let calls = 0;
    const crashing = Object.create(real) as ExportRepository;
    crashing.recordFirsts = (inputs) => {
      calls++;
      if (calls === 1) return Promise.reject(new Error('simulated crash after the write'));
      return real.recordFirsts(inputs);
    };
    await expect(runExportStatements(h.exportDeps({ exports: crashing }), [h.company])).rejects.toThrow(
      'simulated crash',
    );
    // Accounts are exported in id order: the pre-approved account's first day came first.
    const name = file('2025-12-05', 'camt.053.001.02.xml', SEED.approvalIban);
    const written = await read(name);
    const next = await runExportStatements(h.exportDeps(), [h.company]);
    expect(next.files[0]).toMatchObject({
      accountId: SEED.approvalAccountId,
      period: '2025-12-05',
      format: 'camt.053.001.02',
      sequenceNumber: 1,
      legalSequenceNumber: 1,
      version: 1,
    });
    expect((await read(name)).equals(written)).toBe(true);
  });
});
