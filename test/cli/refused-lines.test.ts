// What the bank refused reaches people line by line: `settle run nightly` writes, beside the
// ERP's status files (code and bank text only), the accountant's report of each refused line
// with the bank's reason and what to do, and e-mails the same to the operators.
import { mkdir, readdir, readFile, writeFile, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';
import { startSmtpSink } from '../alerts/smtp-sink.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,creditor_bic,remittance_information,creditor_reference,instruction_priority';

/** Today in Oslo: settle accepts it, the bank wants a date after today. */
function todayInOslo(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(new Date());
}

describe('refused lines in the human report and the alert e-mail', { timeout: 180_000 }, () => {
  it('names each ERP line with the bank reason and what to do; the ERP files carry no instructions', async () => {
    const smtp = await startSmtpSink();
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const file = await writeDemoConfig(dir, sandbox);
        // Today's date is sent as it is, also on a weekend (whose date `move` would take to
        // Monday): the bank refuses it as not in the future, whatever the day of the week.
        const yaml = (await readFile(file, 'utf8')).replace(
          '    intake:\n      stableFor: 1s',
          '    intake:\n      stableFor: 1s\n      holidayPolicy: flag',
        );
        expect(yaml).toContain('holidayPolicy: flag');
        await writeFile(file, yaml);
        await appendFile(
          file,
          `alerts:\n  email:\n    host: 127.0.0.1\n    port: ${smtp.port}\n    from: settle@acme.example\n    to: [ops@acme.example]\n`,
        );
        const day = todayInOslo();
        await mkdir(join(dir, 'acme', 'inbox'), { recursive: true });
        await writeFile(
          join(dir, 'acme', 'inbox', 'today.csv'),
          [
            HEADER,
            `${SEED.operatingIban},ACME AS,${day},REF-TODAY-1,100.00,NOK,NO5812000079195,Nordic Cleaning AS,,,,normal`,
            `${SEED.operatingIban},ACME AS,${day},REF-TODAY-2,250.50,NOK,NO8812000158389,Bergen Kaffe AS,,,,normal`,
            '',
          ].join('\n'),
        );
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
        const run = await runSettle(['--config', file, 'run', 'nightly', '--json'], { cwd: dir, env });
        const result = JSON.parse(run.stdout) as {
          exitCode: number;
          statusReports: { originalFile: string; refusedLines: number; humanReport: string | null; paths: string[] }[];
        };
        expect(run.code).toBe(1);
        expect(result.exitCode).toBe(1);
        const [report] = result.statusReports;
        expect(report).toMatchObject({ originalFile: 'today.csv', refusedLines: 2 });
        expect(report!.humanReport).toMatch(/^reports\/refused-today\.csv\.\d+T\d+Z\.txt$/);

        const text = await readFile(join(dir, 'acme', report!.humanReport!), 'utf8');
        expect(text).toContain('ACME AS: 2 line(s) of today.csv were not paid');
        expect(text).toMatch(/Line 2 \(REF-TODAY-1\), Nordic Cleaning AS, 100\.00 NOK: RJCT/);
        expect(text).toMatch(/Line 3 \(REF-TODAY-2\), Bergen Kaffe AS, 250\.50 NOK: RJCT/);
        expect(text).toContain(`The bank's reason: DT01: requestedExecutionDate must be a future date`);
        expect(text).toContain('What to do:        Correct the execution date in the ERP (a future business day)');
        const html = await readFile(join(dir, 'acme', report!.humanReport!.replace(/\.txt$/, '.html')), 'utf8');
        expect(html).toContain('>REF-TODAY-2</td>');
        expect(html).toContain('Correct the execution date in the ERP');

        // The ERP's own files: the code and the bank's words, never the instructions.
        for (const path of report!.paths) {
          const erp = await readFile(join(dir, 'acme', path), 'utf8');
          expect(erp, path).toContain('DT01');
          expect(erp, path).not.toContain('Correct the execution date');
        }
        const statusNames = await readdir(join(dir, 'acme', 'status'));
        expect(statusNames.some((n) => n.endsWith('.txt') || n.endsWith('.html'))).toBe(false);

        const mail = smtp.messages.find(
          (m) => m.data.includes('X-Settle-Alert: finding') && m.data.includes('were not paid'),
        );
        expect(mail?.to).toEqual(['ops@acme.example']);
        const body = mail!.data.replace(/=\r\n/g, '');
        expect(body).toContain('Line 2 (REF-TODAY-1)');
        expect(body).toContain('Correct the execution date in the ERP');
      });
    } finally {
      await sandbox.close();
      await smtp.close();
    }
  });
});
