// Continuity breaks, withheld days, explicit exports, per-run periods and pending entries,
// driven by a fake bank that reports what the test wants (SQLite and a local folder are real).
import { mkdirSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runExportStatements, type ExportResult, type ExportStatementsDeps } from '../../../jobs/statements/export.js';
import { fetchNeedsAttention, runFetchStatements, type FetchStatementsDeps } from '../../../jobs/statements/fetch.js';
import { BankError } from '../../../src/bank/index.js';
import type { CompanyConfig } from '../../../src/config/index.js';
import { ManualClock } from '../../../src/domain/clock.js';
import type { LocalDate } from '../../../src/domain/local-date.js';
import { silentLogger } from '../../../src/log/index.js';
import { openDatabase, type Database } from '../../../src/store/database.js';
import { ExportRepository } from '../../../src/store/exports.js';
import { ExportFloorRepository, LegalSequenceRepository, PaymentRepository } from '../../../src/store/index.js';
import { StatementDayRepository } from '../../../src/store/statement-days.js';
import { StatementRepository } from '../../../src/store/statements.js';
import { LocalFileStore } from '../../../src/transport/index.js';
import { createThrowawayDatabase, mariaDbForTests } from '../../support/mariadb.js';
import { itWith, xmllintValidate, xmllintXpath } from '../../support/oracles.js';
import { makeTempDir } from '../../support/tmp.js';
import { closing, fakeAccount, fakeBank, fakeTx, type FakeBankData } from './fake-bank.js';
import { companyConfig } from './harness.js';

const ID = 'acc-1';
const IBAN = 'NO9386011117947';
const day = (d: string) => d as LocalDate;
const withXmllint = itWith('xmllint');

interface OpenedDb {
  db: Database;
  drop(): Promise<void>;
}

const maria = await mariaDbForTests();
const BACKENDS: [string, boolean, (dir: string) => Promise<OpenedDb>][] = [
  [
    'SQLite',
    true,
    async (dir) => ({
      db: await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` }),
      drop: () => Promise.resolve(),
    }),
  ],
  [
    'MariaDB',
    maria,
    async () => {
      const target = await createThrowawayDatabase();
      return { db: await openDatabase({ url: target.url }), drop: () => target.drop() };
    },
  ],
];

describe.each(BACKENDS)('statement continuity through the jobs (%s)', (_name, enabled, open) => {
  if (!enabled) {
    it.skip('needs the database server', () => undefined);
    return;
  }
  let dir: string;
  let drop: () => Promise<void>;
  let cleanup: () => Promise<void>;
  let db: Database;
  let clock: ManualClock;
  let data: FakeBankData;
  let fetchDeps: FetchStatementsDeps;
  let exportDeps: ExportStatementsDeps;
  let company: CompanyConfig;
  let store: LocalFileStore;

  function setUp(statements: Parameters<typeof companyConfig>[1] = { formats: ['camt.053.001.02'] }): void {
    company = companyConfig(join(dir, 'acme'), statements);
    mkdirSync(company.root, { recursive: true }); // settle never creates a company root
    store = new LocalFileStore(company.root);
    exportDeps = { ...exportDeps, fileStore: () => Promise.resolve(store) };
  }

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    const opened = await open(dir);
    db = opened.db;
    drop = () => opened.drop();
    await db.migrate();
    clock = new ManualClock('2026-01-05T08:00:00Z');
    const fake = fakeBank();
    data = fake.data;
    data.accounts.push(fakeAccount(ID, IBAN));
    data.transactions.set(ID, [
      fakeTx('T1', 'booked', '100.00', '2026-01-02'),
      fakeTx('T2', 'booked', '-50.00', '2026-01-03'),
      fakeTx('T3', 'booked', '10.00', '2026-01-04'),
    ]);
    data.balances.set(ID, [
      closing('2026-01-01', '1000.00'),
      closing('2026-01-02', '1100.00'),
      closing('2026-01-03', '1060.00'),
      closing('2026-01-04', '1070.00'),
    ]);
    const logger = silentLogger();
    fetchDeps = {
      bank: fake.bank,
      statements: new StatementRepository(db, clock),
      days: new StatementDayRepository(db, clock),
      clock,
      logger,
      timeZone: 'Europe/Oslo',
      initialDays: 4,
    };
    exportDeps = {
      statements: new StatementRepository(db, clock),
      days: new StatementDayRepository(db, clock),
      exports: new ExportRepository(db, clock),
      payments: new PaymentRepository(db, clock),
      legalSequence: new LegalSequenceRepository(db, clock),
      exportFloors: new ExportFloorRepository(db),
      clock,
      logger,
      timeZone: 'Europe/Oslo',
      fileStore: () => Promise.reject(new Error('set up first')),
    };
    setUp();
  });

  afterEach(async () => {
    await store.close();
    await db.close();
    await drop();
    await cleanup();
  });

  const files = async () => (await readdir(join(company.root, 'statements')).catch(() => [] as string[])).sort();

  it('stores a mismatch with its figures, holds back that day and every later day, and says so', async () => {
    const [fetched] = await runFetchStatements(fetchDeps, [company]);
    expect(fetched!.days.map((d) => [d.day, d.continuity])).toEqual([
      ['2026-01-01', 'unchecked'], // the bank has no earlier closing: the history starts here
      ['2026-01-02', 'ok'],
      ['2026-01-03', 'mismatch'],
      ['2026-01-04', 'ok'],
    ]);
    const stored = await new StatementDayRepository(db, clock).list(ID, day('2026-01-03'), day('2026-01-03'));
    expect(stored[0]).toMatchObject({
      openingMinor: 110_000n,
      closingMinor: 106_000n,
      bookedSumMinor: -5_000n,
      continuity: 'mismatch',
    });
    expect(stored[0]!.finding).toContain('difference 10.00 NOK');
    expect(fetchNeedsAttention([fetched!])).toBe(true);

    const exported = await runExportStatements(exportDeps, [company]);
    // The 1st has no entries and gets its statement all the same (statements.emptyDays).
    expect(exported.files.map((f) => f.period)).toEqual(['2026-01-01', '2026-01-02']);
    expect(exported.withheld).toMatchObject([{ accountId: ID, day: '2026-01-03', format: 'camt.053.001.02' }]);
    expect(exported.withheld[0]!.reason).toContain('continuity mismatch');
    expect(await files()).toEqual([
      `acme-${IBAN}-2026-01-01.camt.053.001.02.xml`,
      `acme-${IBAN}-2026-01-02.camt.053.001.02.xml`,
    ]);
  });

  it('keeps reporting the break on later fetches until the bank corrects it, then exports the days in order', async () => {
    await runFetchStatements(fetchDeps, [company]);
    await runExportStatements(exportDeps, [company]);
    clock.advance(5 * 86_400_000); // the break is now older than the overlap window
    const again = await runFetchStatements(fetchDeps, [company]);
    expect(again[0]!.days.find((d) => d.day === '2026-01-03')?.continuity).toBe('mismatch');
    data.balances.set(ID, [
      closing('2026-01-01', '1000.00'),
      closing('2026-01-02', '1100.00'),
      closing('2026-01-03', '1050.00'),
      closing('2026-01-04', '1060.00'),
      closing('2026-01-09', '1060.00'),
    ]);
    data.balances.get(ID)!.push(...['05', '06', '07', '08'].map((d) => closing(`2026-01-${d}`, '1060.00')));
    const corrected = await runFetchStatements(fetchDeps, [company]);
    expect(corrected[0]!.days.filter((d) => d.continuity !== 'ok')).toEqual([]);
    const exported = await runExportStatements(exportDeps, [company]);
    expect(exported.withheld).toEqual([]);
    // The held days follow in order, then the days without entries up to the last complete one.
    expect(exported.files.map((f) => [f.period, f.sequenceNumber, f.legalSequenceNumber, f.entries])).toEqual([
      ['2026-01-03', 3, 3, 1],
      ['2026-01-04', 4, 4, 1],
      ['2026-01-05', 5, 5, 0],
      ['2026-01-06', 6, 6, 0],
      ['2026-01-07', 7, 7, 0],
      ['2026-01-08', 8, 8, 0],
      ['2026-01-09', 9, 9, 0],
    ]);
  });

  it('reports a missing closing balance as a gap on the following day and holds it back', async () => {
    data.balances.set(ID, [
      closing('2026-01-01', '1000.00'),
      closing('2026-01-02', '1100.00'),
      closing('2026-01-04', '1060.00'),
    ]);
    const [fetched] = await runFetchStatements(fetchDeps, [company]);
    expect(fetched!.days.map((d) => [d.day, d.continuity])).toEqual([
      ['2026-01-01', 'unchecked'],
      ['2026-01-02', 'ok'],
      ['2026-01-04', 'gap'],
    ]);
    const exported = await runExportStatements(exportDeps, [company]);
    expect(exported.files.map((f) => f.period)).toEqual(['2026-01-01', '2026-01-02']);
    expect(exported.withheld.map((h) => h.day)).toEqual(['2026-01-04']);
  });

  it('exports a broken day on explicit request, after which the automatic export continues', async () => {
    await runFetchStatements(fetchDeps, [company]);
    await runExportStatements(exportDeps, [company]);
    const explicit = await runExportStatements(exportDeps, [company], {
      account: ID,
      from: day('2026-01-03'),
      to: day('2026-01-03'),
    });
    expect(explicit.files).toMatchObject([
      { period: '2026-01-03', sequenceNumber: 3, legalSequenceNumber: 3, version: 1, explicit: true },
    ]);
    const xml = await readFile(join(company.root, 'statements', `acme-${IBAN}-2026-01-03.camt.053.001.02.xml`), 'utf8');
    expect(xml).toContain('<Amt Ccy="NOK">1100.00</Amt>'); // opening as the bank's chain says
    expect(xml).toContain('<Amt Ccy="NOK">1060.00</Amt>'); // closing as the bank reports it
    const next = await runExportStatements(exportDeps, [company]);
    expect(next.files.map((f) => [f.period, f.sequenceNumber])).toEqual([['2026-01-04', 4]]);
  });

  it('refuses an explicit export with the range the wrong way round', async () => {
    await expect(
      runExportStatements(exportDeps, [company], { account: ID, from: day('2026-01-04'), to: day('2026-01-03') }),
    ).rejects.toMatchObject({ code: 'ERR_STATEMENT_EXPORT_RANGE', exitCode: 2 });
  });

  it('with period "run" writes one statement per account and run, from the first to the last new day', async () => {
    data.balances.get(ID)![2] = closing('2026-01-03', '1050.00');
    data.balances.get(ID)![3] = closing('2026-01-04', '1060.00');
    setUp({ formats: ['camt.053.001.02', 'csv'], period: 'run' });
    await runFetchStatements(fetchDeps, [company]);
    const exported = await runExportStatements(exportDeps, [company]);
    expect(exported.files.map((f) => [f.format, f.period, f.entries, f.sequenceNumber])).toEqual([
      ['camt.053.001.02', '2026-01-01..2026-01-04', 3, 1],
      ['csv-statement', '2026-01-01..2026-01-04', 3, 1],
    ]);
    expect(await files()).toContain(`acme-${IBAN}-2026-01-01_2026-01-04.csv`);
    expect((await runExportStatements(exportDeps, [company])).files).toEqual([]);
    data.transactions.get(ID)!.push(fakeTx('T4', 'booked', '5.00', '2026-01-05'));
    data.balances.get(ID)!.push(closing('2026-01-05', '1065.00'));
    clock.advance(86_400_000);
    await runFetchStatements(fetchDeps, [company]);
    const next = await runExportStatements(exportDeps, [company]);
    expect(next.files.map((f) => [f.period, f.sequenceNumber])).toEqual([
      ['2026-01-05', 2],
      ['2026-01-05', 2],
    ]);
  });

  it('with period "run", a crash between writing a period and recording it re-writes that period before the next, so no day is in two files', async () => {
    data.balances.get(ID)![2] = closing('2026-01-03', '1050.00');
    data.balances.get(ID)![3] = closing('2026-01-04', '1060.00');
    setUp({ formats: ['camt.053.001.02'], period: 'run' });
    await runFetchStatements(fetchDeps, [company]);
    const crashing = Object.create(exportDeps.exports) as ExportRepository;
    crashing.recordFirsts = () => Promise.reject(new Error('simulated crash after the write'));
    await expect(runExportStatements({ ...exportDeps, exports: crashing }, [company])).rejects.toThrow(
      'simulated crash',
    );
    const first = `acme-${IBAN}-2026-01-01_2026-01-04.camt.053.001.02.xml`;
    const written = await readFile(join(company.root, 'statements', first));
    // A new day completes before the re-run.
    data.transactions.get(ID)!.push(fakeTx('T4', 'booked', '5.00', '2026-01-05'));
    data.balances.get(ID)!.push(closing('2026-01-05', '1065.00'));
    clock.advance(86_400_000);
    await runFetchStatements(fetchDeps, [company]);
    const next = await runExportStatements(exportDeps, [company]);
    expect(next.files.map((f) => [f.period, f.sequenceNumber, f.legalSequenceNumber, f.version])).toEqual([
      ['2026-01-01..2026-01-04', 1, 1, 1],
      ['2026-01-05', 2, 2, 1],
    ]);
    expect(await files()).toEqual([first, `acme-${IBAN}-2026-01-05.camt.053.001.02.xml`]);
    expect((await readFile(join(company.root, 'statements', first))).equals(written)).toBe(true);
  });

  it('holds back a day written but not recorded (a crash) that a late booking changed, instead of replacing the file in silence', async () => {
    data.balances.get(ID)![2] = closing('2026-01-03', '1050.00');
    data.balances.get(ID)![3] = closing('2026-01-04', '1060.00');
    await runFetchStatements(fetchDeps, [company]);
    const crashing = Object.create(exportDeps.exports) as ExportRepository;
    crashing.recordFirsts = () => Promise.reject(new Error('simulated crash after the write'));
    await expect(runExportStatements({ ...exportDeps, exports: crashing }, [company])).rejects.toThrow(
      'simulated crash',
    );
    const name = (d: string) => `acme-${IBAN}-${d}.camt.053.001.02.xml`;
    // The ERP may have imported these four files before the late booking arrived.
    const delivered = await readFile(join(company.root, 'statements', name('2026-01-03')));
    data.transactions.get(ID)!.push(fakeTx('LATE', 'booked', '20.00', '2026-01-03'));
    data.balances.get(ID)![2] = closing('2026-01-03', '1070.00');
    data.balances.get(ID)![3] = closing('2026-01-04', '1080.00');
    clock.advance(3_600_000);
    await runFetchStatements(fetchDeps, [company]);
    const next = await runExportStatements(exportDeps, [company]);
    // The unchanged days before it are recorded as written; the changed day and the days after it wait.
    expect(next.files.map((f) => [f.period, f.sequenceNumber, f.version])).toEqual([
      ['2026-01-01', 1, 1],
      ['2026-01-02', 2, 1],
    ]);
    expect(next.withheld).toMatchObject([{ day: '2026-01-03' }]);
    expect(next.withheld[0]!.reason).toContain('stopped before recording it');
    expect((await readFile(join(company.root, 'statements', name('2026-01-03')))).equals(delivered)).toBe(true);
    // A person decides: the explicit export writes them under their numbers (04 changed too: its
    // opening balance), then the automatic export has nothing left to hold.
    const fixed = await runExportStatements(exportDeps, [company], {
      account: IBAN,
      from: day('2026-01-03'),
      to: day('2026-01-04'),
    });
    expect(fixed.files.map((f) => [f.period, f.sequenceNumber, f.entries])).toEqual([
      ['2026-01-03', 3, 2],
      ['2026-01-04', 4, 1],
    ]);
    const after = await runExportStatements(exportDeps, [company]);
    expect(after.withheld).toEqual([]);
    expect(after.files).toEqual([]);
  });

  it('holds back a numbered, unrecorded run period whose days no longer give its name, and the days after it', async () => {
    data.balances.get(ID)![2] = closing('2026-01-03', '1050.00');
    data.balances.get(ID)![3] = closing('2026-01-04', '1060.00');
    setUp({ formats: ['camt.053.001.02'], period: 'run' });
    await runFetchStatements(fetchDeps, [company]);
    // As if a run had numbered a period up to a day the bank no longer reports as complete.
    await exportDeps.exports.assignSequenceNumbers('camt.053.001.02', ID, ['2026-01-02..2026-01-06']);
    const exported = await runExportStatements(exportDeps, [company]);
    expect(exported.files.map((f) => [f.period, f.sequenceNumber])).toEqual([['2026-01-01', 2]]);
    expect(exported.withheld).toMatchObject([{ day: '2026-01-02' }]);
    expect(exported.withheld[0]!.reason).toContain('period 2026-01-02..2026-01-06 was numbered');
    expect(await files()).toEqual([`acme-${IBAN}-2026-01-01.camt.053.001.02.xml`]);
  });

  withXmllint(
    'gives a day exported late the next electronic sequence number, never one another file carries',
    async () => {
      data.transactions.set(ID, [
        fakeTx('T1', 'booked', '100.00', '2026-01-02'),
        fakeTx('T3', 'booked', '10.00', '2026-01-04'),
      ]);
      data.balances.get(ID)![2] = closing('2026-01-03', '1100.00');
      data.balances.get(ID)![3] = closing('2026-01-04', '1110.00');
      setUp({ formats: ['camt.053.001.02'], emptyDays: false });
      await runFetchStatements(fetchDeps, [company]);
      const numbers = (r: ExportResult) => r.files.map((f) => [f.period, f.sequenceNumber, f.legalSequenceNumber]);
      expect(numbers(await runExportStatements(exportDeps, [company]))).toEqual([
        ['2026-01-02', 1, 1],
        ['2026-01-04', 2, 2],
      ]);
      // Two bookings that cancel out arrive late on the empty day: it now has a statement, and no
      // delivered day changes.
      data.transactions.get(ID)!.push(fakeTx('L1', 'booked', '50.00', '2026-01-03'));
      data.transactions.get(ID)!.push(fakeTx('L2', 'booked', '-50.00', '2026-01-03'));
      clock.advance(3_600_000);
      await runFetchStatements(fetchDeps, [company]);
      const late = await runExportStatements(exportDeps, [company]);
      expect(late.changed).toEqual([]);
      expect(numbers(late)).toEqual([['2026-01-03', 3, 3]]);
      // A re-export keeps the number its period was given.
      const again = await runExportStatements(exportDeps, [company], {
        account: IBAN,
        from: day('2026-01-04'),
        to: day('2026-01-04'),
      });
      expect(again.files).toMatchObject([{ period: '2026-01-04', sequenceNumber: 2, version: 2 }]);
      const carried: string[] = [];
      for (const name of await files()) {
        const xml = await readFile(join(company.root, 'statements', name));
        expect((await xmllintValidate(xml, 'camt.053.001.02')).valid).toBe(true);
        carried.push(await xmllintXpath(xml, "string(//*[local-name()='ElctrncSeqNb'])"));
      }
      expect(carried).toEqual(['1', '3', '2']);
    },
  );

  it('reports a delivered day the bank changed afterwards (a late booking) until it is re-exported explicitly', async () => {
    data.balances.get(ID)![2] = closing('2026-01-03', '1050.00');
    data.balances.get(ID)![3] = closing('2026-01-04', '1060.00');
    await runFetchStatements(fetchDeps, [company]);
    expect((await runExportStatements(exportDeps, [company])).files.map((f) => f.period)).toEqual([
      '2026-01-01',
      '2026-01-02',
      '2026-01-03',
      '2026-01-04',
    ]);
    data.transactions.get(ID)!.push(fakeTx('LATE', 'booked', '20.00', '2026-01-04'));
    data.balances.get(ID)![3] = closing('2026-01-04', '1080.00');
    clock.advance(3_600_000);
    const [fetched] = await runFetchStatements(fetchDeps, [company]);
    expect(fetched!.days.find((d) => d.day === '2026-01-04')).toMatchObject({ continuity: 'ok', entryCount: 2 });
    const exported = await runExportStatements(exportDeps, [company]);
    expect(exported.files).toEqual([]);
    expect(exported.changed).toMatchObject([
      { period: '2026-01-04', fileName: `acme-${IBAN}-2026-01-04.camt.053.001.02.xml` },
    ]);
    expect(exported.changed[0]!.reason).toContain('now 2 entries, delivered 1');
    const fixed = await runExportStatements(exportDeps, [company], {
      account: IBAN,
      from: day('2026-01-04'),
      to: day('2026-01-04'),
    });
    expect(fixed.files).toMatchObject([
      { period: '2026-01-04', sequenceNumber: 4, legalSequenceNumber: 4, version: 2, entries: 2 },
    ]);
    expect((await runExportStatements(exportDeps, [company])).changed).toEqual([]);
  });

  it('looks only at the days it still has to, and still exports the days a late fetch stores below them', async () => {
    data.balances.get(ID)![2] = closing('2026-01-03', '1050.00');
    data.balances.get(ID)![3] = closing('2026-01-04', '1060.00');
    await runFetchStatements(fetchDeps, [company]);
    const first = await runExportStatements(exportDeps, [company]);
    expect(first.files.map((f) => f.period)).toEqual(['2026-01-01', '2026-01-02', '2026-01-03', '2026-01-04']);
    // The bank closes ten more days, but only the export runs those nights (the fetch is off).
    for (let n = 5; n <= 14; n++)
      data.balances.get(ID)!.push(closing(`2026-01-${String(n).padStart(2, '0')}`, '1060.00'));
    const list = vi.spyOn(exportDeps.days, 'listOf');
    for (let night = 0; night < 10; night++) {
      clock.advance(86_400_000);
      expect((await runExportStatements(exportDeps, [company])).files).toEqual([]);
    }
    // On 15 January the export reads from the start of the overlap window (14 January − 3 days
    // − 1), not from the account's first day: its floor passed the delivered days.
    expect(list.mock.calls.at(-1)?.slice(1)).toEqual(['2026-01-10', '2026-01-14']);
    // The fetch catches up: ten days stored below the floor, each exported once, numbered on.
    await runFetchStatements(fetchDeps, [company]);
    const caught = await runExportStatements(exportDeps, [company]);
    expect(caught.withheld).toEqual([]);
    expect(caught.files.map((f) => [f.period, f.sequenceNumber])).toEqual(
      Array.from({ length: 10 }, (_, i) => [`2026-01-${String(i + 5).padStart(2, '0')}`, i + 5]),
    );
    expect((await runExportStatements(exportDeps, [company])).files).toEqual([]);
  });

  it('turns a pending entry into the booked one in place when the bank books it under the same id', async () => {
    data.transactions.get(ID)!.push(fakeTx('T9', 'pending', '-20.00'));
    await runFetchStatements(fetchDeps, [company]);
    const repo = new StatementRepository(db, clock);
    expect((await repo.listTransactions(ID, { status: 'pending' })).map((t) => t.bankTransactionId)).toEqual(['T9']);
    data.transactions.get(ID)!.splice(3, 1, fakeTx('T9', 'booked', '-20.00', '2026-01-05'));
    clock.advance(3_600_000);
    const [again] = await runFetchStatements(fetchDeps, [company]);
    expect(again).toMatchObject({ inserted: 0, updated: 1, pendingResolved: 0 });
    expect(await repo.listTransactions(ID, { status: 'pending' })).toEqual([]);
    expect(
      (await repo.listTransactions(ID, { status: 'booked', bookingDate: day('2026-01-05') })).map(
        (t) => t.bankTransactionId,
      ),
    ).toEqual(['T9']);
  });

  it('moves the watermark only after a complete fetch, and starts the next window at watermark − overlap', async () => {
    await runFetchStatements(fetchDeps, [company]);
    expect(data.calls).toContain(`transactions ${ID} from 2026-01-01 both`);
    expect(data.calls).toContain(`balances ${ID} from 2025-12-31`);
    data.transactions.get(ID)!.push(fakeTx('BAD', 'booked', '1.234', '2026-01-05'));
    clock.advance(10 * 86_400_000);
    const [failed] = await runFetchStatements(fetchDeps, [company]);
    expect(failed).toMatchObject({ outcome: 'failed', error: { code: 'ERR_STATEMENT_BANK_DATA' } });
    expect(await new StatementRepository(db, clock).fetchedTo(ID)).toEqual(new Date('2026-01-05T08:00:00Z'));
    data.calls.length = 0;
    data.transactions.get(ID)!.pop();
    await runFetchStatements(fetchDeps, [company]);
    // 2026-01-05T08:00Z − 3 days overlap, as an Oslo day.
    expect(data.calls[0]).toBe(`transactions ${ID} from 2026-01-02 both`);
  });

  it('reports an account that is not enabled without fetching it', async () => {
    data.accounts.push(fakeAccount('acc-2', 'NO7215031234562', 'blocked'));
    const results = await runFetchStatements(fetchDeps, [company]);
    expect(results.map((r) => [r.accountId, r.outcome])).toEqual([
      [ID, 'fetched'],
      ['acc-2', 'not-yet-enabled'], // never fetched: waiting for the bank's onboarding
    ]);
    expect(data.calls.some((c) => c.includes('acc-2'))).toBe(false);
  });
});

describe('a company whose accounts the bank will not list', () => {
  it('is reported as failed while the other companies are fetched', async () => {
    const { dir, cleanup } = await makeTempDir();
    const db = await openDatabase({ url: `sqlite:${join(dir, 'settle.sqlite')}` });
    try {
      await db.migrate();
      const clock = new ManualClock('2026-01-05T08:00:00Z');
      const fake = fakeBank();
      fake.data.accounts.push(fakeAccount(ID, IBAN));
      const bank = {
        ...fake.bank,
        listAccounts: (context: { resourceGroupName?: string }) =>
          context.resourceGroupName === 'refused' ? failing() : fake.bank.listAccounts(context as never),
      };
      const deps: FetchStatementsDeps = {
        bank: bank as never,
        statements: new StatementRepository(db, clock),
        days: new StatementDayRepository(db, clock),
        clock,
        logger: silentLogger(),
        timeZone: 'Europe/Oslo',
      };
      const refused = { ...companyConfig(join(dir, 'a')), id: 'refused', organisationNumber: 'refused' };
      const results = await runFetchStatements(deps, [refused, companyConfig(join(dir, 'b'))]);
      expect(results.map((r) => [r.company, r.outcome, r.error?.code])).toEqual([
        ['refused', 'failed', 'ERR_BANK_FORBIDDEN'],
        ['acme', 'fetched', undefined],
      ]);
    } finally {
      await db.close();
      await cleanup();
    }
  });
});

// eslint-disable-next-line require-yield
async function* failing(): AsyncGenerator<never> {
  await Promise.resolve();
  throw new BankError('ERR_BANK_FORBIDDEN', 'Access was forbidden', { status: 403 });
}
