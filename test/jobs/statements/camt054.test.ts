// camt.054 debit and credit notifications written by the export job from a real database:
// settle's own payments (a batch-booked bulk of three lines and a line booked on its own) and
// incoming credits with KID, RF, a broken KID and plain text. The figures in the files are read
// back with xmllint's XPath (a reader independent of our writer) and compared with the database.
// Which packaged importers read camt.054 at all is checked here too (docs/formats/camt054.md):
// none of those we found does, so a reader that starts to is noticed and becomes an oracle.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CashManagementEndOfDayReport } from 'iso20022.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExportStatements, type ExportStatementsDeps } from '../../../jobs/statements/export.js';
import { ownPaymentSource } from '../../../jobs/statements/own-payments.js';
import { configSchema, type CompanyConfig } from '../../../src/config/index.js';
import { ManualClock } from '../../../src/domain/clock.js';
import { toLocalDate } from '../../../src/domain/local-date.js';
import { DEFAULT_RECONCILE_CONFIG } from '../../../src/domain/reconcile/index.js';
import { silentLogger } from '../../../src/log/index.js';
import { createStore, openDatabase, type Database, type Store } from '../../../src/store/index.js';
import { LocalFileStore } from '../../../src/transport/index.js';
import { aqbankingCount, itWith, ofxstatementIso20022, xmllintValidate, xmllintXpath } from '../../support/oracles.js';
import { makeTempDir } from '../../support/tmp.js';
import { recordSent } from '../../../jobs/submit/index.js';

const ACCOUNT = 'NO9386011117947';
const DAY = toLocalDate('2026-01-07');
const el = (...names: string[]) => names.map((n) => `/*[local-name()='${n}']`).join('');
const NTRY = `/${el('Document', 'BkToCstmrDbtCdtNtfctn', 'Ntfctn', 'Ntry')}`;
const withXmllint = itWith('xmllint');

describe('camt.054 notifications from the export job', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: Database;
  let store: Store;
  let clock: ManualClock;
  let company: CompanyConfig;
  let deps: ExportStatementsDeps;
  const folder = () => join(company.root, 'statements');
  const files = async () => (await readdir(folder())).filter((n) => n.endsWith('.xml')).sort();
  const read = (name: string) => readFile(join(folder(), name), 'utf8');

  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir());
    clock = new ManualClock('2026-01-08T09:00:00Z');
    db = await openDatabase({ url: `sqlite:${join(dir, 'db.sqlite')}` });
    await db.migrate();
    store = createStore(db, clock);
    company = configSchema.parse({
      companies: [
        {
          id: 'acme',
          name: 'ACME AS',
          organisationNumber: '999999999',
          root: join(dir, 'acme'),
          statements: { formats: ['camt.054.001.02', 'camt.054.001.08'] },
        },
      ],
    }).companies[0]!;
    await mkdir(company.root, { recursive: true }); // settle never creates a company root
    deps = {
      statements: store.statements,
      days: store.statementDays,
      exports: store.exports,
      payments: store.payments,
      legalSequence: store.legalSequence,
      exportFloors: store.exportFloors,
      clock,
      logger: silentLogger(),
      timeZone: 'Europe/Oslo',
      fileStore: () => Promise.resolve(new LocalFileStore(company.root)),
      ownPayments: ownPaymentSource(store, DEFAULT_RECONCILE_CONFIG),
    };
    await seed();
  });
  afterEach(async () => {
    await db.close();
    await cleanup();
  });

  /** One ERP file: a batch-booked bulk of three lines, and one line in a bulk of its own. */
  async function seed(): Promise<void> {
    const payment = (n: number, minor: bigint, pmtInf: string) => ({
      debtorIban: ACCOUNT,
      debtorName: 'ACME AS',
      requestedExecutionDate: DAY,
      endToEndId: `E2E-${n}`,
      amount: { minor, currency: 'NOK' },
      creditorIban: 'NO0612000000009',
      creditorName: `Creditor ${n}`,
      remittanceInformation: `Invoice ${n}`,
      lineNumber: n,
      paymentInformationId: pmtInf,
    });
    const file = await store.files.recordAcceptedFile(
      {
        company: 'acme',
        fileName: 'pay.xml',
        sha256: 'a'.repeat(64),
        format: 'pain.001.001.03',
        sizeBytes: 10,
        receivedAt: clock.now(),
        messageId: 'ERP-MSG-0107',
      },
      [
        payment(1, 10000n, 'BLOCK-A'),
        payment(2, 25000n, 'BLOCK-A'),
        payment(3, 5000n, 'BLOCK-A'),
        { ...payment(4, 777700n, 'BLOCK-B'), creditorReference: 'RF18539007547034' },
      ],
    );
    const lines = await store.payments.listByFile(file.id);
    const bulks = await store.bulks.createBulks(file.id, [
      {
        position: 0,
        debtorIban: ACCOUNT,
        executionDate: DAY,
        batchBooking: true,
        paymentIds: lines.slice(0, 3).map((l) => l.id),
      },
      { position: 1, debtorIban: ACCOUNT, executionDate: DAY, batchBooking: false, paymentIds: [lines[3]!.id] },
    ]);
    for (const [i, bulk] of bulks.entries()) {
      await store.bulks.markSending(bulk.id);
      await recordSent(store, bulk.id, { bankPaymentId: `bank-bulk-${i + 1}`, cause: 'test', bankStatus: 'RCVD' });
    }
    await store.payments.applyBankStatus(
      lines.map((l) => l.id),
      { status: 'ACSC', cause: 'test', source: 'poll' },
    );
    await store.statements.upsertAccount({ id: 'acc-1', company: 'acme', iban: ACCOUNT, currency: 'NOK' });
    const booked = (id: string, minor: bigint, extra: object = {}) => ({
      bankTransactionId: id,
      status: 'booked' as const,
      amount: { minor, currency: 'NOK' },
      bookingDate: DAY,
      valueDate: DAY,
      entryReference: id,
      ...extra,
    });
    const transactions = [
      booked('t-batch', -40000n),
      booked('t-single', -777700n, { endToEndId: 'E2E-4', counterpartyName: 'Creditor 4' }),
      booked('t-fee', -4900n, { counterpartyName: 'Bank fee' }),
      booked('t-kid', 150000n, {
        counterpartyName: 'Kunde AS',
        creditorReference: { reference: '1234 5678 903', type: 'KID' },
      }),
      booked('t-rf', 99950n, { creditorReference: { reference: 'RF18539007547034', type: 'RF' } }),
      booked('t-bad', 5000n, {
        remittance: 'Faktura 17',
        creditorReference: { reference: '12345678900', type: 'KID' },
      }),
      booked('t-text', 700n, { remittance: 'Takk for lånet' }),
    ];
    await store.statements.upsertTransactions('acc-1', transactions);
    const sum = transactions.reduce((s, t) => s + t.amount.minor, 0n);
    await store.statementDays.record({
      accountId: 'acc-1',
      day: DAY,
      currency: 'NOK',
      openingMinor: 1_000_000n,
      closingMinor: 1_000_000n + sum,
      bookedSumMinor: sum,
      entryCount: transactions.length,
      continuity: 'ok',
    });
  }

  withXmllint('writes one debit and one credit notification per version, valid against the XSDs', async () => {
    const result = await runExportStatements(deps, [company]);
    expect(result.withheld).toEqual([]);
    expect(await files()).toEqual([
      'acme-NO9386011117947-2026-01-07.credit.camt.054.001.02.xml',
      'acme-NO9386011117947-2026-01-07.credit.camt.054.001.08.xml',
      'acme-NO9386011117947-2026-01-07.debit.camt.054.001.02.xml',
      'acme-NO9386011117947-2026-01-07.debit.camt.054.001.08.xml',
    ]);
    for (const name of await files()) {
      const version = /camt\.054\.001\.0\d/.exec(name)![0];
      const check = await xmllintValidate(await read(name), version);
      expect(check.valid, `${name}: ${check.output}`).toBe(true);
    }
  });

  withXmllint(
    'describes each booking identically in camt.053 and camt.054: the same Ntry, element by element',
    async () => {
      // An ERP that loads both de-duplicates by NtryRef, AcctSvcrRef and BkTxCd (issue #47, Must 5).
      const formats = ['camt.053.001.02', 'camt.053.001.08', 'camt.054.001.02', 'camt.054.001.08'];
      company = configSchema.parse({
        companies: [
          { id: 'acme', name: 'ACME AS', organisationNumber: '999999999', root: company.root, statements: { formats } },
        ],
      }).companies[0]!;
      await runExportStatements(deps, [company]);
      const entries = async (name: string) => {
        const xml = await read(`acme-NO9386011117947-2026-01-07.${name}.xml`);
        expect((await xmllintValidate(xml, /camt\.05\d\.001\.0\d/.exec(name)![0])).valid, name).toBe(true);
        return new Map(
          [...xml.matchAll(/<Ntry>[\s\S]*?<\/Ntry>/g)].map((m) => [/<NtryRef>([^<]+)</.exec(m[0])![1]!, m[0]]),
        );
      };
      for (const version of ['02', '08']) {
        const statement = await entries(`camt.053.001.${version}`);
        const debit = await entries(`debit.camt.054.001.${version}`);
        const credit = await entries(`credit.camt.054.001.${version}`);
        expect([...statement.keys()].sort()).toEqual([
          't-bad',
          't-batch',
          't-fee',
          't-kid',
          't-rf',
          't-single',
          't-text',
        ]);
        expect([...debit.keys()]).toEqual(['t-batch', 't-single']);
        expect([...credit.keys()].sort()).toEqual(['t-bad', 't-kid', 't-rf', 't-text']);
        for (const [ref, ntry] of [...debit, ...credit])
          expect(ntry, `${ref} in camt.054.001.${version}`).toBe(statement.get(ref));
        // What the bank gave no code for is said once, the same way: a credit is PMNT-MCOP-OTHR in both.
        expect(credit.get('t-kid')).toMatch(/<Domn>\s*<Cd>PMNT<\/Cd>\s*<Fmly>\s*<Cd>MCOP<\/Cd>\s*<SubFmlyCd>OTHR</);
      }
    },
  );

  withXmllint(
    'a debit notification holds settle own bookings with the ERP references, figures as in the database',
    async () => {
      await runExportStatements(deps, [company]);
      for (const version of ['02', '08']) {
        const xml = await read(`acme-NO9386011117947-2026-01-07.debit.camt.054.001.${version}.xml`);
        // The bank fee is not settle's payment: two entries, not three.
        expect(await xmllintXpath(xml, `count(${NTRY})`)).toBe('2');
        expect(await xmllintXpath(xml, `sum(${NTRY}${el('Amt')})`)).toBe('8177');
        const batch = `${NTRY}[1]${el('NtryDtls')}`;
        expect(await xmllintXpath(xml, `string(${NTRY}[1]${el('NtryRef')})`)).toBe('t-batch');
        expect(await xmllintXpath(xml, `count(${batch}${el('TxDtls')})`)).toBe('3');
        expect(await xmllintXpath(xml, `string(${batch}${el('Btch', 'NbOfTxs')})`)).toBe('3');
        expect(await xmllintXpath(xml, `string(${batch}${el('Btch', 'MsgId')})`)).toBe('ERP-MSG-0107');
        expect(await xmllintXpath(xml, `string(${batch}${el('Btch', 'PmtInfId')})`)).toBe('BLOCK-A');
        const ids = await Promise.all(
          [1, 2, 3].map((i) => xmllintXpath(xml, `string(${batch}${el('TxDtls')}[${i}]${el('Refs', 'EndToEndId')})`)),
        );
        expect(ids).toEqual(['E2E-1', 'E2E-2', 'E2E-3']);
        expect(await xmllintXpath(xml, `string(${batch}${el('TxDtls')}[1]${el('Refs', 'Prtry', 'Ref')})`)).toBe(
          'bank-bulk-1',
        );
        const single = `${NTRY}[2]${el('NtryDtls', 'TxDtls')}`;
        expect(await xmllintXpath(xml, `string(${single}${el('Refs', 'EndToEndId')})`)).toBe('E2E-4');
        expect(await xmllintXpath(xml, `string(${single}${el('Refs', 'PmtInfId')})`)).toBe('BLOCK-B');
        expect(await xmllintXpath(xml, `string(${single}${el('Refs', 'AcctSvcrRef')})`)).toBe('t-single');
        expect(await xmllintXpath(xml, `string(${single}${el('RmtInf', 'Strd', 'CdtrRefInf', 'Ref')})`)).toBe(
          'RF18539007547034',
        );
        expect(await xmllintXpath(xml, `count(${NTRY}${el('NtryDtls')}[not(${el('Btch').slice(1)})])`)).toBe('1');
      }
    },
  );

  withXmllint('a credit notification structures only references whose check digits hold', async () => {
    await runExportStatements(deps, [company]);
    const xml = await read('acme-NO9386011117947-2026-01-07.credit.camt.054.001.08.xml');
    expect(await xmllintXpath(xml, `count(${NTRY})`)).toBe('4');
    expect(await xmllintXpath(xml, `sum(${NTRY}${el('Amt')})`)).toBe('2556.5');
    const rmt = (ref: string) => `${NTRY}[${el('NtryRef').slice(1)}='${ref}']${el('NtryDtls', 'TxDtls', 'RmtInf')}`;
    expect(await xmllintXpath(xml, `string(${rmt('t-kid')}${el('Strd', 'CdtrRefInf', 'Ref')})`)).toBe('12345678903');
    expect(await xmllintXpath(xml, `string(${rmt('t-rf')}${el('Strd', 'CdtrRefInf', 'Ref')})`)).toBe(
      'RF18539007547034',
    );
    expect(await xmllintXpath(xml, `count(${rmt('t-bad')}${el('Strd')})`)).toBe('0');
    expect(await xmllintXpath(xml, `string(${rmt('t-bad')}${el('Ustrd')})`)).toBe('12345678900 Faktura 17');
    expect(await xmllintXpath(xml, `string(${rmt('t-text')}${el('Ustrd')})`)).toBe('Takk for lånet');
  });

  it('writes each day once; an explicit re-export writes the same bytes as a new version', async () => {
    const first = await runExportStatements(deps, [company]);
    expect(first.files).toHaveLength(4);
    const before = await read('acme-NO9386011117947-2026-01-07.debit.camt.054.001.02.xml');
    const again = await runExportStatements(deps, [company]);
    expect(again.files).toEqual([]);
    expect(again.changed).toEqual([]);
    const explicit = await runExportStatements(deps, [company], { account: ACCOUNT, from: DAY, to: DAY });
    expect(explicit.files.map((f) => [f.format, f.version])).toEqual([
      ['camt.054.001.02-debit', 2],
      ['camt.054.001.02-credit', 2],
      ['camt.054.001.08-debit', 2],
      ['camt.054.001.08-credit', 2],
    ]);
    expect(await read('acme-NO9386011117947-2026-01-07.debit.camt.054.001.02.xml')).toBe(before);
  });

  it('stops rebuilding a day without own payments once a later day is notified and it lies before the fetch window', async () => {
    const early = toLocalDate('2026-01-02');
    await store.statements.upsertTransactions('acc-1', [
      {
        bankTransactionId: 't-early-fee',
        status: 'booked',
        amount: { minor: -100n, currency: 'NOK' },
        bookingDate: early,
      },
    ]);
    await store.statementDays.record({
      accountId: 'acc-1',
      day: early,
      currency: 'NOK',
      openingMinor: 1_000_100n,
      closingMinor: 1_000_000n,
      bookedSumMinor: -100n,
      entryCount: 1,
      continuity: 'ok',
    });
    const source = ownPaymentSource(store, DEFAULT_RECONCILE_CONFIG);
    const asked: string[] = [];
    const counting = {
      ...deps,
      ownPayments: {
        linesOf: (...args: Parameters<typeof source.linesOf>) => (asked.push(args[2]), source.linesOf(...args)),
      },
    };
    await runExportStatements(counting, [company]);
    expect(asked).toContain('2026-01-02');
    expect(await files()).not.toContain('acme-NO9386011117947-2026-01-02.debit.camt.054.001.02.xml');
    asked.length = 0;
    await runExportStatements(counting, [company]);
    // 2026-01-07 is checked again (it is inside the overlap window); 2026-01-02 is settled.
    expect(asked).not.toContain('2026-01-02');
    expect(asked).toContain('2026-01-07');
  });

  /** 2026-01-06: a complete day without bookings. */
  const recordQuietDay = () =>
    store.statementDays.record({
      accountId: 'acc-1',
      day: toLocalDate('2026-01-06'),
      currency: 'NOK',
      openingMinor: 1_000_000n,
      closingMinor: 1_000_000n,
      bookedSumMinor: 0n,
      entryCount: 0,
      continuity: 'ok',
    });

  it('next to camt.053, a day without bookings gets its statement and legal number but no notification', async () => {
    await recordQuietDay();
    const both = configSchema.parse({
      companies: [{ ...company, statements: { formats: ['camt.053.001.02', 'camt.054.001.02'] } }],
    }).companies[0]!;
    const result = await runExportStatements(deps, [both]);
    expect(result.files.map((f) => [f.format, f.period, f.legalSequenceNumber])).toEqual([
      ['camt.053.001.02', '2026-01-06', 1],
      ['camt.053.001.02', '2026-01-07', 2],
      ['camt.054.001.02-debit', '2026-01-07', undefined],
      ['camt.054.001.02-credit', '2026-01-07', undefined],
    ]);
    expect(await files()).toEqual([
      'acme-NO9386011117947-2026-01-06.camt.053.001.02.xml',
      'acme-NO9386011117947-2026-01-07.camt.053.001.02.xml',
      'acme-NO9386011117947-2026-01-07.credit.camt.054.001.02.xml',
      'acme-NO9386011117947-2026-01-07.debit.camt.054.001.02.xml',
    ]);
  });

  it('takes no legal number for a notification, so statement days keep day order whichever format comes first', async () => {
    await recordQuietDay();
    const notificationFirst = configSchema.parse({
      companies: [{ ...company, statements: { formats: ['camt.054.001.02', 'camt.053.001.02'] } }],
    }).companies[0]!;
    const result = await runExportStatements(deps, [notificationFirst]);
    expect(result.files.map((f) => [f.format, f.period, f.legalSequenceNumber])).toEqual([
      ['camt.054.001.02-debit', '2026-01-07', undefined],
      ['camt.054.001.02-credit', '2026-01-07', undefined],
      ['camt.053.001.02', '2026-01-06', 1],
      ['camt.053.001.02', '2026-01-07', 2],
    ]);
  });

  it('writes only the kinds the company chose', async () => {
    const creditsOnly = configSchema.parse({
      companies: [
        {
          ...company,
          statements: { formats: ['camt.054.001.02'], camt054: { debit: false, credit: true } },
        },
      ],
    }).companies[0]!;
    await runExportStatements(deps, [creditsOnly]);
    expect(await files()).toEqual(['acme-NO9386011117947-2026-01-07.credit.camt.054.001.02.xml']);
  });

  describe('packaged readers (none reads camt.054 yet: the day one does, it becomes an oracle)', () => {
    itWith('aqbanking-cli')('aqbanking-cli has no camt.054 profile: its camt profiles read no entry', async () => {
      await runExportStatements(deps, [company]);
      const xml = await read('acme-NO9386011117947-2026-01-07.credit.camt.054.001.02.xml');
      for (const profile of ['camt_052_001_02', 'camt_053_001_04'])
        expect(await aqbankingCount(xml, profile)).toBeLessThanOrEqual(0);
    });

    itWith('ofxstatement')('ofxstatement iso20022 reads camt.053 only: it refuses a camt.054', async () => {
      await runExportStatements(deps, [company]);
      const xml = await read('acme-NO9386011117947-2026-01-07.credit.camt.054.001.02.xml');
      await expect(ofxstatementIso20022(xml)).rejects.toThrow(/ofxstatement failed/);
    });

    it('iso20022.js reads camt.053 only: a camt.054 gives no statement', async () => {
      await runExportStatements(deps, [company]);
      const xml = await read('acme-NO9386011117947-2026-01-07.credit.camt.054.001.08.xml');
      let statements = 0;
      try {
        statements = CashManagementEndOfDayReport.fromXML(xml).statements.length;
      } catch {
        statements = 0;
      }
      expect(statements).toBe(0);
    });
  });
});
