// One payment run written in every pain.001 version and variant settle reads (issue #47, Must 2):
// ISO .001.001.03 to .12, the German DK .001.003.03 and the Swiss ch.02 and ch.03. Each document
// is first held to its own schema (test/fixtures/xsd/pain001), so it is one an ERP could write;
// then one reader reads each with the same count, the same sum and the same payments, field by
// field. What differs between the versions is only how they write the execution date and a BIC,
// as the version table (src/formats/pain001/versions.ts) says.
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import type { PaymentInstruction } from '../../../src/domain/payment.js';
import { validateFile } from '../../../src/formats/intake/validate-file.js';
import { PAIN001_VERSIONS, type Pain001Version } from '../../../src/formats/pain001/versions.js';
import { itWith, XSD_DIR, xmllintValidate } from '../../support/oracles.js';
import { withTempDir } from '../../support/tmp.js';
import { validation } from '../intake/helpers.js';

const FIXTURE_XSD = fileURLToPath(new URL('../../fixtures/xsd/pain001/', import.meta.url));

const RUN = [
  { e2e: 'RUN-E2E-1', amount: '1250.50', iban: 'NO0612000000009', name: 'Leverandor Nord AS', bic: 'DNBANOKKXXX' },
  { e2e: 'RUN-E2E-2', amount: '99.95', iban: 'NO6315061111112', name: 'Kontor Sor AS', bic: undefined },
];

/** The run as `v` writes it: its namespace, its execution date and its BIC element. */
function document(v: Pain001Version): string {
  const date = v.executionDate === 'date' ? '2026-01-07' : '<Dt>2026-01-07</Dt>';
  const agent = (bic: string) => `<FinInstnId><${v.bic}>${bic}</${v.bic}></FinInstnId>`;
  const tx = RUN.map(
    (p) => `
      <CdtTrfTxInf>
        <PmtId><InstrId>I-${p.e2e}</InstrId><EndToEndId>${p.e2e}</EndToEndId></PmtId>
        <Amt><InstdAmt Ccy="EUR">${p.amount}</InstdAmt></Amt>${p.bic ? `\n        <CdtrAgt>${agent(p.bic)}</CdtrAgt>` : ''}
        <Cdtr><Nm>${p.name}</Nm></Cdtr>
        <CdtrAcct><Id><IBAN>${p.iban}</IBAN></Id></CdtrAcct>
        <RmtInf><Ustrd>Invoice ${p.e2e}</Ustrd></RmtInf>
      </CdtTrfTxInf>`,
  ).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="${v.namespace}">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>RUN-1</MsgId>
      <CreDtTm>2026-01-05T08:00:00</CreDtTm>
      <NbOfTxs>2</NbOfTxs>
      <CtrlSum>1350.45</CtrlSum>
      <InitgPty><Nm>Acme AS</Nm></InitgPty>
    </GrpHdr>
    <PmtInf>
      <PmtInfId>RUN-1-PMT</PmtInfId>
      <PmtMtd>TRF</PmtMtd>
      <BtchBookg>true</BtchBookg>
      <NbOfTxs>2</NbOfTxs>
      <CtrlSum>1350.45</CtrlSum>
      <PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf>
      <ReqdExctnDt>${date}</ReqdExctnDt>
      <Dbtr><Nm>Acme AS</Nm></Dbtr>
      <DbtrAcct><Id><IBAN>NO9386011117947</IBAN></Id></DbtrAcct>
      <DbtrAgt>${agent('DNBANOKKXXX')}</DbtrAgt>
      <ChrgBr>SLEV</ChrgBr>${tx}
    </PmtInf>
  </CstmrCdtTrfInitn>
</Document>
`;
}

const label = (v: Pain001Version) => (v.variant ? `${v.version} (${v.xsd})` : v.version);

describe('one payment run in every pain.001 version and variant settle reads', () => {
  for (const v of PAIN001_VERSIONS)
    itWith('xmllint')(`${label(v)}: valid against its schema, read with the same count, sum and payments`, () =>
      withTempDir(async (dir) => {
        const xml = document(v);
        const schema = relative(XSD_DIR, join(FIXTURE_XSD, v.xsd.replace(/\.xsd$/, '')));
        const check = await xmllintValidate(xml, schema);
        expect(check.valid, check.output).toBe(true);

        const file = join(dir, 'run.xml');
        await writeFile(file, xml);
        const seen: PaymentInstruction[] = [];
        const r = await validateFile(file, { validation: validation(), onPayment: (p) => void seen.push(p) });
        expect(r.issues.filter((i) => i.severity === 'error')).toEqual([]);
        expect(r.format).toBe(v.version);
        expect([r.validPayments, r.totals]).toEqual([2, [{ currency: 'EUR', minor: 135045n }]]);
        expect(
          seen.map((p) => [
            p.endToEndId,
            p.instructionId,
            p.amount,
            p.creditorIban,
            p.creditorName,
            p.creditorBic,
            p.debtorIban,
            p.requestedExecutionDate,
            p.remittanceInformation,
          ]),
        ).toEqual(
          RUN.map((p) => [
            p.e2e,
            `I-${p.e2e}`,
            { minor: BigInt(p.amount.replace('.', '')), currency: 'EUR' },
            p.iban,
            p.name,
            p.bic,
            'NO9386011117947',
            '2026-01-07',
            `Invoice ${p.e2e}`,
          ]),
        );
      }),
    );
});
