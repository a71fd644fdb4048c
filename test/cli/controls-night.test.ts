// Payment controls through the real entry point: files in the inbox, then `settle run nightly`
// against the sandbox bank, on SQLite and MariaDB. A duplicate line is paid once and its repeat
// held; a new account after go-live, a known creditor's changed account and a line over the limit
// are held; the night's summary names each held line; the ERP's status files show them pending
// with their rule's reason code; a released line is paid on the next night, exactly once.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED } from '../../src/sandbox/index.js';
import { onEngine, withControlsWorld, type Engine } from '../support/controls-world.js';
import { mariaDbForTests } from '../support/mariadb.js';

const KNOWN = 'NO0612000000009';
const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';

async function night(databaseUrl: string | undefined): Promise<void> {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const company = `    controls:\n      goLive: "${yesterday}"\n      limits: { perLine: { NOK: "10000.00" } }\n`;
  await withControlsWorld(databaseUrl, { company }, async ({ dir, date, settle, dropCsv, paidAtBank }) => {
    const line = (e2e: string, amount: string, iban: string, name: string, text: string) =>
      `${SEED.operatingIban},ACME AS,${date},${e2e},${amount},NOK,${iban},${name},${text}`;
    const drop = (name: string, ...lines: string[]) => dropCsv(name, HEADER, ...lines);

    // The first night is the baseline: Oslo Trykkeri is paid to its known account.
    await drop('base.csv', line('BASE-1', '100.00', KNOWN, 'Oslo Trykkeri AS', 'Faktura 7000'));
    expect((await settle('run', 'nightly')).code).toBe(0);

    await drop(
      'run-2.csv',
      line('D-1', '4200.00', KNOWN, 'Oslo Trykkeri AS', 'Faktura 7001'),
      line('D-2', '4200.00', KNOWN, 'Oslo Trykkeri AS', 'faktura 7001'),
      line('N-1', '980.00', 'NO8330001234567', 'Ny Leverandor AS', 'Faktura 88'),
      line('C-1', '500.00', 'NO5812000079195', 'OSLO TRYKKERI AS', 'Faktura 7002'),
      line('L-1', '12000.00', KNOWN, 'Oslo Trykkeri AS', 'Faktura 7003'),
    );
    const second = await settle('run', 'nightly');
    expect(second.code, second.stderr).toBe(1);
    // The summary names each held line in the file's own words: line and end-to-end id.
    expect(second.stdout).toMatch(/4 payment\(s\) held for a person \(settle payments held\)/);
    expect(second.stdout).toContain('run-2.csv line 3 D-2 (duplicate)');
    expect(second.stdout).toContain('run-2.csv line 4 N-1 (new-account)');
    expect(second.stdout).toContain('run-2.csv line 5 C-1 (changed-account)');
    expect(second.stdout).toContain('run-2.csv line 6 L-1 (limit-line)');
    expect(await paidAtBank()).toEqual(['BASE-1', 'D-1']);

    // The ERP's status CSV: the held lines pending, each with its rule's code and the reason.
    const status = join(dir, 'acme', 'status');
    const csvName = (await readdir(status)).filter((n) => n.startsWith('run-2.csv') && n.endsWith('.csv')).sort();
    const rows = (await readFile(join(status, csvName[csvName.length - 1]!), 'utf8')).split('\n');
    const row = (e2e: string) => rows.find((r) => r.includes(`;${e2e};`));
    expect(row('D-2')).toMatch(/;PDNG;"?DUPL: /);
    expect(row('N-1')).toMatch(/;PDNG;"?SETTLE-HELD-NEW-ACCOUNT: held by payment controls: new-account/);
    expect(row('C-1')).toMatch(/;PDNG;"?SETTLE-HELD-CHANGED-ACCOUNT: held by payment controls: changed-account/);
    expect(row('L-1')).toMatch(/;PDNG;"?SETTLE-HELD-LIMIT-LINE: held by payment controls: limit-line/);
    const pain002 = (await readdir(status)).find((n) => n.startsWith('run-2.csv') && n.endsWith('.xml'))!;
    expect(await readFile(join(status, pain002), 'utf8')).toMatch(
      /<OrgnlEndToEndId>N-1<\/OrgnlEndToEndId>\s*<TxSts>PDNG<\/TxSts>\s*<StsRsnInf>\s*<Rsn>\s*<Prtry>SETTLE-HELD-NEW-ACCOUNT</,
    );

    // One person releases the new account; the limit waits for a second person, whoever the first.
    expect((await settle('payments', 'release', 'N-1', '--reason', 'new supplier, contract seen')).code).toBe(0);
    expect((await settle('payments', 'release', 'L-1', '--reason', 'budget approved')).code).toBe(0);
    const again = await settle('payments', 'release', 'L-1', '--reason', 'budget approved');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('ERR_HOLD_SAME_PERSON');
    await settle('run', 'nightly');
    await settle('run', 'nightly');
    // The released line is paid once; the others still wait.
    expect(await paidAtBank()).toEqual(['BASE-1', 'D-1', 'N-1']);
  });
}

const engines: Engine[] = (await mariaDbForTests()) ? ['SQLite', 'MariaDB'] : ['SQLite'];

describe('payment controls through settle run nightly', { timeout: 300_000 }, () => {
  it.each(engines)(
    'on %s: holds a duplicate, a new account, a changed account and a line over the limit; pays a release once',
    (engine) => onEngine(engine, night),
  );
});
