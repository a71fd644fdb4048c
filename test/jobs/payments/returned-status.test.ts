// A payment the bank booked back after it was accepted reaches the ERP's status files as a
// return (issue #47, Must 3): the real nightly chain against the sandbox over HTTP, on SQLite and
// MariaDB. An ERP file of two payments is paid; the creditor's bank returns one (AC04); the
// next nights' pain.002 says RJCT with the return's reason, the bank's words and the original ids
// (valid against the XSD), and the status CSV tells the return from a refusal before booking.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runNightly } from '../../../jobs/nightly/nightly.js';
import { loadConfig } from '../../../src/config/index.js';
import { silentLogger } from '../../../src/log/index.js';
import { createApp, type App } from '../../../src/main/app.js';
import { openConfiguredDatabase } from '../../../src/main/database.js';
import { writeDemoConfig } from '../../../src/main/demo.js';
import { nightlyDeps } from '../../../src/main/nightly-deps.js';
import { SEED, startSandbox, type RunningSandbox } from '../../../src/sandbox/index.js';
import { onBothEngines, type EngineSuite, type EngineTarget } from '../../support/engines.js';
import { itWith, xmllintValidate } from '../../support/oracles.js';
import { makeTempDir } from '../../support/tmp.js';

const RETURNED = { endToEndId: 'ACME-RET-0001', instructionId: 'ACME-INSTR-0001', amount: '1250.00' };
const PAID = { endToEndId: 'ACME-RET-0002', instructionId: 'ACME-INSTR-0002', amount: '800.00' };

function pain001(): string {
  const tx = (p: typeof RETURNED, creditor: string, iban: string) => `
      <CdtTrfTxInf>
        <PmtId><InstrId>${p.instructionId}</InstrId><EndToEndId>${p.endToEndId}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="NOK">${p.amount}</InstdAmt></Amt>
        <Cdtr><Nm>${creditor}</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>${iban}</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Invoice ${p.endToEndId}</Ustrd></RmtInf>
      </CdtTrfTxInf>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>ACME-RETURNS-1</MsgId>
      <CreDtTm>2026-01-05T07:30:00</CreDtTm>
      <NbOfTxs>2</NbOfTxs>
      <CtrlSum>2050.00</CtrlSum>
      <InitgPty><Nm>ACME AS</Nm></InitgPty>
    </GrpHdr>
    <PmtInf>
      <PmtInfId>ACME-RET-PMTINF</PmtInfId>
      <PmtMtd>TRF</PmtMtd>
      <BtchBookg>false</BtchBookg>
      <NbOfTxs>2</NbOfTxs>
      <CtrlSum>2050.00</CtrlSum>
      <ReqdExctnDt><Dt>2026-01-07</Dt></ReqdExctnDt>
      <Dbtr><Nm>ACME AS</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>${SEED.operatingIban}</IBAN></Id></DbtrAcct>
      <DbtrAgt><FinInstnId><BICFI>TESTNOK1</BICFI></FinInstnId></DbtrAgt>${tx(RETURNED, 'Oslo Trykkeri AS', 'NO1512000475147')}${tx(PAID, 'Nordic Cleaning AS', 'NO5812000079195')}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
}

const suite: EngineSuite = (name, open) => {
  describe(`a payment returned after it was accepted, in the status files, on ${name}`, { timeout: 120_000 }, () => {
    let target: EngineTarget;
    let sandbox: RunningSandbox;
    let app: App;
    let dir: string;
    let cleanup: () => Promise<void>;
    let statusFiles: string[];

    const night = async (runId: string) => {
      const result = await runNightly(nightlyDeps(app), app.config.companies, { runId });
      expect(result.steps.filter((s) => !s.ok)).toEqual([]);
      return result;
    };
    const newest = (suffix: string) =>
      readFile(
        join(
          dir,
          'acme',
          'status',
          statusFiles
            .filter((f) => f.endsWith(suffix))
            .sort()
            .at(-1)!,
        ),
        'utf8',
      );

    beforeAll(async () => {
      target = await open();
      ({ dir, cleanup } = await makeTempDir());
      sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: '2026-01-05T08:00:00Z' });
      const file = await writeDemoConfig(dir, sandbox);
      if (name === 'MariaDB') await writeFile(file, `${await readFile(file, 'utf8')}database:\n  url: ${target.url}\n`);
      const config = loadConfig({ file, cwd: dir, env: {} });
      const db = await openConfiguredDatabase(config);
      await db.migrate();
      await db.close();
      app = await createApp(config, silentLogger(), sandbox.sandbox.clock);
      await mkdir(join(dir, 'acme', 'inbox'), { recursive: true });
      await writeFile(join(dir, 'acme', 'inbox', 'returns.xml'), pain001());

      await night('returns-night-1'); // picked up, sent, accepted
      sandbox.advance(Date.parse('2026-01-08T03:00:00Z') - sandbox.sandbox.clock.now().getTime());
      await night('returns-night-2'); // booked: both paid
      const response = await fetch(`${sandbox.urls.controlUrl}/returns`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ endToEndId: RETURNED.endToEndId, code: 'AC04', message: 'Account closed' }),
      });
      expect(response.status).toBe(201);
      sandbox.advance(86_400_000);
      await night('returns-night-3'); // the return is fetched and reported the same night
      sandbox.advance(86_400_000);
      await night('returns-night-4'); // and not reported again
      statusFiles = await readdir(join(dir, 'acme', 'status'));
    });
    afterAll(async () => {
      await app?.close();
      await sandbox?.close();
      await cleanup?.();
      await target?.cleanup();
    });

    itWith('xmllint')(
      'the pain.002 reports the return as RJCT with its reason, the bank’s words and the original ids',
      async () => {
        const xml = await newest('.pain.002.001.03.xml');
        const check = await xmllintValidate(xml, 'pain.002.001.03');
        expect(check.valid, check.output).toBe(true);
        const flat = xml.replace(/>\s+</g, '><');
        const returned = flat
          .split('<TxInfAndSts>')
          .find((t) => t.includes(`<OrgnlEndToEndId>${RETURNED.endToEndId}<`));
        expect(returned).toMatch(
          /^<OrgnlInstrId>ACME-INSTR-0001<\/OrgnlInstrId><OrgnlEndToEndId>ACME-RET-0001<\/OrgnlEndToEndId><TxSts>RJCT<\/TxSts><StsRsnInf><Rsn><Cd>AC04<\/Cd><\/Rsn><AddtlInf>Returned payment: Account closed<\/AddtlInf><\/StsRsnInf>/,
        );
        expect(returned).toContain('<InstdAmt Ccy="NOK">1250.00</InstdAmt>');
        const paid = flat.split('<TxInfAndSts>').find((t) => t.includes(`<OrgnlEndToEndId>${PAID.endToEndId}<`));
        expect(paid).toContain('<TxSts>ACSC</TxSts>');
        expect(flat).toContain('<PmtInfSts>PART</PmtInfSts>');
      },
    );

    it('an earlier pain.002 said both were paid: the return is a new report, not a rewrite', async () => {
      const reports = statusFiles.filter((f) => f.endsWith('.pain.002.001.03.xml')).sort();
      expect(reports.length).toBeGreaterThanOrEqual(2);
      const before = await readFile(join(dir, 'acme', 'status', reports.at(-2)!), 'utf8');
      expect(before).not.toContain('AC04');
    });

    itWith('xmllint')('camt.053 and camt.054 quote the ERP’s InstrId for its payments and for the return', async () => {
      const statement = (day: string, suffix: string) =>
        readFile(join(dir, 'acme', 'statements', `acme-${SEED.operatingIban}-${day}.${suffix}`), 'utf8');
      for (const [day, suffix, schema, ids] of [
        ['2026-01-07', 'camt.053.001.02.xml', 'camt.053.001.02', [RETURNED, PAID]],
        ['2026-01-07', 'debit.camt.054.001.02.xml', 'camt.054.001.02', [RETURNED, PAID]],
        ['2026-01-08', 'camt.053.001.02.xml', 'camt.053.001.02', [RETURNED]],
        ['2026-01-08', 'credit.camt.054.001.02.xml', 'camt.054.001.02', [RETURNED]],
      ] as const) {
        const xml = await statement(day, suffix);
        const check = await xmllintValidate(xml, schema);
        expect(check.valid, `${day} ${suffix}: ${check.output}`).toBe(true);
        const flat = xml.replace(/>\s+</g, '><');
        // The bank's own code of the return booking beside its ISO code, the same in both documents.
        if (day === '2026-01-08')
          expect(flat, `${day} ${suffix}`).toContain(
            '<SubFmlyCd>RRTN</SubFmlyCd></Fmly></Domn><Prtry><Cd>SBX-RETURN</Cd></Prtry></BkTxCd>',
          );
        for (const p of ids)
          expect(flat, `${day} ${suffix}`).toContain(
            `<InstrId>${p.instructionId}</InstrId><EndToEndId>${p.endToEndId}</EndToEndId>`,
          );
      }
    });

    it('the statement CSV of each day carries its balances, the last row’s balance its closing balance', async () => {
      for (const day of ['2026-01-07', '2026-01-08']) {
        const csv = await readFile(join(dir, 'acme', 'statements', `acme-${SEED.operatingIban}-${day}.csv`), 'utf8');
        const rows = parse<Record<string, string>>(csv, { columns: true, delimiter: ';' });
        expect(rows.length, day).toBeGreaterThan(0);
        // The configured default: a decimal comma.
        const num = (text: string | undefined) => Number(text!.replace(',', '.'));
        expect(num(rows[0]!.balance_after), day).toBeCloseTo(num(rows[0]!.opening_balance) + num(rows[0]!.amount), 2);
        expect(rows.at(-1)!.balance_after, day).toBe(rows.at(-1)!.closing_balance);
      }
    });

    it('the status CSV row is a return, told apart from a refusal before booking', async () => {
      const rows = parse<Record<string, string>>(await newest('.status.csv'), { columns: true, delimiter: ';' });
      expect(rows.find((r) => r.end_to_end_id === RETURNED.endToEndId)).toMatchObject({
        status: 'RJCT',
        reason: 'AC04: Returned payment: Account closed',
        returned_on: '2026-01-08',
        return_bank_transaction_code: 'PMNT-ICDT-RRTN',
        amount: '1250.00',
        currency: 'NOK',
        instruction_id: RETURNED.instructionId,
      });
      expect(rows.find((r) => r.end_to_end_id === PAID.endToEndId)).toMatchObject({
        status: 'ACSC',
        returned_on: '',
        return_bank_transaction_code: '',
        amount: '800.00',
        currency: 'NOK',
        instruction_id: PAID.instructionId,
      });
    });
  });
};

await onBothEngines(suite);
