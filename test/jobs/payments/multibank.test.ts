// A company with accounts at two banks (testbank and nordbank in the sandbox) through pickup →
// submit → approve → status → statements (fetch and export) → reconcile: each bulk goes under its own bank's consent (the
// sandbox records which), a basket never mixes banks, and a file paying from an account the
// bank has not enabled yet is refused at pickup with its line located. SQLite and MariaDB.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { debtorAccountCheck } from '../../../jobs/accounts/debtor-check.js';
import { directoryOncePerRun, isUnreachable } from '../../../jobs/accounts/directory.js';
import { runApprove } from '../../../jobs/approve/approve.js';
import { runExportStatements } from '../../../jobs/statements/export.js';
import { fetchedPerBank, runFetchStatements } from '../../../jobs/statements/fetch.js';
import { runPickup, type PickupDeps } from '../../../jobs/pickup/pickup.js';
import { runReconcile } from '../../../jobs/reconcile/reconcile.js';
import { runStatus } from '../../../jobs/status/poll.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { DEFAULT_RECONCILE_CONFIG } from '../../../src/domain/reconcile/index.js';
import { loadProfile } from '../../../src/formats/csv-profile/index.js';
import { SEED } from '../../../src/sandbox/index.js';
import { StatementDayRepository, StatementRepository } from '../../../src/store/index.js';
import { LocalFileStore } from '../../../src/transport/index.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../../support/mariadb.js';
import { createWorld, type World } from './world.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';
// Each line for its own invoice: lines alike in creditor, amount and reference are held as duplicates.
const line = (debtor: string, e2e: string) =>
  `${debtor},Sandbox AS,2026-01-07,${e2e},100.00,NOK,NO0612000000009,Leverandor AS,Invoice ${e2e}`;
const csv = (...lines: string[]) => [HEADER, ...lines].join('\n') + '\n';

interface RecordedBulk {
  debtorIban: string;
  consentId: string | null;
  transactionStatus: string;
  basketId: string | null;
}

function multibankSuite(name: string, databaseUrl: () => string | undefined): void {
  describe(`a company with accounts at two banks (${name})`, () => {
    let w: World;

    beforeEach(async () => {
      const url = databaseUrl();
      w = await createWorld({
        ...(url === undefined ? {} : { databaseUrl: url }),
        company: { banks: [{ bankId: 'testbank' }, { bankId: 'nordbank' }], intake: { stableFor: '1s' } },
      });
      await mkdir(join(w.company.root, 'inbox'), { recursive: true });
      // What the nightly read of the bank's consents records: one consent per company and bank.
      for (const [bankId, consentId] of [
        ['testbank', SEED.consentId],
        ['nordbank', SEED.nordbankConsentId],
      ] as const)
        await w.store.consents.record({
          company: w.company.id,
          bankId,
          consentId,
          status: 'Authorized',
          statusAt: w.clock.now(),
          source: 'bank',
        });
    });

    afterEach(async () => {
      await w.close();
    });

    const pickupDeps = (): PickupDeps => {
      const read = directoryOncePerRun({ store: w.store, bank: w.bank, clock: w.clock, logger: w.logger });
      return {
        ledger: w.store.files,
        clock: w.clock,
        logger: w.logger,
        timeZone: 'Europe/Oslo',
        workDir: join(w.dir, 'work'),
        fileStore: () => Promise.resolve(new LocalFileStore(w.company.root)),
        profile: (p) => loadProfile(p, [join(process.cwd(), 'config/profiles')]),
        sleep: () => Promise.resolve(),
        debtorAccounts: async (company) => {
          const directory = await read(company);
          return isUnreachable(directory) ? directory : debtorAccountCheck(company, directory);
        },
      };
    };
    const drop = (file: string, content: string) => writeFile(join(w.company.root, 'inbox', file), content);
    const bulks = async () => ((await w.control('/payments')) as { payments: RecordedBulk[] }).payments;

    it('sends each bulk under its own bank’s consent and approves the pre-approved one in a basket of its bank only', async () => {
      await drop(
        'pay.csv',
        csv(
          line(SEED.operatingIban, 'E2E-TB-1'),
          line(SEED.approvalIban, 'E2E-TB-2'),
          line(SEED.nordbankIban, 'E2E-NB-1'),
        ),
      );
      const picked = await runPickup(pickupDeps(), [w.company]);
      expect(picked.map((p) => [p.name, p.outcome, p.payments])).toEqual([['pay.csv', 'accepted', 3]]);
      // The directory read at pickup is kept with its time.
      const directory = await w.store.bankAccounts.directory(w.company.id);
      expect(directory?.readAt.toISOString()).toBe(w.clock.now().toISOString());
      expect(directory?.accounts.map((a) => [a.iban, a.bankId, a.status, a.preApproval ?? null])).toEqual(
        expect.arrayContaining([
          [SEED.approvalIban, 'testbank', 'enabled', true],
          [SEED.nordbankIban, 'nordbank', 'enabled', false],
          [SEED.pendingIban, 'nordbank', 'disabled', null],
        ]),
      );

      const submitted = await runSubmit(w.deps('s1'), [w.company]);
      expect(submitted.bulks.map((b) => b.outcome)).toEqual(['sent', 'sent', 'sent']);
      const atBank = await bulks();
      expect(atBank.map((b) => [b.debtorIban, b.consentId]).sort()).toEqual(
        [
          [SEED.operatingIban, SEED.consentId],
          [SEED.approvalIban, SEED.consentId],
          [SEED.nordbankIban, SEED.nordbankConsentId],
        ].sort(),
      );

      // settle records the bank and consent each bulk went under, as the bank's record says.
      const sentBulks = await w.store.bulks.listByState('sent');
      expect(sentBulks.map((b) => [b.debtorIban, b.bankId, b.consentId]).sort()).toEqual(
        [
          [SEED.operatingIban, 'testbank', SEED.consentId],
          [SEED.approvalIban, 'testbank', SEED.consentId],
          [SEED.nordbankIban, 'nordbank', SEED.nordbankConsentId],
        ].sort(),
      );

      const approved = await runApprove(w.deps('a1'), [w.company]);
      expect(approved.baskets).toHaveLength(1);
      const basket = (await w.store.baskets.get(approved.baskets[0]!.basketId))!;
      expect((await bulks()).filter((b) => b.basketId !== null).map((b) => b.debtorIban)).toEqual([SEED.approvalIban]);
      await w.control('/sca', { link: basket.approvalLink });

      w.advance(2 * 86_400_000 + 12 * 3_600_000); // past the execution date: every bulk settles
      await runStatus(w.deps('st1'), [w.company]);
      await runApprove(w.deps('a2'), [w.company]);
      w.advance(3_600_000);
      await runStatus(w.deps('st2'), [w.company]);
      expect((await bulks()).map((b) => b.transactionStatus)).toEqual(['ACSC', 'ACSC', 'ACSC']);
      const [file] = await w.store.files.listFiles({ company: w.company.id });
      const stored = (await w.store.payments.listByFile(file!.id)).map((p) => p.state);
      expect(new Set(stored)).toEqual(new Set(['ACSC']));

      // Statements cover every enabled account of both banks; the one not yet enabled waits.
      const fetched = await runFetchStatements(
        {
          bank: w.bank,
          statements: new StatementRepository(w.db, w.clock),
          days: new StatementDayRepository(w.db, w.clock),
          clock: w.clock,
          logger: w.logger,
          timeZone: 'Europe/Oslo',
        },
        [w.company],
      );
      expect(fetched.map((f) => [f.iban, f.outcome])).toEqual([
        [SEED.operatingIban, 'fetched'],
        [SEED.approvalIban, 'fetched'],
        [SEED.nordbankIban, 'fetched'],
        [SEED.pendingIban, 'not-yet-enabled'],
      ]);
      const booked = await new StatementRepository(w.db, w.clock).listTransactions(SEED.nordbankAccountId);
      expect(booked.some((t) => t.endToEndId === 'E2E-NB-1')).toBe(true);
      expect(fetchedPerBank(fetched)).toBe('3 fetched (testbank 2, nordbank 1)');

      // The export writes the statements of the accounts of both banks, each under its own IBAN.
      const exported = await runExportStatements(
        {
          statements: new StatementRepository(w.db, w.clock),
          days: new StatementDayRepository(w.db, w.clock),
          exports: w.store.exports,
          payments: w.store.payments,
          legalSequence: w.store.legalSequence,
          exportFloors: w.store.exportFloors,
          clock: w.clock,
          logger: w.logger,
          timeZone: 'Europe/Oslo',
          fileStore: () => Promise.resolve(new LocalFileStore(w.company.root)),
        },
        [w.company],
      );
      expect(exported.withheld).toEqual([]);
      const exportedAccounts = new Set(exported.files.map((f) => f.accountId));
      expect([...exportedAccounts].sort()).toEqual(
        [SEED.operatingAccountId, SEED.approvalAccountId, SEED.nordbankAccountId].sort(),
      );
      const nordStatement = exported.files.find(
        (f) => f.accountId === SEED.nordbankAccountId && f.path.endsWith('.xml'),
      );
      expect(await readFile(join(w.company.root, nordStatement!.path), 'utf8')).toContain(
        `<IBAN>${SEED.nordbankIban}</IBAN>`,
      );

      // Reconciliation covers the accounts of both banks: each payment is matched to its booking.
      const [reconciled] = await runReconcile(
        {
          store: w.store,
          clock: w.clock,
          logger: w.logger,
          timeZone: 'Europe/Oslo',
          runId: 'r1',
          config: DEFAULT_RECONCILE_CONFIG,
          lookBackDays: 31,
          fileStore: () => Promise.resolve(new LocalFileStore(w.company.root)),
        },
        [w.company],
      );
      const rows = (await readFile(join(w.company.root, reconciled!.csv), 'utf8')).split('\n');
      for (const e2e of ['E2E-TB-1', 'E2E-TB-2', 'E2E-NB-1']) {
        const about = rows.filter((r) => r.includes(e2e));
        expect(about, e2e).toHaveLength(1);
        expect(about[0]!.split(',')[0], e2e).toBe('matched');
      }
    });

    it('refuses at pickup a line paying from an account the bank has not enabled yet, with the line and what to do', async () => {
      await drop('pending.csv', csv(line(SEED.operatingIban, 'E2E-OK-1'), line(SEED.pendingIban, 'E2E-PEND-1')));
      const picked = await runPickup(pickupDeps(), [w.company]);
      expect(picked.map((p) => [p.name, p.outcome])).toEqual([['pending.csv', 'rejected']]);
      const report = await readFile(join(w.company.root, picked[0]!.report!), 'utf8');
      expect(report).toMatch(/row 3:\n\s+error\s+DEBTOR_ACCOUNT_NOT_ONBOARDED debtorIban \(column 1\)/);
      expect(report).toContain(`debtor account ${SEED.pendingIban} at nordbank is disabled, not enabled yet`);
      expect(report).toContain('settle accounts list --bank nordbank');
      expect(await bulks()).toEqual([]);

      // Once the bank enables it, the same lines are taken (the next run reads the list again).
      await w.control(`/accounts/${SEED.pendingAccountId}/enable`, {});
      await drop('pending-again.csv', csv(line(SEED.pendingIban, 'E2E-PEND-2')));
      const again = await runPickup(pickupDeps(), [w.company]);
      expect(again.map((p) => [p.name, p.outcome])).toEqual([['pending-again.csv', 'accepted']]);
    });

    it('leaves the file waiting in the inbox when the bank does not give the account list', async () => {
      await w.control('/faults', { faults: [{ route: 'GET /api/accounts', kind: 'error', status: 503, count: 20 }] });
      await drop('wait.csv', csv(line(SEED.operatingIban, 'E2E-W-1')));
      expect(await runPickup(pickupDeps(), [w.company])).toEqual([
        {
          company: w.company.id,
          name: 'wait.csv',
          outcome: 'waiting',
          payments: 0,
          movedTo: 'inbox/wait.csv',
          waitingFor: expect.stringMatching(/account list.*not read: ERR_BANK_\w+ \(HTTP 503\)/),
        },
      ]);
      expect(await readdir(join(w.company.root, 'inbox'))).toEqual(['wait.csv']);
      await w.control('/faults', undefined, 'DELETE');
      const later = await runPickup(pickupDeps(), [w.company]);
      expect(later.map((p) => p.outcome)).toEqual(['accepted']);
    });
  });
}

const useMaria = await mariaDbForTests();

multibankSuite('SQLite', () => undefined);
describe.runIf(useMaria)('on MariaDB', () => {
  let db: ThrowawayDatabase | undefined;
  beforeAll(async () => {
    db = await createThrowawayDatabase();
  });
  afterAll(async () => {
    await db?.drop();
  });
  multibankSuite('MariaDB', () => db?.url);
});
