// A return reaches the ERP's status files the night it is fetched (issue #47, Must 3), through
// the real `settle run nightly` against the sandbox bank over HTTP, on SQLite and MariaDB. The
// chain fetches the statements before it writes the status reports, so the night whose fetch
// brings the bank's booking of the return writes the pain.002 and status CSV that carry it, and
// running the same night again writes nothing twice (reports are keyed by the lines' states).
// The same nights' camt.053 and camt.054 describe each booking, the return among them, identically.
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runSettle } from '../support/cli.js';
import { createThrowawayDatabase, mariaDbForTests } from '../support/mariadb.js';
import { itWith } from '../support/oracles.js';
import { withTempDir } from '../support/tmp.js';

const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,remittance_information';
const RETURNED = { endToEndId: 'NIGHT-RET-1', amount: '1250.00', iban: 'NO1512000475147', name: 'Oslo Trykkeri AS' };
const PAID = { endToEndId: 'NIGHT-RET-2', amount: '800.00', iban: 'NO5812000079195', name: 'Nordic Cleaning AS' };
const FILE = 'night-returns.csv';

interface NightJson {
  steps: { step: string; ok: boolean; files: string[] }[];
}

async function control(sandbox: RunningSandbox, path: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${sandbox.urls.controlUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

/** Each `<Ntry>` of a camt document by its AcctSvcrRef, whitespace between elements removed. */
function entries(xml: string): Map<string, string> {
  const flat = xml.replace(/>\s+</g, '><');
  return new Map([...flat.matchAll(/<Ntry>.*?<\/Ntry>/g)].map((m) => [/<AcctSvcrRef>([^<]+)</.exec(m[0])![1]!, m[0]]));
}

async function nights(databaseUrl: string | undefined): Promise<void> {
  // 2026-01-05T08:00Z, moved only when told; settle's CLI runs at the same instants (faketime).
  const sandbox = await startSandbox({ port: 0, logger: silentLogger() });
  try {
    await withTempDir(async (dir) => {
      const config = await writeDemoConfig(dir, sandbox);
      await writeFile(config, `${await readFile(config, 'utf8')}log:\n  level: error\n`);
      const env = {
        SETTLE_CLIENT_SECRET: SEED.clientSecret,
        ...(databaseUrl ? { SETTLE_DATABASE_URL: databaseUrl } : {}),
      };
      const night = async (at: string): Promise<NightJson> => {
        const r = await runSettle(['--config', config, 'run', 'nightly', '--json'], {
          at: new Date(at),
          cwd: dir,
          env,
        });
        expect(r.code === 0 || r.code === 1, `${at}: exit ${r.code}: ${r.stderr}`).toBe(true);
        const result = JSON.parse(r.stdout) as NightJson;
        expect(result.steps.filter((s) => !s.ok)).toEqual([]);
        return result;
      };
      const moveBankTo = (at: string) => sandbox.advance(Date.parse(at) - sandbox.sandbox.clock.now().getTime());
      const written = (result: NightJson) => result.steps.find((s) => s.step === 'status-report')!.files;
      const status = join(dir, 'acme', 'status');
      const statusFiles = async () => (await readdir(status)).filter((n) => n.startsWith(`${FILE}.`)).sort();

      const inbox = join(dir, 'acme', 'inbox');
      await mkdir(inbox, { recursive: true });
      const line = (p: typeof PAID) =>
        `${SEED.operatingIban},ACME AS,2026-01-07,${p.endToEndId},${p.amount},NOK,${p.iban},${p.name},Invoice ${p.endToEndId}`;
      await writeFile(join(inbox, FILE), [HEADER, line(RETURNED), line(PAID)].join('\n') + '\n');
      // Dropped before settle's clock says it is: pickup takes files old enough to be whole.
      const dropped = new Date('2026-01-05T07:50:00Z');
      await utimes(join(inbox, FILE), dropped, dropped);

      await night('2026-01-05T08:00:00Z'); // picked up and sent
      moveBankTo('2026-01-08T03:00:00Z');
      const paidNight = await night('2026-01-08T03:00:00Z'); // the execution day is booked: both paid
      const paidCsv = written(paidNight).find((f) => f.endsWith('.status.csv'));
      expect(paidCsv, 'the night of the booking reports both paid').toBeDefined();
      expect(await readFile(join(dir, 'acme', paidCsv!), 'utf8')).not.toContain('AC04');

      // The creditor's bank sends one back; the bank books the return the same day.
      const returned = (await control(sandbox, '/returns', {
        endToEndId: RETURNED.endToEndId,
        code: 'AC04',
        message: 'Account closed',
      })) as { entryReference: string };
      moveBankTo('2026-01-09T03:00:00Z');
      const returnNight = await night('2026-01-09T03:00:00Z');
      const before = await statusFiles();

      // Each booking is the same <Ntry> in camt.053 and camt.054, element by element, under the
      // bank's own reference (issue #47, Must 5): the two payments on their execution day, the
      // return on the day it was booked back.
      for (const [day, kind, refs] of [
        ['2026-01-07', 'debit', 2],
        ['2026-01-08', 'credit', 1],
      ] as const) {
        const base = join(dir, 'acme', 'statements', `acme-${SEED.operatingIban}-${day}`);
        const inStatement = entries(await readFile(`${base}.camt.053.001.02.xml`, 'utf8'));
        const notified = entries(await readFile(`${base}.${kind}.camt.054.001.02.xml`, 'utf8'));
        expect(notified.size, `${day} ${kind}`).toBe(refs);
        for (const [ref, ntry] of notified) expect(ntry, `${day} ${kind} ${ref}`).toBe(inStatement.get(ref));
        if (kind === 'credit')
          expect([...notified.values()][0]).toContain(
            `<NtryRef>${returned.entryReference}</NtryRef><Amt Ccy="NOK">${RETURNED.amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd>`,
          );
      }

      // This night's own status files carry the return: not the next night's.
      const files = written(returnNight);
      expect(files.filter((f) => f.includes(`/${FILE}.`)).length).toBe(2);
      const csv = await readFile(
        join(
          dir,
          'acme',
          files.find((f) => f.endsWith('.status.csv'))!,
        ),
        'utf8',
      );
      const rows = parse<Record<string, string>>(csv, { columns: true, delimiter: ';' });
      expect(rows.map((r) => [r.end_to_end_id, r.status, r.reason, r.returned_on])).toEqual([
        [RETURNED.endToEndId, 'RJCT', 'AC04: Returned payment: Account closed', '2026-01-08'],
        [PAID.endToEndId, 'ACSC', '', ''],
      ]);
      const pain002 = (
        await readFile(
          join(
            dir,
            'acme',
            files.find((f) => f.endsWith('.pain.002.001.03.xml'))!,
          ),
          'utf8',
        )
      ).replace(/>\s+</g, '><');
      expect(pain002).toContain(
        `<OrgnlEndToEndId>${RETURNED.endToEndId}</OrgnlEndToEndId><TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>AC04</Cd>`,
      );

      // Exactly once: the same night run again, and the next one, write no status file of this ERP file.
      const again = await night('2026-01-09T03:30:00Z');
      expect(written(again)).toEqual([]);
      moveBankTo('2026-01-10T03:00:00Z');
      const next = await night('2026-01-10T03:00:00Z');
      expect(written(next).filter((f) => f.includes(`/${FILE}.`))).toEqual([]);
      expect(await statusFiles()).toEqual(before);
      // Every report of the file is a different snapshot, and one pair of them says the line came back.
      const reports = await Promise.all(before.map((n) => readFile(join(status, n), 'utf8')));
      expect(new Set(reports).size).toBe(reports.length);
      expect(reports.filter((r) => r.includes('AC04')).length).toBe(2);
    });
  } finally {
    await sandbox.close();
  }
}

const useMaria = await mariaDbForTests();

describe(
  'a return in the status files the night it is fetched, through settle run nightly',
  { timeout: 300_000 },
  () => {
    itWith('faketime')('on SQLite', async () => {
      await nights(undefined);
    });

    if (useMaria)
      itWith('faketime')('on MariaDB', async () => {
        const db = await createThrowawayDatabase();
        try {
          await nights(db.url);
        } finally {
          await db.drop();
        }
      });
  },
);
