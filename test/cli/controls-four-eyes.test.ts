// Four eyes on a changed account, through the real entry points, on SQLite and MariaDB: a file in
// the inbox and `settle run nightly` against the sandbox bank hold a known creditor paid to a new
// IBAN; Ola releases it once on the command line; Ola again — on the command line, then signed in
// to a running `settle serve`'s console — is refused as the same person; another person on the
// command line is refused (a second release is given signed in); Kari, signed in to the console,
// releases it. The next night pays it as a bulk of its own, and a third night sends nothing more.
import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { DEMO_CONSOLE } from '../../src/main/demo.js';
import { SEED } from '../../src/sandbox/index.js';
import { Client } from '../console/client.js';
import { startSettle } from '../support/cli.js';
import { onEngine, withControlsWorld, type Engine } from '../support/controls-world.js';
import { mariaDbForTests } from '../support/mariadb.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';
const KNOWN = 'NO0612000000009';
const CHANGED = 'NO5812000079195';
const OLA = { username: 'ola', password: 'ola-correct-horse-staple', person: 'ola' };

/**
 * The demo's configuration with the console on a free port and a second operator, Ola, whose
 * console login and command-line actor are one person (`person: ola`).
 */
function withOla(yaml: string): string {
  const ola = `{ username: ${OLA.username}, email: ola.nordmann@acme.example, person: ${OLA.person}, passwordHash: { env: OLA_HASH } }`;
  return yaml
    .replace(`\n  port: ${DEMO_CONSOLE.port}\n`, '\n  port: 0\n')
    .replace(/(\n {2}localUsers:\n.*\n)/, `$1    - ${ola}\n`)
    .replace(
      /(\n {4}people:\n.*\n)/,
      `$1      - { name: Ola Nordmann, email: ola.nordmann@acme.example, person: ${OLA.person}, roles: [operator] }\n`,
    );
}

async function night(databaseUrl: string | undefined): Promise<void> {
  const options = { console: true, edit: withOla, env: { OLA_HASH: await hash(OLA.password) } };
  await withControlsWorld(databaseUrl, options, async (w) => {
    expect(await w.settle('config', 'check')).toMatchObject({ code: 0 });
    const line = (e2e: string, iban: string, text: string) =>
      `${SEED.operatingIban},ACME AS,${w.date},${e2e},500.00,NOK,${iban},Oslo Trykkeri AS,${text}`;

    // The first night is the history: Oslo Trykkeri is paid to its account.
    await w.dropCsv('base.csv', HEADER, line('BASE-1', KNOWN, 'Faktura 7000'));
    expect((await w.settle('run', 'nightly')).code).toBe(0);
    // Then the same creditor on a new IBAN is held; its other line is paid.
    await w.dropCsv('run-2.csv', HEADER, line('C-1', CHANGED, 'Faktura 7001'), line('P-1', KNOWN, 'Faktura 7002'));
    const second = await w.settle('run', 'nightly');
    expect(second.code, second.stderr).toBe(1);
    expect(second.stdout).toContain('run-2.csv line 2 C-1 (changed-account)');
    expect(await w.paidAtBank()).toEqual(['BASE-1', 'P-1']);
    const [held, ...others] = JSON.parse((await w.settle('payments', 'held', '--json')).stdout) as {
      id: string;
      paymentId: string;
      endToEndId: string;
      releasesNeeded: number;
    }[];
    expect(others).toEqual([]);
    expect(held).toMatchObject({ endToEndId: 'C-1', releasesNeeded: 2 });

    // Ola's first release sends nothing; his second, on the command line, is refused.
    const first = await w.settleAs(OLA.username, 'payments', 'release', 'C-1', '--reason', 'new bank letter seen');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('C-1 (run-2.csv line 2) released once by ola');
    const again = await w.settleAs(OLA.username, 'payments', 'release', 'C-1', '--reason', 'sure');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('ERR_HOLD_SAME_PERSON');
    // Another person on the command line, whose actor is self-declared, is refused too.
    const cli = await w.settle('payments', 'release', 'C-1', '--reason', 'looks fine');
    expect(cli.code).toBe(2);
    expect(cli.stderr).toContain('ERR_HOLD_SECOND_IN_CONSOLE');

    const serve = startSettle(['--config', w.file, 'serve', '--no-scheduler', '--port', '0'], {
      cwd: w.dir,
      env: w.env,
    });
    try {
      const listening = await serve.waitFor(/^.*"message":"console listening".*$/m, 60_000);
      const base = (JSON.parse(listening[0]) as { url: string }).url.replace(/\/console\/$/, '');
      const release = async (client: Client, reason: string) => {
        const page = await client.request('/console/held?company=acme');
        expect(page.status).toBe(200);
        const form = { _csrf: Client.token(await page.text()), reason };
        return client.request(`/console/held/${encodeURIComponent(held!.id)}/release?company=acme`, { form });
      };

      // Ola signed in is the same person as Ola on the command line: refused, nothing changes.
      const ola = new Client(base);
      expect((await ola.signIn(OLA.username, OLA.password)).status).toBe(303);
      const refused = await release(ola, 'second look');
      expect(refused.status).toBe(409);
      expect(await refused.text()).toContain('needs a release by a second, different person');
      expect((await w.settle('payments', 'held')).stdout).toContain(
        'released once by ola, waiting for a second person',
      );

      // Kari, signed in, is a second person: the hold is decided.
      const kari = new Client(base);
      expect((await kari.signIn(DEMO_CONSOLE.username, DEMO_CONSOLE.password)).status).toBe(303);
      const released = await release(kari, 'called Oslo Trykkeri on the number we know');
      expect(released.status).toBe(303);
      expect(released.headers.get('location')).toBe('/console/held?company=acme');
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    expect((await w.settle('payments', 'held')).stdout).toBe('no held payments\n');
    // The audit trail keeps both releases, with who and why; the deciding one names the first.
    const audit = JSON.parse(
      (await w.settle('audit', 'list', '--subject', `payment:${held!.paymentId}`, '--json')).stdout,
    ) as {
      actor: string;
      action: string;
      reason: string;
      details: Record<string, unknown>;
    }[];
    expect(audit.map((e) => [e.actor, e.action, e.reason])).toEqual([
      ['ola', 'payment.release.first', 'new bank letter seen'],
      ['local:demo', 'payment.release', 'called Oslo Trykkeri on the number we know'],
    ]);
    expect(audit[1]!.details).toMatchObject({ endToEndId: 'C-1', rules: ['changed-account'], firstReleasedBy: 'ola' });

    // The next night sends it, once, as a bulk of its own with a new key; a third sends nothing.
    const third = await w.settle('run', 'nightly');
    expect(third.code, third.stderr).toBe(0);
    expect(await w.paidAtBank()).toEqual(['BASE-1', 'C-1', 'P-1']);
    const bulks = await w.bulksAtBank();
    const own = bulks.filter((b) => b.endToEndIds.includes('C-1'));
    expect(own).toHaveLength(1);
    expect(own[0]!.endToEndIds).toEqual(['C-1']);
    expect(new Set(bulks.map((b) => b.idempotencyKey)).size).toBe(bulks.length);
    expect((await w.settle('run', 'nightly')).code).toBe(0);
    expect(await w.bulksAtBank()).toEqual(bulks);
  });
}

const engines: Engine[] = (await mariaDbForTests()) ? ['SQLite', 'MariaDB'] : ['SQLite'];

describe('a changed account needs two people, through settle run nightly and the console', { timeout: 300_000 }, () => {
  it.each(engines)(
    'on %s: held, not released by the same person, released by a second, then paid exactly once',
    (engine) => onEngine(engine, night),
  );
});
