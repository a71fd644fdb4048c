// `settle run <job> --json` as a script reads it: one JSON document on stdout per job, in the
// documented shape (docs/cli-json.md), amounts as decimal strings; a mistyped company is a
// usage error (exit 2), never a runtime failure.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,creditor_bic,remittance_information,creditor_reference,instruction_priority';

function weekdayAhead(): string {
  const day = new Date(Date.now() + 2 * 86_400_000);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

const keys = (o: unknown) => Object.keys(o as object).sort();

describe('settle run <job> --json', { timeout: 240_000 }, () => {
  it('prints each job’s summary in its documented shape', async () => {
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const file = await writeDemoConfig(dir, sandbox);
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
        const run = async (job: string, ...more: string[]) => {
          const r = await runSettle(['--config', file, 'run', job, '--json', ...more], { cwd: dir, env });
          expect(r.code, `${job}: ${r.stderr}`).not.toBe(3);
          return JSON.parse(r.stdout) as Record<string, unknown>;
        };
        await mkdir(join(dir, 'acme', 'inbox'), { recursive: true });
        const day = weekdayAhead();
        await writeFile(
          join(dir, 'acme', 'inbox', 'pay.csv'),
          [
            HEADER,
            `${SEED.operatingIban},ACME AS,${day},JSON-1,1234.50,NOK,NO5812000079195,Nordic Cleaning AS,,,,normal`,
            `${SEED.approvalIban},ACME AS,${day},JSON-2,99.00,NOK,NO8812000158389,Bergen Kaffe AS,,,,normal`,
            '',
          ].join('\n'),
        );

        const pickup = (await run('pickup')) as { files: Record<string, unknown>[] };
        expect(pickup.files).toEqual([
          {
            company: 'acme',
            name: 'pay.csv',
            outcome: 'accepted',
            payments: 2,
            held: 0,
            movedTo: expect.stringMatching(/^archive\//) as unknown,
            report: null,
            sha256: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown,
            waitingFor: null,
            refused: null,
          },
        ]);

        const submit = await run('submit');
        expect(keys(submit)).toEqual(['bulks', 'planned', 'statusReports', 'waiting']);
        const bulks = submit.bulks as Record<string, unknown>[];
        expect(bulks.map((b) => [b.outcome, b.payments])).toEqual([
          ['sent', 1],
          ['sent', 1],
        ]);
        expect(keys(bulks[0])).toEqual([
          'bankPaymentId',
          'bulkId',
          'company',
          'explanation',
          'fileId',
          'outcome',
          'payments',
        ]);

        const approve = (await run('approve')) as { baskets: Record<string, unknown>[] };
        expect(approve.baskets).toEqual([
          expect.objectContaining({ company: 'acme', linkIssued: true, bulks: 1, problem: null }),
        ]);
        expect(JSON.stringify(approve)).not.toContain('/__sandbox/sca/');

        expect(keys(await run('status'))).toEqual(['changed', 'failed', 'notDue', 'polled', 'statusReports']);

        const fetched = (await run('fetch')) as { accounts: { days: Record<string, unknown>[] }[] };
        expect(fetched.accounts).toHaveLength(4); // both banks' accounts, one not enabled yet
        for (const d of fetched.accounts.flatMap((a) => a.days))
          for (const amount of [d.opening, d.closing, d.bookedSum])
            if (amount !== null) expect(amount).toMatch(/^-?\d+\.\d{2}$/);

        expect(keys(await run('export'))).toEqual(['changed', 'files', 'held']);

        const reconcile = (await run('reconcile')) as { companies: Record<string, unknown>[] };
        expect(keys(reconcile.companies[0])).toEqual([
          'acknowledged',
          'byType',
          'company',
          'csv',
          'findings',
          'from',
          'html',
          'needingPerson',
          'to',
        ]);
        for (const t of reconcile.companies[0]!.byType as { totals: { amount: string }[] }[])
          for (const total of t.totals) expect(total.amount).toMatch(/^-?\d+(\.\d+)?$/);

        const typo = await runSettle(['--config', file, 'run', 'pickup', '--json', '--company', 'acm'], {
          cwd: dir,
          env,
        });
        expect(typo.code).toBe(2);
        expect(typo.stderr).toMatch(/^settle: ERR_COMPANY_UNKNOWN: no company with id acm/);
      });
    } finally {
      await sandbox.close();
    }
  });
});
