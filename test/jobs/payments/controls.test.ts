// Payment controls (issue #51) through the real pickup and submit against the sandbox bank, on
// SQLite and MariaDB: a line to a new account after go-live, a known creditor paid to a changed
// account and a line over a limit are held with the rule and its evidence, reported located,
// listed for a person, and not sent until released; the other lines are paid. The controls'
// load is audited with a checksum, again only when the limits or the known-accounts file change.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAuditedControls } from '../../../jobs/controls/controls.js';
import { controlsTestText, testControls } from '../../../jobs/controls/test-file.js';
import { decideHold } from '../../../jobs/controls/held-payments.js';
import { runPickup, type PickupDeps } from '../../../jobs/pickup/pickup.js';
import { runStatusReport } from '../../../jobs/status/report.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { cliActor } from '../../../src/cli/actor.js';
import type { Role } from '../../../src/domain/roles.js';
import { CONSOLE_PAGES } from '../../../src/server/console/pages/index.js';
import { hasTool, xmllintValidate } from '../../support/oracles.js';
import { createThrowawayDatabase, mariaDbForTests, type ThrowawayDatabase } from '../../support/mariadb.js';
import { bankBulks, createWorld, worldPickupDeps, type World } from './world.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';
const KNOWN = 'NO0612000000009';
const OTHER = 'NO8330001234567';
const line = (e2e: string, amount: string, creditor: string, name: string) =>
  `NO9386011117947,ACME AS,2026-01-09,${e2e},${amount},NOK,${creditor},${name},Invoice ${e2e}`;
const csv = (...lines: string[]) => [HEADER, ...lines].join('\n') + '\n';

function controlsSuite(engine: string, onMaria: boolean): void {
  describe(`payment controls at pickup (${engine})`, () => {
    let w: World;
    let pickup: PickupDeps;
    let knownFile: string;
    // Each test its own database: the controls read the company's whole history.
    let db: ThrowawayDatabase | undefined;

    const start = async (controls: Record<string, unknown>) => {
      db = onMaria ? await createThrowawayDatabase() : undefined;
      w = await createWorld({
        ...(db ? { databaseUrl: db.url } : {}),
        company: {
          intake: { stableFor: '1s' },
          status: { formats: ['pain.002.001.03', 'pain.002.001.10', 'csv'] },
          controls: { knownAccounts: 'set below', ...controls },
        },
      });
      knownFile = join(w.dir, 'known-accounts.csv');
      await writeFile(knownFile, `# paid before settle\n${KNOWN},Oslo Trykkeri AS\n`);
      w.company.controls.knownAccounts = knownFile;
      await mkdir(join(w.company.root, 'inbox'), { recursive: true });
      pickup = worldPickupDeps(w, {
        controls: (company) =>
          loadAuditedControls(company, {
            clock: w.clock,
            timeZone: 'Europe/Oslo',
            audit: w.store.audit,
            origin: 'test',
          }),
      });
    };
    afterEach(async () => {
      await w.close();
      await db?.drop();
    });

    const drop = (name: string, body: string) => writeFile(join(w.company.root, 'inbox', name), body);
    /** Drops a file of `lines` in the inbox and picks it up. */
    const pickUp = async (name: string, ...lines: string[]) => {
      await drop(name, csv(...lines));
      return (await runPickup(pickup, [w.company]))[0];
    };
    const paidAtBank = async () =>
      (await bankBulks(w)).flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification)).sort();
    const actor = cliActor({ SETTLE_ACTOR: 'kari.controller' });
    /** Writes the status files of `file` and reads them back (the pain.002s checked by xmllint). */
    const statusFiles = async (file: string, job: string) => {
      const reports = await runStatusReport(w.deps(job), [w.company]);
      const paths = reports.find((r) => r.originalFile === file)!.paths;
      const read = (p: string) => readFile(join(w.company.root, p), 'utf8');
      const xml = paths.filter((p) => p.endsWith('.xml'));
      if (hasTool('xmllint'))
        for (const path of xml) {
          const schema = path.includes('pain.002.001.10') ? 'pain.002.001.10' : 'pain.002.001.03';
          const result = await xmllintValidate(await readFile(join(w.company.root, path)), schema);
          expect(result.output, path).toContain('validates');
        }
      return {
        csv: await read(paths.find((p) => p.endsWith('.csv'))!),
        v03: await read(xml.find((p) => !p.includes('pain.002.001.10'))!),
        v10: await read(xml.find((p) => p.includes('pain.002.001.10'))!),
      };
    };

    describe('live since yesterday, with a limit a line', () => {
      beforeEach(() => start({ goLive: '2026-01-04', limits: { perLine: { NOK: '10000.00' } } }));

      it('holds a new account, a changed account and a line over the limit; pays the rest', async () => {
        const first = await pickUp(
          'run-1.csv',
          line('A-1', '4200.00', KNOWN, 'Oslo Trykkeri AS'),
          line('A-2', '980.00', OTHER, 'Ny Leverandor AS'),
          line('A-3', '12000.00', KNOWN, 'Oslo Trykkeri AS'),
        );
        expect(first).toMatchObject({ outcome: 'accepted', payments: 3, held: 2 });
        const report = await readFile(join(w.company.root, first!.report!), 'utf8');
        expect(report).toMatch(
          /row 3:\s+warning HELD_BY_CONTROLS creditorAccount: payment "A-2" \(line 3\) is held, not sent: held by payment controls: new-account: NO8330001234567 \("Ny Leverandor AS"\) was never paid/,
        );
        expect(report).toMatch(
          /row 4:[\s\S]*"A-3"[\s\S]*limit-line: 12000.00 NOK is above the limit of 10000.00 NOK a line/,
        );
        expect(report).toMatch(/two different people/);

        await runSubmit(w.deps('s1'), [w.company]);
        expect(await paidAtBank()).toEqual(['A-1']);
        // The ERP's status files show the held lines pending, each with its rule's reason code and
        // the evidence in words; pain.002 stays valid against its schemas.
        const status = await statusFiles('run-1.csv', 'r1');
        expect(status.csv).toMatch(
          /A-2;PDNG;"SETTLE-HELD-NEW-ACCOUNT: held by payment controls: new-account: NO8330001234567/,
        );
        expect(status.csv).toMatch(
          /A-3;PDNG;SETTLE-HELD-LIMIT-LINE: held by payment controls: limit-line: 12000.00 NOK/,
        );
        expect(status.v10).toMatch(
          /<OrgnlEndToEndId>A-2<\/OrgnlEndToEndId>\s*<TxSts>PDNG<\/TxSts>\s*<StsRsnInf>\s*<Rsn>\s*<Prtry>SETTLE-HELD-NEW-ACCOUNT<\/Prtry>\s*<\/Rsn>\s*<AddtlInf>held by payment controls: new-account/,
        );
        expect(status.v03).toMatch(
          /<OrgnlEndToEndId>A-3<\/OrgnlEndToEndId>\s*<TxSts>PDNG<\/TxSts>\s*<StsRsnInf>\s*<Rsn>\s*<Prtry>SETTLE-HELD-LIMIT-LINE</,
        );
        const held = await w.store.held.list({ company: 'acme' });
        expect(held.map((h) => [h.endToEndId, h.rules, h.releasesNeeded])).toEqual([
          ['A-2', ['new-account'], 1],
          ['A-3', ['limit-line'], 2],
        ]);
        // The console's Held page shows the rule, that it needs two people, and the evidence.
        const heldPage = CONSOLE_PAGES.find((p) => p.path === '/console/held')!;
        const shown = await heldPage.load(
          {
            store: w.store,
            clock: w.clock,
            companies: [
              { id: 'acme', name: 'ACME AS', timeZone: 'Europe/Oslo', organisationNumber: '999999999', bankIds: [] },
            ],
            operations: { companies: [w.company], bank: () => w.bank, logger: w.logger },
          },
          {
            user: {
              id: 'local:olga',
              name: 'olga',
              person: 'olga@example.com',
              rolesByCompany: new Map([['acme', new Set<Role>(['operator'])]]),
            },
            company: 'acme',
            query: new URLSearchParams({ company: 'acme' }),
            params: {},
            csrfToken: 'csrf-token-1',
          },
        );
        const html = 'body' in shown ? shown.body : '';
        expect(html).toMatch(/Payment over the limit \(limit-line\)<br\/?>needs two people/);
        expect(html).toContain('12000.00 NOK is above the limit of 10000.00 NOK a line');
        expect(held[0]!.evidence).toMatch(
          /never paid by this company, nor is it in the known-accounts file \(go-live 2026-01-04\)/,
        );

        // The next day the ERP pays Oslo Trykkeri to another account: the classic invoice fraud.
        w.advance(24 * 3600_000);
        await drop(
          'run-2.csv',
          csv(line('B-1', '4200.00', OTHER, 'OSLO TRYKKERI AS'), line('B-2', '500.00', KNOWN, 'Oslo Trykkeri AS')),
        );
        const [second] = await runPickup(pickup, [w.company]);
        expect(second).toMatchObject({ outcome: 'accepted', payments: 2, held: 1 });
        const [changed] = await w.store.held.find('B-1');
        expect(changed).toMatchObject({ rules: ['changed-account'], releasesNeeded: 2 });
        expect(changed!.evidence).toBe(
          `changed-account: "OSLO TRYKKERI AS" was paid to ${KNOWN} 1 time since 2026-01; this line pays ${OTHER}`,
        );
        await runSubmit(w.deps('s2'), [w.company]);
        expect(await paidAtBank()).toEqual(['A-1', 'B-2']);

        // A person releases the new account: sent on the next submit, once.
        await decideHold(w.store, {
          ref: 'A-2',
          decision: 'released',
          reason: 'new supplier, contract seen',
          ...actor,
        });
        await runSubmit(w.deps('s3'), [w.company]);
        await runSubmit(w.deps('s4'), [w.company]);
        expect(await paidAtBank()).toEqual(['A-1', 'A-2', 'B-2']);

        // The changed account needs two people. Kari's first release sends nothing; Kari again,
        // under another login of hers, is refused; a second release from the command line too.
        const release = (person: string | undefined, actorId: string) =>
          decideHold(w.store, {
            ref: 'B-1',
            decision: 'released',
            reason: 'new account confirmed by phone',
            actor: actorId,
            origin: 'test',
            ...(person ? { person } : {}),
          });
        const once = await release('kari@acme.example', 'local:kari');
        expect(once.decision).toBeUndefined();
        expect(once.firstRelease).toMatchObject({ by: 'local:kari', person: 'kari@acme.example' });
        await runSubmit(w.deps('s5'), [w.company]);
        expect(await paidAtBank()).toEqual(['A-1', 'A-2', 'B-2']);
        await expect(release('KARI@acme.example', 'oidc:idp#kari')).rejects.toMatchObject({
          code: 'ERR_HOLD_SAME_PERSON',
        });
        await expect(release(undefined, 'ola')).rejects.toMatchObject({ code: 'ERR_HOLD_SECOND_IN_CONSOLE' });
        const twice = await release('ola@acme.example', 'local:ola');
        expect(twice).toMatchObject({ decision: 'released', decidedBy: 'local:ola' });
        const trail = await w.store.audit.list({ subject: { type: 'payment', id: twice.paymentId } });
        expect(trail.map((e) => [e.action, e.actor])).toEqual([
          ['payment.release.first', 'local:kari'],
          ['payment.release', 'local:ola'],
        ]);
        await runSubmit(w.deps('s6'), [w.company]);
        await runSubmit(w.deps('s7'), [w.company]);
        // Paid exactly once.
        expect(await paidAtBank()).toEqual(['A-1', 'A-2', 'B-1', 'B-2']);
      });

      it('settle controls test shows which lines each rule would hold and why, storing nothing', async () => {
        await pickUp('paid.csv', line('G-1', '4200.00', KNOWN, 'Oslo Trykkeri AS'));
        const trail = (await w.store.audit.list()).length;
        const file = join(w.dir, 'next-run.csv');
        await writeFile(
          file,
          csv(
            line('H-1', '4200.00', OTHER, 'Oslo Trykkeri AS'),
            line('H-2', '20000.00', KNOWN, 'Oslo Trykkeri AS'),
            line('H-3', '100.00', KNOWN, 'Oslo Trykkeri AS'),
            line('H-3b', '100.00', KNOWN, 'Oslo Trykkeri AS').replace('Invoice H-3b', 'Invoice H-3'),
          ),
        );
        const profile = await pickup.profile('generic');
        const result = await testControls(
          { db: w.db, clock: w.clock, timeZone: 'Europe/Oslo', profile },
          w.company,
          file,
        );
        expect(result.held.map((h) => [h.line, h.rules, h.releases])).toEqual([
          [2, ['changed-account'], 2],
          [3, ['limit-line'], 2],
          [5, ['duplicate'], 1],
        ]);
        expect(controlsTestText(result)).toContain(
          `line 2 H-1: held by changed-account (two people release it): changed-account: "Oslo Trykkeri AS" was paid to ${KNOWN} 1 time since 2026-01; this line pays ${OTHER}`,
        );
        expect(await w.store.payments.findByEndToEndId('acme', 'H-1')).toBeUndefined();
        expect(await w.store.audit.list()).toHaveLength(trail);
      });

      it('the load of the controls is audited with a checksum, again only when a limit or the known file changes', async () => {
        const loads = async () =>
          (await w.store.audit.list({ subject: { type: 'company-controls', id: 'acme' } })).map((e) => e.details);
        await drop('a.csv', csv(line('C-1', '100.00', KNOWN, 'Oslo Trykkeri AS')));
        await runPickup(pickup, [w.company]);
        await drop('b.csv', csv(line('C-2', '100.00', KNOWN, 'Oslo Trykkeri AS')));
        await runPickup(pickup, [w.company]);
        expect(await loads()).toHaveLength(1);
        expect((await loads())[0]).toMatchObject({
          settings: { limits: { perLine: { NOK: '10000.00' } } },
          knownAccounts: { accounts: 1 },
        });

        w.company.controls.limits.perLine = { NOK: '99999999.00' };
        await drop('c.csv', csv(line('C-3', '100.00', KNOWN, 'Oslo Trykkeri AS')));
        await runPickup(pickup, [w.company]);
        await writeFile(knownFile, `${KNOWN},Oslo Trykkeri AS\n${OTHER},Someone AS\n`);
        await drop('d.csv', csv(line('C-4', '100.00', KNOWN, 'Oslo Trykkeri AS')));
        await runPickup(pickup, [w.company]);
        const all = await loads();
        expect(all).toHaveLength(3);
        expect(all[1]).toMatchObject({
          settings: { limits: { perLine: { NOK: '99999999.00' } } },
          previousChecksum: all[0]!.checksum,
        });
        expect(all[2]!.knownAccounts).not.toEqual(all[1]!.knownAccounts);
        expect((await w.store.audit.verify()).ok).toBe(true);
      });

      it('a known-accounts file with a line that is not an account stops the pickup with a located error', async () => {
        await writeFile(knownFile, `${KNOWN},Oslo Trykkeri AS\nnot an account\n`);
        await drop('a.csv', csv(line('D-1', '100.00', KNOWN, 'Oslo Trykkeri AS')));
        await expect(runPickup(pickup, [w.company])).rejects.toMatchObject({
          code: 'ERR_CONTROLS_KNOWN_ACCOUNTS',
          message: expect.stringMatching(/known-accounts\.csv line 2: "not an account" does not start with an IBAN/),
        });
      });
    });

    describe('with limits a file and a debtor account a day, and office hours', () => {
      beforeEach(() =>
        start({
          limits: { perFile: { NOK: '5000.00' } },
          accounts: { 'NO93 8601 1117 947': { limits: { perDebtorDay: { NOK: '3000.00' } } } },
        }),
      );

      it('holds the lines that would pass the day limit of their debtor account', async () => {
        const amounts = { 'E-1': '2000.00', 'E-2': '1500.00', 'E-3': '900.00' };
        const toKnown = Object.entries(amounts).map(([id, amount]) => line(id, amount, KNOWN, 'Oslo Trykkeri AS'));
        const picked = await pickUp('day.csv', ...toKnown);
        expect(picked).toMatchObject({ payments: 3, held: 1 });
        const [held] = await w.store.held.list({ company: 'acme' });
        expect(held).toMatchObject({ endToEndId: 'E-2', rules: ['limit-debtor-day'], releasesNeeded: 2 });
        expect(held!.evidence).toMatch(
          /NO9386011117947 already sends 2000.00 NOK on 2026-01-09; with this 1500.00 NOK it passes the limit of 3000.00 NOK a day/,
        );
        // The next file counts what the account already sends that day (2900.00 NOK).
        await drop('day-2.csv', csv(line('E-4', '200.00', KNOWN, 'Oslo Trykkeri AS')));
        expect((await runPickup(pickup, [w.company]))[0]).toMatchObject({ held: 1 });

        // A person drops the held line: cancelled, with the rule's own code, not a bank's.
        await decideHold(w.store, { ref: 'E-2', decision: 'dropped', reason: 'paid by cheque', ...actor });
        await runSubmit(w.deps('s1'), [w.company]);
        const status = await statusFiles('day.csv', 'r1');
        expect(status.csv).toMatch(
          /E-2;CANC;SETTLE-DROPPED-LIMIT-DEBTOR-DAY: dropped after a hold by limit-debtor-day by kari\.controller: paid by cheque/,
        );
        expect(status.v10).toMatch(
          /<TxSts>CANC<\/TxSts>\s*<StsRsnInf>\s*<Rsn>\s*<Prtry>SETTLE-DROPPED-LIMIT-DEBTOR-DAY</,
        );
        expect(status.v03).toMatch(
          /<TxSts>RJCT<\/TxSts>\s*<StsRsnInf>\s*<Rsn>\s*<Prtry>SETTLE-DROPPED-LIMIT-DEBTOR-DAY</,
        );
      });

      it('holds every line of a file that arrives outside the hours', async () => {
        w.company.controls.hours = { from: '10:00', to: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] };
        await drop(
          'early.csv',
          csv(line('F-1', '10.00', KNOWN, 'Oslo Trykkeri AS'), line('F-2', '20.00', KNOWN, 'Oslo Trykkeri AS')),
        );
        expect((await runPickup(pickup, [w.company]))[0]).toMatchObject({ payments: 2, held: 2 });
        const [held] = await w.store.held.list({ company: 'acme' });
        expect(held!.evidence).toBe(
          'unusual-time: the file arrived mon 09:00 Europe/Oslo, outside the expected hours (mon,tue,wed,thu,fri 10:00–17:00)',
        );
        expect(held!.releasesNeeded).toBe(1);
      });
    });
  });
}

const useMaria = await mariaDbForTests();

controlsSuite('SQLite', false);
describe.runIf(useMaria)('on MariaDB', () => controlsSuite('MariaDB', true));
