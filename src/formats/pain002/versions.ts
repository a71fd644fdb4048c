// What differs between the pain.002 versions settle writes (XSDs in shared/iso20022/xsd).
import type { PaymentLineStatus } from '../../domain/payment-status.js';

export type Pain002Version = '001.03' | '001.10';

export interface Pain002Dialect {
  version: Pain002Version;
  namespace: string;
  /** Transaction statuses the schema accepts; undefined = any external 4-letter code (.10). */
  transactionStatuses: ReadonlySet<string> | undefined;
  /** Group and PmtInf statuses the schema accepts; undefined = any external code. */
  groupStatuses: ReadonlySet<string> | undefined;
}

export const PAIN002_DIALECTS: Readonly<Record<Pain002Version, Pain002Dialect>> = {
  '001.03': {
    version: '001.03',
    namespace: 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.03',
    // TransactionIndividualStatus3Code and TransactionGroupStatus3Code.
    transactionStatuses: new Set(['ACTC', 'RJCT', 'PDNG', 'ACCP', 'ACSP', 'ACSC', 'ACWC']),
    groupStatuses: new Set(['ACTC', 'RCVD', 'PART', 'RJCT', 'PDNG', 'ACCP', 'ACSP', 'ACSC']),
  },
  '001.10': {
    version: '001.10',
    namespace: 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.10',
    transactionStatuses: undefined,
    groupStatuses: undefined,
  },
};

/**
 * pain.002.001.03 has no transaction status RCVD or CANC: received-but-not-yet-checked is
 * reported as PDNG, cancelled as RJCT (the payment will not be executed). Reported as an issue.
 */
export const PAIN002_03_STATUS_MAP: Readonly<Partial<Record<PaymentLineStatus, PaymentLineStatus>>> = {
  RCVD: 'PDNG',
  CANC: 'RJCT',
};
