// A held line is located in its file's own terms: a CSV line by its row (controls.test.ts), a
// pain.001 transaction by its XPath, counted within its payment block, through the real pickup.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAuditedControls } from '../../../jobs/controls/controls.js';
import { runPickup } from '../../../jobs/pickup/pickup.js';
import { createWorld, NORMAL_IBAN, worldPickupDeps, type World } from './world.js';

function transaction(e2e: string, amount: string): string {
  return `      <CdtTrfTxInf>
        <PmtId><EndToEndId>${e2e}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="NOK">${amount}</InstdAmt></Amt>
        <Cdtr><Nm>Oslo Trykkeri AS</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>NO0612000000009</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Faktura ${e2e}</Ustrd></RmtInf>
      </CdtTrfTxInf>`;
}

function block(id: string, ...transactions: string[]): string {
  return `    <PmtInf>
      <PmtInfId>${id}</PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>${transactions.length}</NbOfTxs>
      <ReqdExctnDt>2026-01-09</ReqdExctnDt>
      <Dbtr><Nm>ACME AS</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>${NORMAL_IBAN}</IBAN></Id></DbtrAcct>
      <DbtrAgt><FinInstnId><BIC>DNBANOKK</BIC></FinInstnId></DbtrAgt>
${transactions.join('\n')}
    </PmtInf>`;
}

function pain001(...blocks: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">
  <CstmrCdtTrfInitn>
    <GrpHdr><MsgId>MSG-LOCATED</MsgId><CreDtTm>2026-01-05T08:00:00</CreDtTm><NbOfTxs>4</NbOfTxs><InitgPty><Nm>ACME AS</Nm></InitgPty></GrpHdr>
${blocks.join('\n')}
  </CstmrCdtTrfInitn>
</Document>
`;
}

describe('a held pain.001 line in its file report', () => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
  });

  it('is located by the XPath of its transaction, counted within its payment block', async () => {
    w = await createWorld({
      company: { intake: { stableFor: '1s' }, controls: { limits: { perLine: { NOK: '1000.00' } } } },
    });
    const world = w;
    const pickup = worldPickupDeps(world, {
      controls: (company) =>
        loadAuditedControls(company, {
          clock: world.clock,
          timeZone: 'Europe/Oslo',
          audit: world.store.audit,
          origin: 'test',
        }),
    });
    await mkdir(join(world.company.root, 'inbox'), { recursive: true });
    await writeFile(
      join(world.company.root, 'inbox', 'run.xml'),
      pain001(
        block('B-1', transaction('T-1', '2000.00')),
        block('B-2', transaction('T-2', '500.00'), transaction('T-3', '5000.00'), transaction('T-4', '600.00')),
      ),
    );
    const [picked] = await runPickup(pickup, [world.company]);
    expect(picked).toMatchObject({ outcome: 'accepted', payments: 4, held: 2 });
    const report = await readFile(join(world.company.root, picked!.report!), 'utf8');
    expect(report).toMatch(
      /\/Document\/CstmrCdtTrfInitn\/PmtInf\[1\]\/CdtTrfTxInf\[1\]:\s+warning HELD_BY_CONTROLS creditorAccount: payment "T-1" \(line 1\) is held/,
    );
    expect(report).toMatch(
      /\/Document\/CstmrCdtTrfInitn\/PmtInf\[2\]\/CdtTrfTxInf\[2\]:\s+warning HELD_BY_CONTROLS creditorAccount: payment "T-3" \(line 3\) is held/,
    );
    expect(report).not.toMatch(/"T-[24]"/);
  });
});
