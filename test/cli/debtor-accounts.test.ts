// The debtor-account check at pickup through the compiled CLI against the sandbox bank over HTTP:
// a file paying from an account that is not onboarded, or onboarded but not enabled, is refused
// with the line located and what to do; while the bank cannot be reached the file waits in the
// inbox and is named (human and --json, pickup and nightly); once the bank enables the account
// (sandbox control), the same file dropped again is accepted, and only once.
import { readFile, rename, writeFile } from 'node:fs/promises';
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

const csv = (debtor: string, e2e: string) =>
  [
    HEADER,
    `${debtor},ACME AS,${nextWeek()},${e2e},100.00,NOK,NO5812000079195,Nordic Cleaning AS,Invoice ${e2e}`,
    '',
  ].join('\n');

/** An IBAN with valid check digits that is no account of the company at any bank. */
const STRANGER_IBAN = 'NO8330001234567';

interface PickedJson {
  files: { name: string; outcome: string; movedTo: string; sha256: string | null; waitingFor: string | null }[];
}

describe('debtor accounts checked at pickup', { timeout: 180_000 }, () => {
  it('refuses a file from an account not onboarded or not enabled, lets it wait while the bank is unreachable, and accepts it once enabled', async () => {
    const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
    try {
      await withTempDir(async (dir) => {
        const config = await writeDemoConfig(dir, sandbox);
        // One attempt per request: the unreachable bank below answers at once, not after backoff.
        await writeFile(config, (await readFile(config, 'utf8')).replace('\nbank:\n', '\nbank:\n  maxRetries: 0\n'));
        const env = { SETTLE_CLIENT_SECRET: SEED.clientSecret };
        const settle = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
          runSettle(['--config', config, ...args], { cwd: dir, env: { ...env, ...extra } });
        // A closed port: every bank call fails at once, as when the bank cannot be reached.
        const unreachable = { SETTLE_BANK_URL: 'http://127.0.0.1:9/api' };
        const root = join(dir, 'acme');
        const drop = async (name: string, content: string) => {
          await writeFile(join(root, 'inbox', name), content);
          await new Promise((r) => setTimeout(r, 1100)); // intake.stableFor
        };
        await settle(['run', 'pickup']); // makes the company's folders
        const pending = csv(SEED.pendingIban, 'PEND-1');

        await drop('stranger.csv', csv(STRANGER_IBAN, 'STR-1'));
        await drop('pending.csv', pending);
        const refused = await settle(['run', 'pickup']);
        expect(refused.code, refused.stderr).toBe(1);
        expect(refused.stdout).toContain('acme  pending.csv: rejected, 0 payment(s) → error/pending.csv');
        expect(refused.stdout).toContain('acme  stranger.csv: rejected, 0 payment(s) → error/stranger.csv');
        const stranger = await readFile(join(root, 'error/stranger.csv.errors.txt'), 'utf8');
        expect(stranger).toMatch(/row 2:\n\s+error\s+DEBTOR_ACCOUNT_NOT_ONBOARDED/);
        expect(stranger).toContain(`debtor account ${STRANGER_IBAN} is not an onboarded account of ACME AS`);
        expect(stranger).toContain('settle consents create --bank BANK');
        const notEnabled = await readFile(join(root, 'error/pending.csv.errors.txt'), 'utf8');
        expect(notEnabled).toMatch(/row 2:\n\s+error\s+DEBTOR_ACCOUNT_NOT_ONBOARDED/);
        expect(notEnabled).toContain(`debtor account ${SEED.pendingIban} at nordbank is disabled, not enabled yet`);
        expect(notEnabled).toContain('settle accounts list --bank nordbank');

        // The accountant drops the same file again while the bank cannot be reached: it waits, named.
        await rename(join(root, 'error/pending.csv'), join(root, 'inbox/pending.csv'));
        await new Promise((r) => setTimeout(r, 1100));
        const waiting = await settle(['run', 'pickup'], unreachable);
        expect(waiting.code, waiting.stderr).toBe(0);
        expect(waiting.stdout).toMatch(
          /^acme {2}pending\.csv: waiting in inbox\/pending\.csv for the bank's account list, to check the debtor accounts \(not read: ERR_BANK_\w+\); taken on the next run$/m,
        );
        const json = JSON.parse((await settle(['run', 'pickup', '--json'], unreachable)).stdout) as PickedJson;
        expect(json.files).toEqual([
          {
            company: 'acme',
            name: 'pending.csv',
            outcome: 'waiting',
            payments: 0,
            held: 0,
            movedTo: 'inbox/pending.csv',
            report: null,
            sha256: null,
            waitingFor: expect.stringMatching(/^the bank's account list, to check the debtor accounts/),
            refused: null,
          },
        ]);
        const night = await settle(['run', 'nightly'], unreachable);
        expect(night.stdout).toMatch(
          /pickup +1 file\(s\): 0 accepted, 0 partly accepted, 0 rejected, 0 duplicate; 1 waiting: pending\.csv for the bank's account list/,
        );

        // The bank enables the account; the next run takes the same file, and accepts it.
        const enabled = await fetch(`${sandbox.urls.controlUrl}/accounts/${SEED.pendingAccountId}/enable`, {
          method: 'POST',
        });
        expect(enabled.status).toBe(200);
        const accepted = await settle(['run', 'pickup']);
        expect(accepted.code, accepted.stderr).toBe(0);
        expect(accepted.stdout).toMatch(
          /^acme {2}pending\.csv: accepted, 1 payment\(s\) → archive\/[\d-]+\/pending\.csv$/m,
        );
        // Accepted once: the same bytes again are a duplicate, nothing is paid twice.
        await drop('pending-again.csv', pending);
        const twice = await settle(['run', 'pickup']);
        expect(twice.stdout).toContain('acme  pending-again.csv: duplicate, 0 payment(s)');
      });
    } finally {
      await sandbox.close();
    }
  });
});
