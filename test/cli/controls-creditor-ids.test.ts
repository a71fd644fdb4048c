// The changed-account control knows a creditor by organisation number and ERP creditor id, not
// only by name, through the real entry point: files in the inbox, then `settle run nightly`
// against the sandbox bank, on SQLite and MariaDB. A pain.001 line with a known organisation
// number under another name, and a CSV line with a known ERP creditor id, both to new accounts,
// are held with evidence that names the key; a creditor settle never saw is paid.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED } from '../../src/sandbox/index.js';
import { onEngine, withControlsWorld, type Engine } from '../support/controls-world.js';
import { mariaDbForTests } from '../support/mariadb.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,creditor_id';

/** A pain.001.001.03 of one line to a creditor identified by organisation number (Cdtr/Id/OrgId/Othr). */
function pain001(date: string, e2e: string, iban: string, name: string, orgNo: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">
  <CstmrCdtTrfInitn>
    <GrpHdr><MsgId>MSG-${e2e}</MsgId><CreDtTm>2026-01-05T08:00:00</CreDtTm><NbOfTxs>1</NbOfTxs><InitgPty><Nm>ACME AS</Nm></InitgPty></GrpHdr>
    <PmtInf>
      <PmtInfId>PMT-${e2e}</PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>1</NbOfTxs>
      <ReqdExctnDt>${date}</ReqdExctnDt>
      <Dbtr><Nm>ACME AS</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>${SEED.operatingIban}</IBAN></Id></DbtrAcct>
      <DbtrAgt><FinInstnId><BIC>DNBANOKK</BIC></FinInstnId></DbtrAgt>
      <CdtTrfTxInf>
        <PmtId><EndToEndId>${e2e}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="NOK">700.00</InstdAmt></Amt>
        <Cdtr><Nm>${name}</Nm><Id><OrgId><Othr><Id>${orgNo}</Id><SchmeNm><Prtry>ORGNR</Prtry></SchmeNm></Othr></OrgId></Id></Cdtr>
        <CdtrAcct><Id><IBAN>${iban}</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Faktura ${e2e}</Ustrd></RmtInf>
      </CdtTrfTxInf>
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
}

async function night(databaseUrl: string | undefined): Promise<void> {
  // The demo goes live today (reconcile.since), so the new-account rule holds nothing here:
  // only the changed-account rule is at work.
  await withControlsWorld(databaseUrl, {}, async ({ dir, date, settle, drop, dropCsv: csv, paidAtBank }) => {
    const line = (e2e: string, iban: string, name: string, creditorId: string) =>
      `${SEED.operatingIban},ACME AS,${date},${e2e},500.00,NOK,${iban},${name},${creditorId}`;
    const dropCsv = (name: string, ...lines: string[]) => csv(name, HEADER, ...lines);

    // The first night is the history: a creditor by organisation number, one by ERP creditor id.
    await drop('base.xml', pain001(date, 'ORG-1', 'NO0612000000009', 'Oslo Trykkeri AS', '999888777'));
    await dropCsv('base.csv', line('ERP-1', 'NO5812000079195', 'Bergen Bygg AS', 'K-1001'));
    const first = await settle('run', 'nightly');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(await paidAtBank()).toEqual(['ERP-1', 'ORG-1']);

    // The same organisation number under another name, and the same ERP creditor id under
    // another name, each to an account they were never paid to; and a creditor never seen.
    await drop('run-2.xml', pain001(date, 'ORG-2', 'NO8330001234567', 'Trykkeriet Vest AS', '999888777'));
    await dropCsv(
      'run-2.csv',
      line('ERP-2', 'NO8330001234567', 'Bergen Bygg og Anlegg AS', 'K-1001'),
      line('NEW-1', 'NO9386011117947', 'Ny Leverandor AS', 'K-2002'),
    );
    const second = await settle('run', 'nightly');
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toMatch(/2 payment\(s\) held for a person/);
    expect(second.stdout).toContain('run-2.xml line 1 ORG-2 (changed-account)');
    expect(second.stdout).toContain('run-2.csv line 2 ERP-2 (changed-account)');
    expect(await paidAtBank()).toEqual(['ERP-1', 'NEW-1', 'ORG-1']);

    // The evidence names the key the creditor was known by.
    const held = await settle('payments', 'held');
    expect(held.stdout).toContain(
      'creditor org. no. 999888777 ("Trykkeriet Vest AS") was paid to NO0612000000009 1 time since',
    );
    expect(held.stdout).toContain('ERP creditor id K-1001 ("Bergen Bygg og Anlegg AS") was paid to NO5812000079195');
    expect(held.stdout).toContain('this line pays NO8330001234567');
    // Both ids are stored with the line, the scheme beside the number, as the payment's story shows.
    const story = async (ref: string) =>
      (JSON.parse((await settle('payments', 'show', ref, '--json')).stdout) as { creditor: unknown }[])[0]!.creditor;
    expect(await story('ORG-2')).toMatchObject({ orgId: '999888777', orgScheme: 'ORGNR', erpId: null });
    expect(await story('ERP-2')).toMatchObject({ orgId: null, erpId: 'K-1001' });
    expect((await settle('payments', 'show', 'ORG-2')).stdout).toContain('org. no. 999888777 (ORGNR)');
    // The accountant's report beside the archived file says the same, located.
    const report = await readFile(join(dir, 'acme', 'error', 'run-2.xml.errors.txt'), 'utf8');
    expect(report).toContain('HELD_BY_CONTROLS');
    expect(report).toContain('creditor org. no. 999888777');
  });
}

const engines: Engine[] = (await mariaDbForTests()) ? ['SQLite', 'MariaDB'] : ['SQLite'];

describe(
  'changed account by organisation number and ERP creditor id, through settle run nightly',
  { timeout: 300_000 },
  () => {
    it.each(engines)(
      'on %s: a known number or ERP id with a new name and a new account is held; a stranger is paid',
      (engine) => onEngine(engine, night),
    );
  },
);
