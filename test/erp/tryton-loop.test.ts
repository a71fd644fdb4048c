// A real ERP closes the loop (issue #47, Must 7): Debian's Tryton 6.0, scripted with proteus on
// SQLite, writes one payment run per pain.001 flavour it has (.001.001.03, .001.001.05 and the
// German .001.003.03); each goes into settle's inbox and through the sandbox bank by the real
// `settle run nightly`; settle's camt.054.001.02 notifications go back into Tryton, which marks
// its payments. Tryton reads camt.054 in its own way: the two known departures from ISO 20022
// (docs/formats/erp-readers.md) are asserted here, so that a release that fixes one turns this
// test red. settle's files keep ISO's sense.
import { appendFile, copyFile, mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { makeTempDir } from '../support/tmp.js';
import { hasTool, xmllintValidate } from '../support/oracles.js';
import {
  describeWithTryton,
  settleAt,
  trytonRead,
  trytonWrite,
  type TrytonPayment,
  type TrytonRead,
  type TrytonWritten,
} from './tryton/tryton.js';

const CLEANING = {
  name: 'Nordic Cleaning AS',
  iban: 'NO5812000079195',
  street: 'Storgata 1',
  postalCode: '0155',
  city: 'Oslo',
};
const COFFEE = {
  name: 'Bergen Kaffe AS',
  iban: 'NO8812000158389',
  street: 'Bryggen 2',
  postalCode: '5003',
  city: 'Bergen',
};
const PRINT = { name: 'Trykk Nord AS', iban: 'NO6315061111112', street: 'Sjøgata 3', postalCode: '8006', city: 'Bodø' };
/** The execution day of the run; the sandbox's clock starts on the Monday before (2026-01-05). */
const DAY = '2026-01-07';
/**
 * Tryton's run: a payment's id is its end-to-end id and instruction id (1 to 6, in this order).
 * Bergen Kaffe's account is closed: the bank rejects payment 2 before booking. Payments 4 and 6
 * are booked, then come back from the creditors' banks (returns, booked as credits).
 */
const SPEC = {
  company: 'ACME AS',
  currency: 'NOK',
  iban: SEED.operatingIban,
  bank: { name: 'Test Bank', bic: 'TESTNOK1' },
  creditors: [CLEANING, COFFEE, PRINT],
  runs: [
    {
      flavor: 'pain.001.001.03',
      date: DAY,
      payments: [
        { iban: CLEANING.iban, amount: '1250.00', description: 'Invoice 2025-114' },
        { iban: COFFEE.iban, amount: '99.95', description: 'Invoice 2025-115' },
      ],
    },
    {
      flavor: 'pain.001.001.05',
      date: DAY,
      payments: [
        { iban: PRINT.iban, amount: '310.00', description: 'Invoice 2025-116' },
        { iban: CLEANING.iban, amount: '775.40', description: 'Invoice 2025-117' },
      ],
    },
    {
      flavor: 'pain.001.003.03',
      date: DAY,
      payments: [
        { iban: CLEANING.iban, amount: '42.50', description: 'Invoice 2025-118' },
        { iban: PRINT.iban, amount: '2000.00', description: 'Invoice 2025-119' },
      ],
    },
  ],
};
const REJECTED = { endToEndId: '2', code: 'AC04', message: 'Closed account number' };
const RETURNS = [
  { endToEndId: '4', code: 'AC04', message: 'Closed account number' },
  { endToEndId: '6', code: 'AC06', message: 'Blocked account' },
];
const BOOKED = ['1', '3', '4', '5', '6'];

interface NightJson {
  exitCode: number;
  steps: { step: string; ok: boolean; summary: string }[];
}
interface SandboxBulk {
  requestedExecutionDate: string;
  debtorIban: string;
  paymentLines: {
    endToEndIdentification: string;
    instructedAmount: { amount: string; currency: string };
    creditorIban: string;
    transactionStatus: string;
  }[];
}

/** One line per `<Ntry>`, whitespace between elements removed, to read with a regular expression. */
const entries = (xml: string) => xml.replace(/>\s+</g, '><').split('<Ntry>').slice(1);
const byId = (payments: TrytonPayment[]) => new Map(payments.map((p) => [String(p.id), p]));

describeWithTryton('Tryton 6.0 (Debian 12) as the ERP: pain.001 out, camt.054 back', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let sandbox: RunningSandbox;
  let written: TrytonWritten;
  let back: TrytonRead;
  let flipped: TrytonRead;
  let debit: string;
  let credit: string;
  let pain002: string;
  const nights: NightJson[] = [];

  async function control(path: string, body: unknown): Promise<void> {
    const r = await fetch(`${sandbox.urls.controlUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  }
  const moveBankTo = (instant: string) => sandbox.advance(Date.parse(instant) - sandbox.sandbox.clock.now().getTime());
  async function night(at: string, config: string): Promise<void> {
    const r = await settleAt(new Date(at), ['--config', config, 'run', 'nightly', '--json']);
    if (r.code === null || r.code > 1) throw new Error(`settle run nightly exited ${r.code}: ${r.stderr}`);
    nights.push(JSON.parse(r.stdout) as NightJson);
  }

  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir());
    const tryton = join(dir, 'tryton');
    const probe = join(dir, 'tryton-probe');
    await mkdir(tryton);
    await mkdir(probe);
    await writeFile(join(dir, 'spec.json'), JSON.stringify(SPEC));
    written = await trytonWrite(tryton, join(dir, 'spec.json'));
    // The same company as it stands now, for the probe of how Tryton reads the credit/debit sign.
    await copyFile(join(tryton, 'tryton.sqlite'), join(probe, 'tryton.sqlite'));

    sandbox = await startSandbox({ port: 0, logger: silentLogger() }); // 2026-01-05T08:00Z, moved only when told
    const config = await writeDemoConfig(dir, sandbox);
    await appendFile(config, 'log:\n  level: error\n'); // stdout is the run's JSON
    await control('/rejections', { iban: COFFEE.iban, code: REJECTED.code, message: REJECTED.message });
    const inbox = join(dir, 'acme', 'inbox');
    await mkdir(inbox, { recursive: true });
    for (const name of Object.values(written.files)) {
      await copyFile(join(tryton, 'out', name), join(inbox, name));
      // Dropped before settle's (faked) clock says it is: pickup takes files old enough to be whole.
      const dropped = new Date('2026-01-05T07:50:00Z');
      await utimes(join(inbox, name), dropped, dropped);
    }
    await night('2026-01-05T08:00:00Z', config);
    // The execution day: the payments are booked, and two of them come back from the creditors' banks.
    moveBankTo(`${DAY}T12:00:00Z`);
    for (const r of RETURNS) await control('/returns', r);
    moveBankTo('2026-01-08T03:00:00Z');
    await night('2026-01-08T03:00:00Z', config);

    const statements = join(dir, 'acme', 'statements');
    const notification = join(statements, `acme-${SEED.operatingIban}-${DAY}`);
    const status = join(dir, 'acme', 'status');
    const report = (await readdir(status)).find(
      (n) => n.startsWith('tryton-pain.001.001.03.xml.20260108') && n.endsWith('.pain.002.001.03.xml'),
    );
    debit = await readFile(`${notification}.debit.camt.054.001.02.xml`, 'utf8');
    credit = await readFile(`${notification}.credit.camt.054.001.02.xml`, 'utf8');
    pain002 = await readFile(join(status, report!), 'utf8');
    // What Tryton's reading of the sign expects (probe only; settle never writes this).
    const flippedFile = join(probe, 'debit-as-crdt.xml');
    await writeFile(flippedFile, debit.replace(/<CdtDbtInd>DBIT<\/CdtDbtInd>/g, '<CdtDbtInd>CRDT</CdtDbtInd>'));
    [back, flipped] = await Promise.all([
      trytonRead(tryton, [
        `${notification}.debit.camt.054.001.02.xml`,
        `${notification}.credit.camt.054.001.02.xml`,
        join(status, report!),
      ]),
      trytonRead(probe, [flippedFile]),
    ]);
  }, 900_000);
  afterAll(async () => {
    await sandbox?.close();
    await cleanup?.();
  });

  it('Tryton writes its run in each of its flavours, and the bank receives every payment once, as written', async () => {
    expect(Object.keys(written.files)).toEqual(['pain.001.001.03', 'pain.001.001.05', 'pain.001.003.03']);
    expect(written.payments.map((p) => [p.id, p.flavor, p.state])).toEqual([
      [1, 'pain.001.001.03', 'processing'],
      [2, 'pain.001.001.03', 'processing'],
      [3, 'pain.001.001.05', 'processing'],
      [4, 'pain.001.001.05', 'processing'],
      [5, 'pain.001.003.03', 'processing'],
      [6, 'pain.001.003.03', 'processing'],
    ]);
    const pickup = nights[0]!.steps.find((s) => s.step === 'pickup');
    expect(pickup?.summary).toMatch(/^3 file\(s\): 3 accepted, 0 partly accepted, 0 rejected/);

    const record = (await (await fetch(`${sandbox.urls.controlUrl}/payments`)).json()) as { payments: SandboxBulk[] };
    const lines = record.payments.flatMap((b) =>
      b.paymentLines.map((l) => [
        l.endToEndIdentification,
        `${l.instructedAmount.amount} ${l.instructedAmount.currency}`,
        l.creditorIban,
        b.debtorIban,
        b.requestedExecutionDate,
      ]),
    );
    expect(lines.sort()).toEqual(
      SPEC.runs
        .flatMap((r) => r.payments)
        .map((p, i) => [String(i + 1), `${p.amount} NOK`, p.iban, SEED.operatingIban, DAY])
        .sort(),
    );
    const statuses = record.payments.flatMap((b) =>
      b.paymentLines.map((l) => [l.endToEndIdentification, l.transactionStatus]),
    );
    expect(Object.fromEntries(statuses)).toEqual({ 1: 'ACSC', 2: 'RJCT', 3: 'ACSC', 4: 'ACSC', 5: 'ACSC', 6: 'ACSC' });
    expect(nights.map((n) => n.steps.filter((s) => !s.ok))).toEqual([[], []]);
  });

  it('what goes back to Tryton is valid camt.054.001.02 and pain.002.001.03', async () => {
    // xmllint is required in CI by the oracle suites; here it only adds to what Tryton showed.
    if (!hasTool('xmllint')) return;
    for (const [xml, schema] of [
      [debit, 'camt.054.001.02'],
      [credit, 'camt.054.001.02'],
      [pain002, 'pain.002.001.03'],
    ] as const)
      expect(await xmllintValidate(xml, schema), schema).toMatchObject({ valid: true });
  });

  it('the loop closes for what Tryton reads by the standard: each returned payment ends failed, with its reason', () => {
    expect(back.messages.find((m) => m.file.includes('.credit.'))?.state).toBe('done');
    const payments = byId(back.payments);
    for (const r of RETURNS) {
      const p = payments.get(r.endToEndId)!;
      expect([p.state, p.returnReasonCode, p.returnReasonInformation]).toEqual([
        'failed',
        r.code,
        `Returned payment: ${r.message}`,
      ]);
    }
    // settle's credit notification says it in ISO's words: a credit booked as a return.
    for (const r of RETURNS) {
      const entry = entries(credit).find((e) => e.includes(`<EndToEndId>${r.endToEndId}</EndToEndId>`));
      expect(entry).toContain('<CdtDbtInd>CRDT</CdtDbtInd>');
      expect(entry).toContain('<SubFmlyCd>RRTN</SubFmlyCd>');
      expect(entry).toContain(`<RtrInf><Rsn><Cd>${r.code}</Cd></Rsn>`);
    }
    expect(back.payments.filter((p) => p.state === 'failed')).toHaveLength(2);
  });

  it('departure (a): Tryton reads CdtDbtInd in the opposite sense, so no booked payment is marked succeeded', () => {
    // settle's debit notification names every booked payment, a debit of the company's account.
    for (const id of BOOKED) {
      const entry = entries(debit).find((e) => e.includes(`<EndToEndId>${id}</EndToEndId>`));
      expect(entry, `payment ${id}`).toContain('<CdtDbtInd>DBIT</CdtDbtInd>');
    }
    expect(back.messages.find((m) => m.file.includes('.debit.'))?.state).toBe('done');
    // Tryton looks the DBIT entries up among its receivables, finds none, and leaves them be.
    const payments = byId(back.payments);
    expect(['1', '3', '5'].map((id) => payments.get(id)!.state)).toEqual(['processing', 'processing', 'processing']);
    expect(back.payments.filter((p) => p.state === 'succeeded')).toEqual([]);
    // The sign is all that stands in the way: the same file with CRDT (Tryton's sense, never
    // written by settle) marks every booked payment succeeded.
    const probe = byId(flipped.payments);
    expect(BOOKED.map((id) => probe.get(id)!.state)).toEqual(BOOKED.map(() => 'succeeded'));
    expect(probe.get(REJECTED.endToEndId)!.state).toBe('processing');
  });

  it('departure (b): Tryton cannot read a pain.002, so the payment the bank rejected before booking never reaches it', () => {
    // settle's status report tells the rejection, with the bank's reason ...
    const flat = pain002.replace(/>\s+</g, '><');
    expect(flat).toMatch(
      new RegExp(
        `<OrgnlEndToEndId>${REJECTED.endToEndId}</OrgnlEndToEndId><TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>${REJECTED.code}</Cd>`,
      ),
    );
    // ... no camt.054 can (nothing was booked) ...
    expect(debit + credit).not.toContain(`<EndToEndId>${REJECTED.endToEndId}</EndToEndId>`);
    // ... and Tryton's message handling has no reader for it: it raises and leaves the message waiting.
    const message = back.messages.find((m) => m.file.endsWith('.pain.002.001.03.xml'));
    expect(message).toMatchObject({ state: 'waiting', error: 'RuntimeError: No active exception to reraise' });
    expect(byId(back.payments).get(REJECTED.endToEndId)!.state).toBe('processing');
  });
});
