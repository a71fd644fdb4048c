// Writes the camt.053/camt.054 of nights with a returned payment, for the outside readers: the
// demo's company and the built-in sandbox bank, a pain.001 of two payments, one of which the
// creditor's bank sends back (AC04) after it was booked. The statements land in DIR/acme/statements.
// Usage: npx tsx scripts/outside-readers/returned-night.ts DIR
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { runNightly } from '../../jobs/nightly/nightly.js';
import { loadConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/log/index.js';
import { createApp } from '../../src/main/app.js';
import { openConfiguredDatabase } from '../../src/main/database.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { nightlyDeps } from '../../src/main/nightly-deps.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';

const dir = resolve(process.argv[2] ?? 'settle-returned-night');
const RETURNED = 'ERP-RET-0001';

const tx = (e2e: string, amount: string, creditor: string, iban: string) => `
      <CdtTrfTxInf>
        <PmtId><InstrId>INSTR-${e2e}</InstrId><EndToEndId>${e2e}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="NOK">${amount}</InstdAmt></Amt>
        <Cdtr><Nm>${creditor}</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>${iban}</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Invoice ${e2e}</Ustrd></RmtInf>
      </CdtTrfTxInf>`;
const pain001 = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09">
  <CstmrCdtTrfInitn>
    <GrpHdr><MsgId>ERP-RETURNS-1</MsgId><CreDtTm>2026-01-05T07:30:00</CreDtTm><NbOfTxs>2</NbOfTxs><CtrlSum>2050.00</CtrlSum><InitgPty><Nm>ACME AS</Nm></InitgPty></GrpHdr>
    <PmtInf>
      <PmtInfId>ERP-RET-PMTINF</PmtInfId><PmtMtd>TRF</PmtMtd><BtchBookg>false</BtchBookg><NbOfTxs>2</NbOfTxs><CtrlSum>2050.00</CtrlSum>
      <ReqdExctnDt><Dt>2026-01-07</Dt></ReqdExctnDt>
      <Dbtr><Nm>ACME AS</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>${SEED.operatingIban}</IBAN></Id></DbtrAcct>
      <DbtrAgt><FinInstnId><BICFI>TESTNOK1</BICFI></FinInstnId></DbtrAgt>${tx(RETURNED, '1250.00', 'Oslo Trykkeri AS', 'NO1512000475147')}${tx('ERP-RET-0002', '800.00', 'Nordic Cleaning AS', 'NO5812000079195')}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;

const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: '2026-01-05T08:00:00Z' });
try {
  await mkdir(join(dir, 'acme', 'inbox'), { recursive: true });
  const config = loadConfig({ file: await writeDemoConfig(dir, sandbox), cwd: dir, env: {} });
  const db = await openConfiguredDatabase(config);
  await db.migrate();
  await db.close();
  const app = await createApp(config, silentLogger(), sandbox.sandbox.clock);
  try {
    await writeFile(join(dir, 'acme', 'inbox', 'returns.xml'), pain001);
    const night = async (runId: string) => {
      const result = await runNightly(nightlyDeps(app), app.config.companies, { runId });
      const failed = result.steps.filter((s) => !s.ok);
      if (failed.length > 0) throw new Error(`${runId}: ${failed.map((s) => s.summary).join('; ')}`);
    };
    await night('returned-night-1'); // picked up, sent, accepted
    sandbox.advance(Date.parse('2026-01-08T03:00:00Z') - sandbox.sandbox.clock.now().getTime());
    await night('returned-night-2'); // booked: both paid
    const response = await fetch(`${sandbox.urls.controlUrl}/returns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ endToEndId: RETURNED, code: 'AC04', message: 'Account closed' }),
    });
    if (response.status !== 201) throw new Error(`the sandbox did not return ${RETURNED}: ${response.status}`);
    sandbox.advance(86_400_000);
    await night('returned-night-3'); // the return is fetched and written
  } finally {
    await app.close();
  }
  process.stdout.write(`${join(dir, 'acme', 'statements')}\n`);
} finally {
  await sandbox.close();
}
