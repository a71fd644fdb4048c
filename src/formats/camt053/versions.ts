// What differs between the camt.053 versions settle writes (read from the XSDs in
// shared/iso20022/xsd): the BIC element's name and pattern, the entry status form, the party
// wrapper, and whether transaction details repeat the amount.
export type Camt053Version = '001.02' | '001.08';

export interface Camt053Dialect {
  version: Camt053Version;
  namespace: string;
  /** FinInstnId/BIC (.02, BICIdentifier) or FinInstnId/BICFI (.08, BICFIDec2014Identifier). */
  bicElement: 'BIC' | 'BICFI';
  bicPattern: RegExp;
  /** .02: <Sts>BOOK</Sts>; .08: <Sts><Cd>BOOK</Cd></Sts>. */
  statusAsCode: boolean;
  /** .08 wraps a related party in Pty (Party40Choice); .02 does not. */
  partyInPty: boolean;
  /** .08 EntryTransaction10 carries Amt and CdtDbtInd; .02 EntryTransaction2 has no such field. */
  transactionAmount: boolean;
  /** .08 TxsSummry/TtlNtries/TtlNetNtry{Amt, CdtDbtInd}; .02 TtlNetNtryAmt and CdtDbtInd side by side. */
  netEntryWrapped: boolean;
}

export const CAMT053_DIALECTS: Readonly<Record<Camt053Version, Camt053Dialect>> = {
  '001.02': {
    version: '001.02',
    namespace: 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.02',
    bicElement: 'BIC',
    bicPattern: /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$/,
    statusAsCode: false,
    partyInPty: false,
    transactionAmount: false,
    netEntryWrapped: false,
  },
  '001.08': {
    version: '001.08',
    namespace: 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08',
    bicElement: 'BICFI',
    bicPattern: /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
    statusAsCode: true,
    partyInPty: true,
    transactionAmount: true,
    netEntryWrapped: true,
  },
};
