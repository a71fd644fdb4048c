// Payroll marked by the ERP itself: a pain.001 block with category purpose SALA is payroll
// wherever people without the payroll role read the approval notice (the reports folder, the
// approvers' folder, their e-mail): they see totals only; an approver with the role sees each line.
import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { startSmtpSink } from '../alerts/smtp-sink.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

/** A weekday at least two days ahead, in Oslo: the bank takes it and settle does not move it. */
function executionDate(): string {
  const day = new Date(Date.now() + 2 * 86_400_000);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

function pain001(date: string): string {
  const tx = (id: string, amount: string, name: string, iban: string) => `
      <CdtTrfTxInf>
        <PmtId><EndToEndId>${id}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="NOK">${amount}</InstdAmt></Amt>
        <Cdtr><Nm>${name}</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>${iban}</IBAN></Id></CdtrAcct>
      </CdtTrfTxInf>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09">
  <CstmrCdtTrfInitn>
    <GrpHdr><MsgId>ACME-PAYROLL-1</MsgId><CreDtTm>2026-01-05T07:30:00</CreDtTm><NbOfTxs>2</NbOfTxs><CtrlSum>66000.00</CtrlSum>
      <InitgPty><Nm>ACME AS</Nm></InitgPty></GrpHdr>
    <PmtInf>
      <PmtInfId>ACME-SAL-1</PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>2</NbOfTxs><CtrlSum>66000.00</CtrlSum>
      <PmtTpInf><CtgyPurp><Cd>SALA</Cd></CtgyPurp></PmtTpInf>
      <ReqdExctnDt><Dt>${date}</Dt></ReqdExctnDt>
      <Dbtr><Nm>ACME AS</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>${SEED.approvalIban}</IBAN></Id></DbtrAcct>
      <DbtrAgt><FinInstnId><BICFI>TESTNOK1</BICFI></FinInstnId></DbtrAgt>${tx('SAL-0001', '31000.00', 'Per Hansen', 'NO5812000079195')}${tx('SAL-0002', '35000.00', 'Lise Berg', 'NO8812000158389')}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
}

describe('payroll by category purpose SALA', { timeout: 180_000 }, () => {
  it('shows SALA lines only to approvers with the payroll role; everyone else reads totals', async () => {
    const smtp = await startSmtpSink();
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const file = await writeDemoConfig(dir, sandbox);
        const demo = await readFile(file, 'utf8');
        const kari = /^ {6}- \{ name: Kari Nordmann, .*\}$/m;
        expect(demo).toMatch(kari); // Ola joins the demo's people right after Kari
        const yaml = demo.replace(
          kari,
          (line) => `${line}\n      - { name: Ola Lønn, email: ola@acme.example, roles: [approver, payroll] }`,
        );
        await writeFile(file, yaml);
        await appendFile(
          file,
          `alerts:\n  email:\n    host: 127.0.0.1\n    port: ${smtp.port}\n    from: settle@acme.example\n    to: [ops@acme.example]\n`,
        );
        await mkdir(join(dir, 'acme', 'inbox'), { recursive: true });
        await writeFile(join(dir, 'acme', 'inbox', 'payroll.xml'), pain001(executionDate()));
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
        const run = await runSettle(['--config', file, 'run', 'nightly'], { cwd: dir, env });
        expect(run.stdout).toMatch(/1 new approval link/);

        const read = async (folder: string) => {
          const [name] = (await readdir(join(dir, 'acme', folder))).filter((n) => n.startsWith('approval-'));
          return readFile(join(dir, 'acme', folder, name!), 'utf8');
        };
        for (const notice of [await read('reports'), await read('approvals')]) {
          expect(notice).toContain('66000.00');
          expect(notice).toContain('2 payroll payment(s) are counted in the totals above');
          expect(notice).not.toMatch(/Per Hansen|Lise Berg|SAL-0001/);
        }
        const mailTo = (who: string) => smtp.messages.find((m) => m.to.includes(who))?.data.replace(/=\r\n/g, '');
        expect(mailTo('kari.nordmann@acme.example')).not.toContain('Per Hansen');
        expect(mailTo('ola@acme.example')).toContain('Per Hansen');
        expect(mailTo('ola@acme.example')).toContain('SAL-0002');

        const shown = await runSettle(['--config', file, 'payments', 'show', 'SAL-0001', '--json'], { cwd: dir, env });
        expect(JSON.parse(shown.stdout)).toEqual([expect.objectContaining({ categoryPurpose: 'SALA' })]);
      });
    } finally {
      await sandbox.close();
      await smtp.close();
    }
  });
});
