// What real pain.001 writers produce, read by settle: Tryton's three flavours of one payment run
// are the same payments (count, sum, ids) whatever the version, and the npm `sepa` writer's
// misspelt structured reference is refused where it is, never dropped (fixtures and how they were
// made: test/fixtures/intake/writers/README.md).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document } from 'sepa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check } from '../intake/helpers.js';
import { validateFile } from '../../../src/formats/intake/validate-file.js';
import { validation } from '../intake/helpers.js';
import type { PaymentInstruction } from '../../../src/domain/payment.js';

describe('Tryton (Debian 12, account_payment_sepa 6.0)', () => {
  it.each([
    ['pain.001.001.03', 'writers/tryton-pain.001.001.03.xml'],
    ['pain.001.001.05', 'writers/tryton-pain.001.001.05.xml'],
    ['pain.001.003.03', 'writers/tryton-pain.001.003.03.xml'],
  ])('accepts its %s with the run’s three payments and their sum', async (version, file) => {
    const r = await check(file);
    expect(r.format).toBe(version);
    expect(r.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.validPayments).toBe(3);
    expect(r.totals).toEqual([{ currency: 'EUR', minor: 135000n }]);
    expect(r.paymentsSeen.map((p) => [p.endToEndId, p.creditorIban, p.amount.minor, p.requestedExecutionDate])).toEqual(
      [
        ['1', 'NO9386011117947', 125000n, '2026-01-07'],
        ['2', 'NO3860012345707', 9995n, '2026-01-07'],
        ['3', 'NO9386011117947', 5n, '2026-01-07'],
      ],
    );
  });
});

describe('the npm sepa writer (3.0.0)', () => {
  let dir: string;
  beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'settle-sepa-'))));
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  async function written(version: string, reference: boolean): Promise<string> {
    const doc = new Document(version);
    doc.grpHdr.id = 'MSG-1';
    doc.grpHdr.created = new Date('2026-01-05T08:00:00');
    doc.grpHdr.initiatorName = 'Nordlys Handel AS';
    const info = doc.createPaymentInfo();
    info.requestedExecutionDate = new Date('2026-01-07T00:00:00');
    info.debtorIBAN = 'NO7260012345677';
    info.debtorName = 'Nordlys Handel AS';
    info.debtorBIC = '';
    doc.addPaymentInfo(info);
    const tx = info.createTransaction();
    tx.creditorName = 'Leverandor Nord AS';
    tx.creditorIBAN = 'NO9386011117947';
    tx.creditorBIC = '';
    tx.amount = 1250.5;
    tx.currency = 'NOK';
    tx.end2endId = 'E2E-SEPA-1';
    if (reference) tx.structuredRemittanceInfo = { typeCode: 'SCOR', issuer: '', reference: '2345678' };
    else tx.remittanceInfo = 'Invoice 2025-114';
    info.addTransaction(tx);
    const file = join(dir, `${version}-${reference}.xml`);
    await writeFile(file, doc.toString());
    return file;
  }

  async function read(file: string) {
    const seen: PaymentInstruction[] = [];
    const r = await validateFile(file, { validation: validation(), onPayment: (p) => void seen.push(p) });
    return { ...r, seen };
  }

  it.each(['pain.001.001.03', 'pain.001.001.09'])(
    'refuses its structured reference in %s where it is written, and sends nothing without it',
    async (version) => {
      const r = await read(await written(version, true));
      expect(r.valid).toBe(false);
      expect(r.seen).toEqual([]);
      const errors = r.issues.filter((i) => i.severity === 'error');
      expect(errors.map((i) => [i.code, i.location.path])).toEqual([
        [
          'ELEMENT_UNSUPPORTED',
          '/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/RmtInf/Strd[1]/CdtrRefInf/Tp/CdorPrtry',
        ],
      ]);
      expect(errors[0]?.message).toContain("the standard's element is <CdOrPrtry>");
    },
  );

  it('accepts its unstructured remittance, carried as written', async () => {
    const r = await read(await written('pain.001.001.09', false));
    expect(r.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(r.seen.map((p) => [p.endToEndId, p.amount.minor, p.remittanceInformation])).toEqual([
      ['E2E-SEPA-1', 125050n, 'Invoice 2025-114'],
    ]);
  });
});
