import { describe, expect, it } from 'vitest';
import { writeCamt053 } from '../../../src/formats/camt053/index.js';
import { writeCamt054, type Camt054Version } from '../../../src/formats/camt054/index.js';
import { sampleStatement } from '../../fixtures/writers/statements.js';
import { sampleCreditNotification, sampleDebitNotification } from '../../fixtures/writers/notifications.js';
import { itWith, xmllintValidate, xmllintXpath } from '../../support/oracles.js';

const VERSIONS: readonly Camt054Version[] = ['001.02', '001.08'];
const withXmllint = itWith('xmllint');
const el = (...names: string[]) => names.map((n) => `/*[local-name()='${n}']`).join('');
const NTRY = `/${el('Document', 'BkToCstmrDbtCdtNtfctn', 'Ntfctn', 'Ntry')}`;

describe('camt.054 writer', () => {
  for (const version of VERSIONS) {
    for (const [kind, sample] of [
      ['debit', sampleDebitNotification],
      ['credit', sampleCreditNotification],
    ] as const) {
      withXmllint(`writes a ${kind} notification camt.054.${version} that the official XSD accepts`, async () => {
        const { text, issues } = writeCamt054(sample(), { version });
        const result = await xmllintValidate(text, `camt.054.${version}`);
        expect(result.output).toContain('validates');
        expect(result.valid).toBe(true);
        expect(issues).toEqual([]);
      });
    }

    withXmllint(`camt.054.${version}: a batch booking is one entry with Btch and one TxDtls per line`, async () => {
      const { text } = writeCamt054(sampleDebitNotification(), { version });
      expect(await xmllintXpath(text, `count(${NTRY})`)).toBe('2');
      const batch = `${NTRY}[1]${el('NtryDtls')}`;
      expect(await xmllintXpath(text, `count(${batch}${el('TxDtls')})`)).toBe('3');
      expect(await xmllintXpath(text, `string(${batch}${el('Btch', 'NbOfTxs')})`)).toBe('3');
      expect(await xmllintXpath(text, `string(${batch}${el('Btch', 'TtlAmt')})`)).toBe('6000.00');
      expect(await xmllintXpath(text, `string(${batch}${el('Btch', 'MsgId')})`)).toBe('ERP-2026-01-05-001');
      expect(await xmllintXpath(text, `string(${batch}${el('Btch', 'PmtInfId')})`)).toBe('PMTINF-1');
      const refs = `${batch}${el('TxDtls')}[3]${el('Refs')}`;
      expect(await xmllintXpath(text, `string(${refs}${el('EndToEndId')})`)).toBe('E2E-3');
      expect(await xmllintXpath(text, `string(${refs}${el('MsgId')})`)).toBe('ERP-2026-01-05-001');
      expect(await xmllintXpath(text, `string(${refs}${el('PmtInfId')})`)).toBe('PMTINF-1');
      expect(await xmllintXpath(text, `string(${refs}${el('Prtry', 'Ref')})`)).toBe('bulk-7f3a');
      // Each line's own amount, where the version keeps it.
      const lineAmount = version === '001.02' ? el('AmtDtls', 'TxAmt', 'Amt') : el('Amt');
      expect(await xmllintXpath(text, `sum(${batch}${el('TxDtls')}${lineAmount})`)).toBe('6000');
      expect(await xmllintXpath(text, `string(${NTRY}[2]${el('NtryDtls')}${el('Btch')})`)).toBe('');
    });

    withXmllint(`camt.054.${version}: a credit carries a checked reference as Strd and the rest as Ustrd`, async () => {
      const { text } = writeCamt054(sampleCreditNotification(), { version });
      const tx = (i: number) => `${NTRY}[${i}]${el('NtryDtls', 'TxDtls', 'RmtInf')}`;
      expect(await xmllintXpath(text, `string(${tx(1)}${el('Strd', 'CdtrRefInf', 'Ref')})`)).toBe('12345678903');
      expect(await xmllintXpath(text, `string(${tx(2)}${el('Strd', 'CdtrRefInf', 'Ref')})`)).toBe('RF18539007547034');
      expect(await xmllintXpath(text, `string(${tx(2)}${el('Strd', 'CdtrRefInf', 'Tp', 'Issr')})`)).toBe('ISO');
      expect(await xmllintXpath(text, `count(${tx(3)}${el('Strd')})`)).toBe('0');
      expect(await xmllintXpath(text, `string(${tx(3)}${el('Ustrd')})`)).toBe('12345678900 Faktura 17');
      const summary = `/${el('Document', 'BkToCstmrDbtCdtNtfctn', 'Ntfctn', 'TxsSummry', 'TtlNtries')}`;
      expect(await xmllintXpath(text, `string(${summary}${el('NbOfNtries')})`)).toBe('4');
      const net = version === '001.02' ? summary : `${summary}${el('TtlNetNtry')}`;
      const netAmount = version === '001.02' ? el('TtlNetNtryAmt') : el('Amt');
      expect(await xmllintXpath(text, `string(${net}${netAmount})`)).toBe('2556.50');
      expect(await xmllintXpath(text, `string(${net}${el('CdtDbtInd')})`)).toBe('CRDT');
    });
  }

  withXmllint('never cuts an id: a longer one is its stand-in, spelled out in AddtlNtryInf / AddtlTxInf', async () => {
    const bankTxId = '3f2c1e4d-5b6a-4789-9abc-def012345678';
    const bankPaymentId = '9e8d7c6b-5a49-4382-b1c0-ffeeddccbbaa';
    const notification = sampleDebitNotification();
    const [entry] = notification.entries;
    const line = { ...entry!.transactions![0]!, refs: { endToEndId: 'E2E-1', transactionId: bankTxId, bankPaymentId } };
    const long = { ...entry!, entryReference: bankTxId, additionalInfo: 'Bulk payment', transactions: [line] };
    const statement = { ...sampleStatement(), entries: [long], summary: undefined };
    statement.closingBalance = {
      ...statement.closingBalance,
      amount: { minor: statement.openingBalance.amount.minor + long.amount.minor, currency: 'NOK' },
    };
    for (const version of VERSIONS) {
      const camt054 = writeCamt054({ ...notification, entries: [long] }, { version });
      const camt053 = writeCamt053({ ...statement, account: notification.account }, { version });
      let text053 = '';
      for await (const chunk of camt053.chunks) text053 += chunk;
      for (const [name, text, pairs] of [
        [`camt.054.${version}`, camt054.text, camt054.shortIdentifiers],
        [`camt.053.${version}`, text053, camt053.shortIdentifiers],
      ] as const) {
        expect(text).not.toContain(`>${bankTxId.slice(0, 35)}<`);
        const ntryRef = /<NtryRef>([^<]+)</.exec(text)![1]!;
        const txId = /<TxId>([^<]+)</.exec(text)![1]!;
        const prtry = /<Ref>([^<]+)<\/Ref>/.exec(text)![1]!;
        expect(ntryRef).toMatch(/^STL-[0-9A-F]{20}$/);
        expect(txId).toBe(ntryRef);
        expect(/<AddtlNtryInf>([^<]+)</.exec(text)![1]).toBe(`Bulk payment NtryRef ${ntryRef} = ${bankTxId}`);
        expect(/<AddtlTxInf>([^<]+)</.exec(text)![1]).toBe(
          `TxId ${txId} = ${bankTxId}; Prtry/Ref ${prtry} = ${bankPaymentId}`,
        );
        expect(pairs).toEqual([
          { short: ntryRef, full: bankTxId },
          { short: prtry, full: bankPaymentId },
        ]);
        const check = await xmllintValidate(text, name);
        expect(check.valid, check.output).toBe(true);
      }
    }
  });

  it('reports text it had to change, located by path, and still writes the document', () => {
    const notification = sampleDebitNotification();
    const first = notification.entries[0]!.transactions![0]!;
    first.counterparty = { name: 'x'.repeat(200) };
    const { text, issues } = writeCamt054(notification);
    expect(issues).toEqual([
      expect.objectContaining({
        code: 'TEXT_TRUNCATED',
        location: { path: '/Document/BkToCstmrDbtCdtNtfctn/Ntfctn/Ntry[1]/NtryDtls/TxDtls[1]/RltdPties/Cdtr/Nm' },
      }),
    ]);
    expect(text).toContain(`<Nm>${'x'.repeat(140)}</Nm>`);
  });

  it('escapes XML special characters in texts', () => {
    const { text } = writeCamt054(sampleDebitNotification(), { version: '001.08' });
    expect(text).toContain('Strøm &lt;Nord&gt; AS');
    expect(text).toContain('Renhold &amp; Co');
    expect(
      text.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08">',
      ),
    ).toBe(true);
  });
});
