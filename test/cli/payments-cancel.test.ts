// `settle payments cancel` through the compiled CLI against the sandbox bank over HTTP: a line of a
// bulk at the bank is not cancelled without a yes (every line of the bulk is shown); with --yes
// the whole bulk is cancelled at the bank and the other lines go again once; a line not yet sent
// is withdrawn; who asked is the SETTLE_ACTOR.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';

/** A date a week ahead in Oslo (settle moves a weekend to the next business day). */
function nextWeek(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(new Date(Date.now() + 7 * 86_400_000));
}

const line = (e2e: string, amount: string) =>
  `${SEED.approvalIban},ACME AS,${nextWeek()},${e2e},${amount},NOK,NO5812000079195,Nordic Cleaning AS,Invoice ${e2e}`;

interface BankBulk {
  transactionStatus: string;
  paymentLines: { endToEndIdentification: string }[];
}

describe('settle payments cancel', { timeout: 180_000 }, () => {
  it('asks before cancelling a bulk at the bank, re-sends the other lines once, withdraws an unsent line', async () => {
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const config = await writeDemoConfig(dir, sandbox);
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret, SETTLE_ACTOR: 'kari.controller' };
        const settle = (...args: string[]) => runSettle(['--config', config, ...args], { cwd: dir, env });
        const inbox = join(dir, 'acme', 'inbox');
        await mkdir(inbox, { recursive: true });
        await writeFile(
          join(inbox, 'pay-1.csv'),
          [HEADER, line('REF-1', '100.00'), line('REF-2', '200.00'), line('REF-3', '300.00'), ''].join('\n'),
        );
        await new Promise((r) => setTimeout(r, 1100)); // intake.stableFor
        expect((await settle('run', 'pickup')).code).toBe(0);
        expect((await settle('run', 'submit')).code).toBe(0);
        const bank = async () =>
          ((await (await fetch(`${sandbox.urls.controlUrl}/payments`)).json()) as { payments: BankBulk[] }).payments;
        expect((await bank()).map((b) => b.transactionStatus)).toEqual(['RCVD']);

        // No terminal to ask and no --yes: every line of the bulk is shown, nothing is done.
        const asked = await settle('payments', 'cancel', 'REF-2', '--reason', 'wrong invoice');
        expect(asked.code).toBe(2);
        expect(asked.stdout).toMatch(/cancels this bulk of 3 payments at the bank/);
        for (const ref of ['REF-1', 'REF-2', 'REF-3']) expect(asked.stdout).toContain(`  ${ref}  pay-1.csv line`);
        expect(asked.stderr).toMatch(/ERR_CANCEL_CONFIRMATION_NEEDED/);
        expect((await bank()).map((b) => b.transactionStatus)).toEqual(['RCVD']);

        const done = await settle('payments', 'cancel', 'REF-2', '--reason', 'wrong invoice', '--yes', '--json');
        expect(done.code, done.stderr).toBe(0);
        const result = JSON.parse(done.stdout) as {
          outcome: string;
          requestedBy: string;
          lines: { endToEndId: string }[];
          resent: { endToEndId: string }[];
        };
        expect(result).toMatchObject({ outcome: 'cancelled', requestedBy: 'kari.controller' });
        expect(result.lines.map((l) => l.endToEndId)).toEqual(['REF-2']);
        expect(result.resent.map((l) => l.endToEndId)).toEqual(['REF-1', 'REF-3']);
        // The same command again: already done, nothing sent.
        const again = await settle('payments', 'cancel', 'REF-2', '--reason', 'wrong invoice', '--yes');
        expect(again.code).toBe(0);
        expect(again.stdout).toMatch(/REF-2 was already cancelled \(cancelled by kari\.controller/);

        expect((await settle('run', 'submit')).code).toBe(0);
        expect((await settle('run', 'submit')).code).toBe(0);
        const live = (await bank())
          .filter((b) => b.transactionStatus !== 'CANC')
          .flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification));
        expect(live.sort()).toEqual(['REF-1', 'REF-3']);

        // A line not yet sent is withdrawn and never goes.
        await writeFile(join(inbox, 'pay-2.csv'), [HEADER, line('REF-4', '400.00'), ''].join('\n'));
        await new Promise((r) => setTimeout(r, 1100));
        expect((await settle('run', 'pickup')).code).toBe(0);
        const withdrawn = await settle('payments', 'cancel', 'pay-2.csv:2', '--reason', 'paid by card');
        expect(withdrawn.code, withdrawn.stderr).toBe(0);
        expect(withdrawn.stdout).toMatch(/REF-4 withdrawn: never sent to the bank/);
        expect((await settle('run', 'submit')).code).toBe(0);
        expect((await bank()).flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification))).not.toContain(
          'REF-4',
        );

        const audit = await settle('audit', 'verify');
        expect(audit.code, audit.stdout + audit.stderr).toBe(0);
      });
    } finally {
      await sandbox.close();
    }
  });
});
