// The payment files of the intake bench, laid out like the ERP samples (samples/erp): a pain.001
// indented and with control sums as acme-suppliers.xml (one payment in three with a structured
// creditor reference, as there), about 528 bytes a payment; a CSV with acme-payments.csv's twelve
// columns. Names are plain ASCII, so every line is valid and the bench measures the valid path
// (the samples' Norwegian letters would add a transliteration warning to every line).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { DuplicateKeyFields } from '../src/domain/likely-duplicate.js';

export type FileKind = 'csv' | 'xml';

/** The sample's creditor accounts (valid Norwegian test IBANs). */
const CREDITORS = [
  'NO0612000000009',
  'NO5812000079195',
  'NO8812000158389',
  'NO2712000237572',
  'NO5712000316766',
  'NO1512000475147',
];
const DEBTOR = 'NO9386011117947';
/**
 * The KID of payment i: 13 digits like acme-suppliers.xml's (2345678901242), a MOD10 check digit,
 * one of its own per payment. One KID for every payment would make lines 300,000 apart the same
 * creditor, amount and reference: likely duplicates, held, which is not the valid path measured.
 */
export function kidOf(i: number): string {
  const body = String(234_567_000_000 + i);
  let sum = 0;
  for (let k = 0; k < body.length; k++) {
    const d = body.charCodeAt(body.length - 1 - k) - 48;
    const p = k % 2 === 0 ? d * 2 : d;
    sum += p > 9 ? p - 9 : p;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/** The end-to-end id of payment i: like the samples' ACME-SUP-0001 and ACME-2026-0001, seven digits. */
export function endToEndId(kind: FileKind, i: number): string {
  return `${kind === 'xml' ? 'ACME-SUP' : 'ACME-2026'}-${String(i).padStart(7, '0')}`;
}

/**
 * What payment i's likely-duplicate key is made of (src/domain/likely-duplicate.ts), the same in
 * both kinds of file: its creditor account, amount and KID or invoice text.
 */
export function duplicateKeyFieldsOf(i: number): DuplicateKeyFields {
  return {
    creditorIban: CREDITORS[i % CREDITORS.length]!,
    amount: { minor: BigInt(minorOf(i)), currency: 'NOK' },
    ...(i % 3 === 2 ? { creditorReference: kidOf(i) } : { remittanceInformation: `Faktura ${i}` }),
  };
}

/** Amount of payment i in øre: 1.00 to 100,000.99 NOK. */
const minorOf = (i: number): number => ((i % 100_000) + 1) * 100 + (i % 100);
const decimal = (minor: number): string => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;

export async function write(file: string, parts: () => Generator<string>): Promise<void> {
  const out = createWriteStream(file);
  let buffer = '';
  for (const part of parts()) {
    buffer += part;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
}

/**
 * A CSV of `n` payments; `quoted`: every value that is not empty in double quotes, as some ERPs
 * write them (then the quoted splitter reads the file from its first line,
 * src/formats/csv-profile/quoted-lines.ts).
 */
export function* csvLines(n: number, quoted = false): Generator<string> {
  yield 'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name,creditor_bic,remittance_information,creditor_reference,instruction_priority\n';
  const q = (value: string): string => (quoted && value !== '' ? `"${value}"` : value);
  for (let i = 1; i <= n; i++) {
    const [text, reference] = i % 3 === 2 ? ['', kidOf(i)] : [`Faktura ${i}`, ''];
    const values = [DEBTOR, 'ACME AS', '2026-01-07', endToEndId('csv', i), decimal(minorOf(i)), 'NOK'];
    values.push(CREDITORS[i % CREDITORS.length]!, `Creditor ${i % 1000} AS`, '', text, reference, 'normal');
    yield `${values.map(q).join(',')}\n`;
  }
}

const PER_BLOCK = 1000;

export function* xmlDoc(n: number): Generator<string> {
  let total = 0n;
  for (let i = 1; i <= n; i++) total += BigInt(minorOf(i));
  yield `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <CstmrCdtTrfInitn>
    <GrpHdr>
      <MsgId>ACME-SUPPLIERS-BENCH</MsgId>
      <CreDtTm>2026-01-05T07:30:00</CreDtTm>
      <NbOfTxs>${n}</NbOfTxs>
      <CtrlSum>${decimalBig(total)}</CtrlSum>
      <InitgPty>
        <Nm>ACME AS</Nm>
      </InitgPty>
    </GrpHdr>
`;
  for (let b = 0; b * PER_BLOCK < n; b++) {
    const first = b * PER_BLOCK + 1;
    const last = Math.min(n, first + PER_BLOCK - 1);
    let sum = 0n;
    for (let i = first; i <= last; i++) sum += BigInt(minorOf(i));
    yield pmtInfHead(b + 1, last - first + 1, decimalBig(sum));
    for (let i = first; i <= last; i++) yield payment(i);
    yield '    </PmtInf>\n';
  }
  yield '  </CstmrCdtTrfInitn>\n</Document>\n';
}

function decimalBig(minor: bigint): string {
  return `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
}

function pmtInfHead(block: number, count: number, sum: string): string {
  return `    <PmtInf>
      <PmtInfId>ACME-SUP-${block}</PmtInfId>
      <PmtMtd>TRF</PmtMtd>
      <BtchBookg>false</BtchBookg>
      <NbOfTxs>${count}</NbOfTxs>
      <CtrlSum>${sum}</CtrlSum>
      <ReqdExctnDt>
        <Dt>2026-01-07</Dt>
      </ReqdExctnDt>
      <Dbtr>
        <Nm>ACME AS</Nm>
      </Dbtr>
      <DbtrAcct>
        <Id>
          <IBAN>${DEBTOR}</IBAN>
        </Id>
      </DbtrAcct>
      <DbtrAgt>
        <FinInstnId>
          <BICFI>TESTNOK1</BICFI>
        </FinInstnId>
      </DbtrAgt>
`;
}

function payment(i: number): string {
  const remittance =
    i % 3 === 2
      ? `          <Strd>
            <CdtrRefInf>
              <Tp>
                <CdOrPrtry>
                  <Cd>SCOR</Cd>
                </CdOrPrtry>
              </Tp>
              <Ref>${kidOf(i)}</Ref>
            </CdtrRefInf>
          </Strd>
`
      : `          <Ustrd>Faktura ${i}</Ustrd>
`;
  return `      <CdtTrfTxInf>
        <PmtId>
          <EndToEndId>${endToEndId('xml', i)}</EndToEndId>
        </PmtId>
        <Amt>
          <InstdAmt Ccy="NOK">${decimal(minorOf(i))}</InstdAmt>
        </Amt>
        <Cdtr>
          <Nm>Creditor ${i % 1000} AS</Nm>
        </Cdtr>
        <CdtrAcct>
          <Id>
            <IBAN>${CREDITORS[i % CREDITORS.length]}</IBAN>
          </Id>
        </CdtrAcct>
        <RmtInf>
${remittance}        </RmtInf>
      </CdtTrfTxInf>
`;
}
