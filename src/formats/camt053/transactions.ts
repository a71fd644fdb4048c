// What an entry's transaction details are made of, shared by the camt.053 renderer and any other
// writer of ISO 20022 entries (camt.054 carries the same Ntry/NtryDtls/TxDtls structure).
import type { StatementEntry, TransactionDetails, TransactionReferences } from '../../domain/statement.js';

/**
 * TxDtls/Refs elements in schema order (the same in camt.053/054 .02 and .08) and their fields;
 * bankPaymentId follows them as Refs/Prtry.
 */
export const REFERENCE_FIELDS: readonly (readonly [string, Exclude<keyof TransactionReferences, 'bankPaymentId'>])[] = [
  ['MsgId', 'messageId'],
  ['AcctSvcrRef', 'accountServicerRef'],
  ['PmtInfId', 'paymentInformationId'],
  ['InstrId', 'instructionId'],
  ['EndToEndId', 'endToEndId'],
  ['TxId', 'transactionId'],
];

/** The transactions of an entry: its own list, or the one its entry-level fields describe. */
export function transactionsOf(entry: StatementEntry): readonly TransactionDetails[] {
  if (entry.transactions !== undefined && entry.transactions.length > 0) return entry.transactions;
  return [singleTransaction(entry)];
}

/** The one transaction an entry without a list of its own describes with its entry-level fields. */
export function singleTransaction(entry: StatementEntry): TransactionDetails {
  const single: TransactionDetails = {};
  if (entry.endToEndId !== undefined) single.refs = { endToEndId: entry.endToEndId };
  if (entry.counterparty !== undefined) single.counterparty = entry.counterparty;
  if (entry.remittance !== undefined) single.remittance = entry.remittance;
  return single;
}

/**
 * Rsn/Cd takes an ISO external return reason code (ExternalReturnReason1Code: 1–4 characters,
 * e.g. AC04, MS03); anything longer is the bank's own code and goes to Rsn/Prtry.
 */
export function returnReasonCode(code: string | undefined): { element: 'Cd' | 'Prtry'; value: string } | undefined {
  const trimmed = code?.trim();
  if (trimmed === undefined || trimmed === '') return undefined;
  return /^[A-Za-z0-9]{1,4}$/.test(trimmed)
    ? { element: 'Cd', value: trimmed.toUpperCase() }
    : { element: 'Prtry', value: trimmed };
}
