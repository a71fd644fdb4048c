// pain.001 elements settle cannot carry are refused where they are, never dropped: a cheque
// block is not sent as a credit transfer, an equivalent amount is not "amount missing", and the
// transactions they concern are never handed on as valid payments (so acceptValidLines cannot
// pay them either). Elements settle deliberately ignores pass. Fixtures: test/fixtures/intake/unsupported.
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { runValidate } from '../../../src/cli/commands/validate.js';
import { withTempDir } from '../../support/tmp.js';
import { check, FIXTURES, PROFILES } from './helpers.js';

const errorsOf = (r: Awaited<ReturnType<typeof check>>) =>
  r.issues.filter((i) => i.severity === 'error').map((i) => [i.code, i.location.path]);

describe('pain.001 elements settle cannot carry', () => {
  it('refuses a PmtMtd CHK block once, naming the block, and hands on only the TRF block', async () => {
    const r = await check('unsupported/payment-method-cheque.xml');
    expect(r.valid).toBe(false);
    expect(errorsOf(r)).toEqual([['PAYMENT_METHOD_UNSUPPORTED', '/Document/CstmrCdtTrfInitn/PmtInf[2]/PmtMtd']]);
    expect(r.issues[0]?.message).toContain('PmtMtd "CHK" of payment block PmtInf[2] (PmtInfId "PMT-2")');
    expect(r.issues[0]?.message).toContain('credit transfers only');
    expect(r.paymentsSeen.map((p) => p.endToEndId)).toEqual(['E2E-T1']);
    expect(r.payments).toBe(3);
  });

  it('refuses an equivalent amount as unsupported, not as a missing amount', async () => {
    const r = await check('unsupported/equivalent-amount.xml');
    expect(errorsOf(r)).toEqual([
      ['ELEMENT_UNSUPPORTED', '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Amt/EqvtAmt'],
    ]);
    expect(r.issues[0]?.message).toMatch(/EqvtAmt.*not supported.*InstdAmt/);
    expect(r.paymentsSeen.map((p) => p.endToEndId)).toEqual(['E2E-Q2']);
  });

  it('refuses cheque instructions in a transfer', async () => {
    const r = await check('unsupported/cheque-instruction.xml');
    expect(errorsOf(r)).toEqual([
      ['ELEMENT_UNSUPPORTED', '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/ChqInstr'],
    ]);
    expect(r.paymentsSeen).toEqual([]);
  });

  it('refuses charges borne by one side (ChrgBr DEBT) once per block, and an intermediary bank on its transaction', async () => {
    const r = await check('unsupported/charges-and-intermediary.xml');
    expect(errorsOf(r)).toEqual([
      ['ELEMENT_UNSUPPORTED', '/Document/CstmrCdtTrfInitn/PmtInf[1]/ChrgBr'],
      ['ELEMENT_UNSUPPORTED', '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[2]/IntrmyAgt1'],
    ]);
    expect(r.issues[0]?.message).toContain('ChrgBr "DEBT" of payment block PmtInf[1]');
    expect(r.paymentsSeen).toEqual([]);
  });

  it('accepts the elements it deliberately ignores (ChrgBr SLEV, ultimate parties, purpose)', async () => {
    const r = await check('unsupported/ignored-elements.xml');
    expect(r.issues).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.paymentsSeen).toHaveLength(1);
  });

  it.each([
    ['Tax', '<Tax><Cdtr><TaxId>974761076</TaxId></Cdtr><TtlTaxAmt Ccy="EUR">25.00</TtlTaxAmt></Tax>'],
    ['RltdRmtInf', '<RltdRmtInf><RmtId>ADV-1</RmtId></RltdRmtInf>'],
  ])(
    'refuses %s (it changes what the creditor can apply the payment to) at its element; the other line passes',
    async (name, element) => {
      await withTempDir(async (dir) => {
        const xml = await readFile(`${FIXTURES}valid/pain001-v09.xml`, 'utf8');
        // Before the first transaction's RmtInf, where the schema puts it.
        await writeFile(join(dir, 'with.xml'), xml.replace('<RmtInf>', `${element}\n        <RmtInf>`));
        const r = await check(relative(FIXTURES, join(dir, 'with.xml')));
        expect(errorsOf(r)).toEqual([
          ['ELEMENT_UNSUPPORTED', `/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/${name}`],
        ]);
        expect(r.paymentsSeen.map((p) => p.endToEndId)).toEqual(['E2E-Y2']);
      });
    },
  );

  it('refuses an element it does not know at all, rather than ignore it', async () => {
    const { Pain001Reader } = await import('../../../src/formats/pain001/read-pain001.js');
    const doc = `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn><PmtInf><PmtMtd>TRF</PmtMtd><CdtTrfTxInf><PmtId><EndToEndId>E1</EndToEndId></PmtId><Amt><InstdAmt Ccy="NOK">1.00</InstdAmt></Amt><PayTwice>true</PayTwice></CdtTrfTxInf></PmtInf></CstmrCdtTrfInitn></Document>`;
    const lines = [];
    for await (const batch of new Pain001Reader().read([doc])) lines.push(...batch);
    const line = lines.find((i) => i.kind === 'line');
    expect(line?.kind === 'line' && line.line.issues?.map((i) => [i.code, i.location.path])).toEqual([
      ['ELEMENT_UNSUPPORTED', '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/PayTwice'],
    ]);
  });

  it('settle validate exits 1 on a cheque block and says why', async () => {
    const out: string[] = [];
    const o = await runValidate(
      `${FIXTURES}unsupported/payment-method-cheque.xml`,
      {},
      { profileDirs: [PROFILES], clock: new ManualClock('2026-01-05T08:00:00Z') },
      { out: (t) => void out.push(t), err: () => undefined },
    );
    expect(o.exitCode).toBe(1);
    expect(out.join('')).toContain('PAYMENT_METHOD_UNSUPPORTED');
  });
});
