// The free text inside the ERP's status files follows the company's `locale` (docs/i18n.md,
// docs/formats/pain002.md): through `settle run nightly` against the sandbox bank, a bokmål
// company's held lines reach its pain.002 AddtlInf and its status CSV's reason in bokmål, and so
// does a line a person dropped after its hold; an English company's files keep the English
// sentences settle always wrote, byte for byte. The bokmål pain.002 is valid against its XSD.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_CONSOLE } from '../../src/main/demo.js';
import { SEED } from '../../src/sandbox/index.js';
import { Client } from '../console/client.js';
import { startSettle } from '../support/cli.js';
import { withControlsWorld, type ControlsWorld } from '../support/controls-world.js';
import { hasTool, xmllintValidate } from '../support/oracles.js';

const KNOWN = 'NO0612000000009';
const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';

interface StatusFiles {
  csv: string[];
  pain002: string;
}

/** The newest status CSV and pain.002 of `file` in the company's status folder. */
async function statusFiles(dir: string, file: string): Promise<StatusFiles> {
  const status = join(dir, 'acme', 'status');
  const names = (await readdir(status)).filter((n) => n.startsWith(file)).sort();
  const last = (suffix: string) => names.filter((n) => n.endsWith(suffix)).pop()!;
  return {
    csv: (await readFile(join(status, last('.status.csv')), 'utf8')).split('\n'),
    pain002: await readFile(join(status, last('.xml')), 'utf8'),
  };
}

/** Two nights: a baseline, then a file with a duplicate, a new account and a line over the limit. */
async function heldNight(world: ControlsWorld): Promise<StatusFiles> {
  const { dir, date, settle, dropCsv } = world;
  const line = (e2e: string, amount: string, iban: string, name: string, text: string) =>
    `${SEED.operatingIban},ACME AS,${date},${e2e},${amount},NOK,${iban},${name},${text}`;
  await dropCsv('base.csv', HEADER, line('BASE-1', '100.00', KNOWN, 'Oslo Trykkeri AS', 'Faktura 7000'));
  const first = await settle('run', 'nightly');
  expect(first.code, first.stderr).toBe(0);
  await dropCsv(
    'run-2.csv',
    HEADER,
    line('D-1', '4200.00', KNOWN, 'Oslo Trykkeri AS', 'Faktura 7001'),
    line('D-2', '4200.00', KNOWN, 'Oslo Trykkeri AS', 'faktura 7001'),
    line('N-1', '980.00', 'NO8330001234567', 'Ny Leverandor AS', 'Faktura 88'),
    line('L-1', '12000.00', KNOWN, 'Oslo Trykkeri AS', 'Faktura 7003'),
  );
  expect((await settle('run', 'nightly')).code).toBe(1);
  return statusFiles(dir, 'run-2.csv');
}

const controls = () => {
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  return `    controls:\n      goLive: "${yesterday}"\n      limits: { perLine: { NOK: "10000.00" } }\n`;
};

const rowOf = (rows: readonly string[], e2e: string) => rows.find((r) => r.includes(`;${e2e};`)) ?? '';
/** Every AddtlInf of the line `e2e` in a pain.002, joined as the ERP reads them. */
const addtlInf = (xml: string, e2e: string) => {
  const tx = new RegExp(`<OrgnlEndToEndId>${e2e}</OrgnlEndToEndId>[\\s\\S]*?</TxInfAndSts>`).exec(xml)?.[0] ?? '';
  return [...tx.matchAll(/<AddtlInf>([^<]*)<\/AddtlInf>/g)].map((m) => m[1]).join(' ');
};

describe('the free text in the status files follows the company locale', { timeout: 300_000 }, () => {
  it('a bokmål company reads its holds and drops in bokmål, in a valid pain.002', async () => {
    await withControlsWorld(undefined, { company: `    locale: nb\n${controls()}`, console: true }, async (world) => {
      const { csv, pain002 } = await heldNight(world);
      expect(rowOf(csv, 'L-1')).toContain(
        'SETTLE-HELD-LIMIT-LINE: holdt tilbake av betalingskontrollene: Betaling over grensen (limit-line): 12\u00a0000,00\u00a0kr er over grensen på 10\u00a0000,00\u00a0kr per linje',
      );
      expect(rowOf(csv, 'N-1')).toContain(
        'SETTLE-HELD-NEW-ACCOUNT: holdt tilbake av betalingskontrollene: Ny kreditorkonto (new-account): NO8330001234567 («Ny Leverandor AS») er aldri betalt av selskapet',
      );
      expect(rowOf(csv, 'D-2')).toMatch(
        /DUPL: mulig dublett: samme kreditorkonto, beløp og referanse som linje 2 \(ende-til-ende-ID D-1\) i samme fil/,
      );
      // The pain.002 carries the same words over its AddtlInf (105 characters each), none cut.
      // AddtlInf is cut at white space and joined with spaces, so the no-break spaces read as spaces.
      const limit = addtlInf(pain002, 'L-1');
      expect(limit).toBe(
        'holdt tilbake av betalingskontrollene: Betaling over grensen (limit-line): 12 000,00 kr er over grensen på 10 000,00 kr per linje',
      );
      expect(addtlInf(pain002, 'N-1')).toContain('(i bruk fra ');
      for (const part of pain002.matchAll(/<AddtlInf>([^<]*)<\/AddtlInf>/g))
        expect([...part[1]!].length).toBeLessThanOrEqual(105);
      if (hasTool('xmllint')) {
        const checked = await xmllintValidate(pain002, 'pain.002.001.03');
        expect(checked.output).toContain('validates');
        expect(checked.valid).toBe(true);
      }

      // `settle payments held` gives the holds' recorded words in bokmål; its JSON keeps the English.
      const held = await world.settle('payments', 'held');
      expect(held.stdout).toContain(
        'holdt tilbake av betalingskontrollene: Betaling over grensen (limit-line): 12\u00a0000,00\u00a0kr er over grensen på 10\u00a0000,00\u00a0kr per linje',
      );
      expect(held.stdout).toContain('mulig dublett: samme kreditorkonto, beløp og referanse som linje 2');
      expect(held.stdout).not.toContain('held by payment controls');
      const json = JSON.parse((await world.settle('payments', 'held', '--json')).stdout) as { reason: string }[];
      expect(json.map((h) => h.reason)).toContain(
        'held by payment controls: limit-line: 12000.00 NOK is above the limit of 10000.00 NOK a line',
      );
      expect(JSON.stringify(json)).not.toContain('reasonText');
      // The console's Held page, read by a person of the bokmål company, gives the same words.
      const serve = startSettle(['--config', world.file, 'serve', '--no-scheduler', '--port', '0'], {
        cwd: world.dir,
        env: world.env,
      });
      try {
        const listening = await serve.waitFor(/^.*"message":"console listening".*$/m, 60_000);
        const base = (JSON.parse(listening[0]) as { url: string }).url.replace(/\/console\/$/, '');
        const kari = new Client(base);
        expect((await kari.signIn(DEMO_CONSOLE.username, DEMO_CONSOLE.password)).status).toBe(303);
        const page = await (await kari.request('/console/held?company=acme')).text();
        expect(page).toContain(
          'holdt tilbake av betalingskontrollene: Betaling over grensen (limit-line): 12\u00a0000,00\u00a0kr er over grensen på 10\u00a0000,00\u00a0kr per linje',
        );
        expect(page).not.toContain('held by payment controls');
      } finally {
        await serve.stop();
      }

      // A person drops the duplicate; the next night's status file says so in bokmål.
      expect((await world.settle('payments', 'drop', 'D-2', '--reason', 'betalt før')).code).toBe(0);
      await world.settle('run', 'nightly');
      const after = await statusFiles(world.dir, 'run-2.csv');
      expect(rowOf(after.csv, 'D-2')).toContain(
        'SETTLE-DROPPED-DUPLICATE: avvist som dublett av kari.controller: betalt før',
      );
      expect(addtlInf(after.pain002, 'D-2')).toBe('avvist som dublett av kari.controller: betalt før');
    });
  });

  it('an English company keeps the English it always read', async () => {
    await withControlsWorld(undefined, { company: controls() }, async (world) => {
      const { csv, pain002 } = await heldNight(world);
      expect(rowOf(csv, 'L-1')).toContain(
        'SETTLE-HELD-LIMIT-LINE: held by payment controls: limit-line: 12000.00 NOK is above the limit of 10000.00 NOK a line',
      );
      expect(rowOf(csv, 'D-2')).toContain(
        'DUPL: likely duplicate: same creditor account, amount and reference as line 2 (end-to-end id D-1) of this file',
      );
      expect((await world.settle('payments', 'held')).stdout).toContain(
        'held by payment controls: limit-line: 12000.00 NOK is above the limit of 10000.00 NOK a line',
      );
      expect(addtlInf(pain002, 'N-1')).toBe(
        'held by payment controls: new-account: NO8330001234567 ("Ny Leverandor AS") was never paid by this company, nor is it in the known-accounts file (go-live ' +
          new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) +
          ')',
      );
    });
  });
});
