// The demo's night 2 ends where finance can sign the period off (issue #48): the demo names the
// period and the findings a person decides first, and prints the steps; followed as printed
// (through the compiled CLI, as a user would), the sign-off is refused while the rejected
// payment needs a person, then recorded, and the signed period exports as CSV and HTML with
// its signer. A finding acknowledged then reopened reopens the period, visibly in the export.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PERIOD, runDemo } from '../../src/main/demo.js';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

describe('settle demo, then the period signed off', () => {
  it('prints the sign-off steps; followed, they sign the period off and it exports with its signer', async () => {
    await withTempDir(async (dir) => {
      const lines: string[] = [];
      const demo = await runDemo({ dir: join(dir, 'demo'), out: (l) => lines.push(l) });
      const config = join(demo.dir, 'settle.yaml');
      const settle = (args: string[]) =>
        runSettle(['--config', config, ...args], { cwd: dir, env: { SETTLE_ACTOR: 'kari.nordmann@acme.example' } });
      expect(demo.signoff).toMatchObject({ company: 'acme', period: DEMO_PERIOD });
      // The rejected payment (AC04) needs a person: the demo never decides for them.
      expect(demo.signoff.needingPerson).toEqual([expect.stringMatching(/^F-[0-9a-f]{16} rejected$/)]);
      const printed = lines.join('\n');
      expect(printed).toContain(`reconcile signoff --company acme --period ${DEMO_PERIOD}`);
      expect(printed).toContain(`reconcile export --company acme --period ${DEMO_PERIOD} --format html`);

      const refused = await settle(['reconcile', 'signoff', '--company', 'acme', '--period', DEMO_PERIOD]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('ERR_PERIOD_NEEDS_PERSON');
      const finding = demo.signoff.needingPerson[0]!.split(' ')[0]!;
      expect(refused.stderr).toContain(finding);

      const ack = await settle(['findings', 'ack', finding, '--reason', 'the creditor sent a new account number']);
      expect(ack.code, ack.stderr).toBe(0);
      const signed = await settle([
        'reconcile',
        'signoff',
        '--company',
        'acme',
        '--period',
        DEMO_PERIOD,
        '--note',
        'January',
      ]);
      expect(signed.code, signed.stderr).toBe(0);
      expect(signed.stdout).toContain(
        `acme ${DEMO_PERIOD} (2026-01-01 to 2026-01-31) signed off by kari.nordmann@acme.example`,
      );

      const csv = await settle(['reconcile', 'export', '--company', 'acme', '--period', DEMO_PERIOD]);
      expect(csv.code, csv.stderr).toBe(0);
      expect(csv.stdout.split('\r\n')[0]).toMatch(/^section,company,period,from,to,state,signed_by,/);
      expect(csv.stdout).toContain(
        `period,acme,${DEMO_PERIOD},2026-01-01,2026-01-31,signed,kari.nordmann@acme.example`,
      );
      // The balances per account from the statements, and the totals by finding type.
      expect(csv.stdout).toMatch(/\r\nbalance,acme,2026-01,[^\r]*NO9386011117947,[^\r]*NOK,/);
      expect(csv.stdout).toMatch(/\r\nfinding_type,acme,2026-01,[^\r]*,rejected,NOK,[^\r]*,1,1,845\.00/);
      const out = join(dir, 'signoff.html');
      const html = await settle([
        'reconcile',
        'export',
        '--company',
        'acme',
        '--period',
        DEMO_PERIOD,
        '--format',
        'html',
        '--out',
        out,
      ]);
      expect(html.code, html.stderr).toBe(0);
      const page = await readFile(out, 'utf8');
      expect(page).toContain('Period 2026-01 signed off: ACME AS');
      expect(page).toContain('kari.nordmann@acme.example');
      expect(page).toContain('State: signed.');

      const periods = await settle(['reconcile', 'periods', '--json']);
      const [period] = JSON.parse(periods.stdout) as {
        period: string;
        state: string;
        balances: Record<string, unknown>[];
      }[];
      expect(period).toMatchObject({ period: DEMO_PERIOD, state: 'signed', reopenedAt: null });
      // Amounts are decimal strings in the currency's precision, as every --json output (docs/cli-json.md).
      expect(period!.balances.length).toBeGreaterThan(0);
      for (const b of period!.balances) expect(b.sent).toMatch(/^-?\d+\.\d{2}$/);
      // Signing again is refused; a person reopening the finding reopens the period, in the export too.
      expect((await settle(['reconcile', 'signoff', '--company', 'acme', '--period', DEMO_PERIOD])).code).toBe(1);
      expect((await settle(['findings', 'reopen', finding, '--reason', 'the new account bounced too'])).code).toBe(0);
      const after = await settle(['reconcile', 'export', '--company', 'acme', '--period', DEMO_PERIOD]);
      expect(after.stdout).toContain(',reopened,');
      expect(after.stdout).toContain('reopened by kari.nordmann@acme.example: the new account bounced too');
    });
  }, 120_000);
});
