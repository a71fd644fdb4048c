// The five inputs issue #47 found accepted with exit 0 (Must 1), through pickup → submit against
// the sandbox bank over HTTP: each is refused where it is written — in the file's error report,
// by code, row and column or element — and the sandbox's record of what was sent shows that the
// refused line never reached the bank while the file's other lines reached it intact. The
// inputs: a pain001py CSV with payment_method CHK or TRA, charge_bearer CRED or DEBT, currency
// EUR against payment_currency USD, wrong nb_of_txs or ctrl_sum; and the npm `sepa` library's
// pain.001 with a structured creditor reference settle cannot read (<CdorPrtry>).
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Document } from 'sepa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPickup } from '../../../jobs/pickup/pickup.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import { SEED } from '../../../src/sandbox/index.js';
import { FIXTURES } from '../../formats/intake/helpers.js';
import { createWorld, worldPickupDeps, type World } from './world.js';

interface ReportIssue {
  code: string;
  severity: string;
  location: { row?: number; column?: number; path?: string };
}
interface SentLine {
  endToEndIdentification: string;
  instructedAmount: { currency: string; amount: string };
  creditorAccount: { iban: string };
  creditorName: string;
}

describe('the inputs once accepted silently: refused where written, and the bank’s record shows it', () => {
  let w: World;
  let rows: string[][];

  beforeEach(async () => {
    // Valid lines of a file with a refused line go to the bank: the refused one is seen missing.
    w = await createWorld({
      company: {
        banks: [{ bankId: 'testbank' }],
        intake: { stableFor: '1s', profile: 'pain001py', charset: 'any', acceptValidLines: true },
      },
    });
    await mkdir(join(w.company.root, 'inbox'), { recursive: true });
    rows = (await readFile(`${FIXTURES}pain001py/valid.csv`, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => l.split(','));
  });
  afterEach(async () => w.close());

  /** Drops `name` into the inbox, picks it up and submits: what pickup did, its report, what the bank got. */
  async function through(name: string) {
    const [picked] = await runPickup(worldPickupDeps(w), [w.company]);
    await runSubmit(w.deps('s1'), [w.company]);
    const body = (await w.control('/payments')) as { payments: { paymentLines: SentLine[] }[] };
    const sent = body.payments.flatMap((b) => b.paymentLines);
    const report = JSON.parse(await readFile(join(w.company.root, 'error', `${name}.errors.json`), 'utf8')) as {
      issues: ReportIssue[];
    };
    return { outcome: picked?.outcome, report, sent };
  }

  /** The pain001py fixture with `column` of data row `row` (1-based) set to `value`, in the inbox. */
  async function dropVariant(name: string, changes: [column: string, row: number, value: string][]): Promise<void> {
    const copy = rows.map((r) => [...r]);
    for (const [column, row, value] of changes) copy[row]![copy[0]!.indexOf(column)] = value;
    await writeFile(join(w.company.root, 'inbox', name), copy.map((r) => r.join(',')).join('\n') + '\n');
  }

  const located = (issues: ReportIssue[]) =>
    issues
      .filter((i) => i.severity === 'error')
      .map((i) => [i.code, i.location.row ?? i.location.path, i.location.column]);

  it.each([
    ['payment_method CHK', [['payment_method', 2, 'CHK']], 'PAYMENT_METHOD_UNSUPPORTED', 3, 11],
    ['payment_method TRA', [['payment_method', 2, 'TRA']], 'PAYMENT_METHOD_UNSUPPORTED', 3, 11],
    ['charge_bearer CRED', [['charge_bearer', 2, 'CRED']], 'ELEMENT_UNSUPPORTED', 3, 22],
    ['charge_bearer DEBT', [['charge_bearer', 2, 'DEBT']], 'ELEMENT_UNSUPPORTED', 3, 22],
    [
      'currency EUR against payment_currency USD',
      [
        ['currency', 2, 'EUR'],
        ['payment_currency', 2, 'USD'],
      ],
      'COLUMNS_DISAGREE',
      3,
      25,
    ],
  ] as [string, [string, number, string][], string, number, number][])(
    '%s: that line is refused at its row and column; the other reaches the bank as written',
    async (_, changes, code, row, column) => {
      await dropVariant('run.csv', changes);
      const r = await through('run.csv');
      expect(r.outcome).toBe('partially-accepted');
      expect(located(r.report.issues)).toEqual([[code, row, column]]);
      expect(r.sent.map((l) => [l.endToEndIdentification, l.instructedAmount, l.creditorAccount.iban])).toEqual([
        ['PY-E2E-1', { currency: 'NOK', amount: '1250.50' }, rows[1]![rows[0]!.indexOf('creditor_account_IBAN')]],
      ]);
    },
  );

  it.each([
    ['nb_of_txs', '3', 'NBOFTXS_MISMATCH'],
    ['ctrl_sum', '1350.00', 'CTRLSUM_MISMATCH'],
  ])('a wrong %s refuses the whole file at its row and column; the bank gets nothing', async (col, value, code) => {
    await dropVariant('totals.csv', [[col, 1, value]]);
    const r = await through('totals.csv');
    expect(r.outcome).toBe('rejected');
    expect(located(r.report.issues)).toEqual([[code, 2, rows[0]!.indexOf(col) + 1]]);
    expect(r.sent).toEqual([]);
  });

  it.each([
    ['nboftxs-pmtinf.xml', 'NBOFTXS_MISMATCH', '/Document/CstmrCdtTrfInitn/PmtInf[1]/NbOfTxs'],
    ['ctrlsum-group.xml', 'CTRLSUM_MISMATCH', '/Document/CstmrCdtTrfInitn/GrpHdr/CtrlSum'],
  ])('a pain.001 whose control totals disagree (%s) is refused whole at the element', async (name, code, path) => {
    await copyFile(`${FIXTURES}rules/${name}`, join(w.company.root, 'inbox', name));
    const r = await through(name);
    expect(r.outcome).toBe('rejected');
    expect(located(r.report.issues)).toEqual([[code, path, undefined]]);
    expect(r.sent).toEqual([]);
  });

  it('the npm sepa library’s structured reference is refused at its element; the payment is not sent without it', async () => {
    const doc = new Document('pain.001.001.09');
    doc.grpHdr.id = 'MSG-SEPA-1';
    doc.grpHdr.created = new Date('2026-01-05T08:00:00');
    doc.grpHdr.initiatorName = 'ACME AS';
    const info = doc.createPaymentInfo();
    info.requestedExecutionDate = new Date('2026-01-07T00:00:00');
    info.debtorIBAN = SEED.operatingIban;
    info.debtorName = 'ACME AS';
    info.debtorBIC = '';
    doc.addPaymentInfo(info);
    const tx = info.createTransaction();
    tx.creditorName = 'Leverandor Nord AS';
    tx.creditorIBAN = 'NO0612000000009';
    tx.creditorBIC = '';
    tx.amount = 1250.5;
    tx.currency = 'NOK';
    tx.end2endId = 'E2E-SEPA-1';
    tx.structuredRemittanceInfo = { typeCode: 'SCOR', issuer: '', reference: '2345676' };
    info.addTransaction(tx);
    await writeFile(join(w.company.root, 'inbox', 'sepa.xml'), doc.toString());
    const r = await through('sepa.xml');
    expect(r.outcome).toBe('rejected');
    expect(located(r.report.issues)).toEqual([
      [
        'ELEMENT_UNSUPPORTED',
        '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/RmtInf/Strd[1]/CdtrRefInf/Tp/CdorPrtry',
        undefined,
      ],
    ]);
    expect(r.sent).toEqual([]);
  });

  it('the file these variants come from is sent whole: both lines in the bank’s record', async () => {
    await copyFile(`${FIXTURES}pain001py/valid.csv`, join(w.company.root, 'inbox', 'valid.csv'));
    const [picked] = await runPickup(worldPickupDeps(w), [w.company]);
    expect(picked?.outcome).toBe('accepted');
    await runSubmit(w.deps('s1'), [w.company]);
    const body = (await w.control('/payments')) as { payments: { paymentLines: SentLine[] }[] };
    expect(body.payments.flatMap((b) => b.paymentLines.map((l) => l.endToEndIdentification))).toEqual([
      'PY-E2E-1',
      'PY-E2E-2',
    ]);
  });
});
