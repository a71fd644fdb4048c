// What an XML file that is not a pain.001 is, so that the error says it in the user's words:
// a bank statement or a status report dropped into the payment inbox is a common mistake.
const KINDS: Readonly<Record<string, string>> = {
  'camt.052': 'a camt.052 account report',
  'camt.053': 'a camt.053 bank statement',
  'camt.054': 'a camt.054 debit/credit notification',
  'pain.002': 'a pain.002 payment status report',
  'pain.008': 'a pain.008 direct debit initiation',
  'pacs.008': 'a pacs.008 interbank credit transfer',
};

/** The message element under Document of each kind (for files without a namespace). */
const ELEMENTS: Readonly<Record<string, string>> = {
  BkToCstmrAcctRpt: 'camt.052',
  BkToCstmrStmt: 'camt.053',
  BkToCstmrDbtCdtNtfctn: 'camt.054',
  CstmrPmtStsRpt: 'pain.002',
  CstmrDrctDbtInitn: 'pain.008',
  FIToFICstmrCdtTrf: 'pacs.008',
};

/** "a camt.053 bank statement (camt.053.001.02)" for an ISO 20022 namespace that is not pain.001. */
export function otherMessage(namespace: string): string | undefined {
  const m = /(?:^|[:/])([a-z]{4}\.\d{3})\.(\d{3}\.\d{2})/.exec(namespace);
  if (!m || m[1] === undefined || m[1] === 'pain.001') return undefined;
  const kind = KINDS[m[1]] ?? `an ISO 20022 ${m[1]} message`;
  return `${kind} (${m[1]}.${m[2]})`;
}

/** The same for the message element under Document (BkToCstmrStmt → a camt.053 bank statement). */
export function otherMessageElement(name: string): string | undefined {
  const id = ELEMENTS[name];
  return id === undefined ? undefined : KINDS[id];
}

export function notAPaymentFile(what: string): string {
  return `this is ${what}, not a payment file: settle reads payments from pain.001 (customer credit transfer initiation) or CSV files. Was it put in the payment inbox by mistake?`;
}
