// camt.054 writer: a debit or credit notification in, the document text out. A notification
// covers one account and day, so it is composed in one go through the chunk writer (no fast
// path as for camt.053's million-entry statements). Text rules, account ids and BICs are
// camt.053's (src/formats/camt053/compose.ts), so both documents say the same thing the same
// way. Element order follows the XSDs; docs/formats/camt054.md has the mapping.
import type { Issue } from '../../domain/issue.js';
import { formatAmount } from '../../domain/money.js';
import type { Money } from '../../domain/money.js';
import type {
  Notification,
  NotificationEntry,
  NotificationReferences,
  NotificationTransaction,
} from '../../domain/notification.js';
import { absoluteMoney, creditDebit, type BankTransactionCode, type Remittance } from '../../domain/statement.js';
import { accountId, accountIdValue, bic, required, text, type ComposeContext } from '../camt053/compose.js';
import { XmlChunkWriter } from '../xml/chunk-writer.js';
import { formatDateTime } from '../xml/date-time.js';
import { issueCollector, type IssueListener } from '../xml/issues.js';
import type { XmlSink } from '../xml/xml-sink.js';
import { CAMT054_DIALECTS, type Camt054Version } from './versions.js';

const NTFCTN = '/Document/BkToCstmrDbtCdtNtfctn/Ntfctn';

export interface Camt054Options {
  /** Default '001.02'. */
  version?: Camt054Version;
  /** Receives each issue as it arises instead of collecting them in `issues`. */
  onIssue?: IssueListener;
}

export interface Camt054Output {
  text: string;
  /** Empty when onIssue is given. */
  issues: Issue[];
  entryCount: number;
}

export function writeCamt054(notification: Notification, options: Camt054Options = {}): Camt054Output {
  const { issues, report } = issueCollector(options.onIssue);
  const ctx: ComposeContext = { dialect: CAMT054_DIALECTS[options.version ?? '001.02'], report, entryIndex: 0 };
  const sink = new XmlChunkWriter({});
  const created = formatDateTime(notification.createdAt);
  sink.open('Document', 'xmlns', ctx.dialect.namespace);
  sink.open('BkToCstmrDbtCdtNtfctn');
  sink.open('GrpHdr');
  sink.leaf('MsgId', required(ctx, notification.id, 35, '/Document/BkToCstmrDbtCdtNtfctn/GrpHdr/MsgId', 'id'));
  sink.leaf('CreDtTm', created);
  sink.close();
  sink.open('Ntfctn');
  sink.leaf('Id', required(ctx, notification.id, 35, `${NTFCTN}/Id`, 'id'));
  sink.leaf('ElctrncSeqNb', String(notification.sequenceNumber));
  sink.leaf('CreDtTm', created);
  sink.open('FrToDt');
  sink.leaf('FrDtTm', `${notification.fromDate}T00:00:00`);
  sink.leaf('ToDtTm', `${notification.toDate}T23:59:59`);
  sink.close();
  writeAccount(sink, ctx, notification);
  writeSummary(sink, notification, ctx.dialect.version);
  notification.entries.forEach((entry, i) => {
    ctx.entryIndex = i + 1;
    writeEntry(sink, ctx, entry, notification.account.currency);
  });
  sink.close();
  sink.close();
  sink.close();
  return { text: sink.finish(), issues, entryCount: notification.entries.length };
}

function writeAccount(sink: XmlSink, ctx: ComposeContext, notification: Notification): void {
  const { account } = notification;
  sink.open('Acct');
  accountId(sink, ctx, account.iban, `${NTFCTN}/Acct/Id`, 'account.iban');
  sink.leaf('Ccy', account.currency);
  const name = text(ctx, account.name, 70, `${NTFCTN}/Acct/Nm`, 'account.name');
  if (name !== undefined) sink.leaf('Nm', name);
  const owner = text(ctx, account.ownerName, 140, `${NTFCTN}/Acct/Ownr/Nm`, 'account.ownerName');
  if (owner !== undefined) {
    sink.open('Ownr');
    sink.leaf('Nm', owner);
    sink.close();
  }
  const servicerName = text(
    ctx,
    account.servicerName,
    140,
    `${NTFCTN}/Acct/Svcr/FinInstnId/Nm`,
    'account.servicerName',
  );
  const servicerBic = bic(ctx, account.servicerBic, `${NTFCTN}/Acct/Svcr/FinInstnId/{BIC}`, 'account.servicerBic');
  if (servicerBic !== undefined || servicerName !== undefined) {
    sink.open('Svcr');
    sink.open('FinInstnId');
    if (servicerBic !== undefined) sink.leaf(ctx.dialect.bicElement, servicerBic);
    if (servicerName !== undefined) sink.leaf('Nm', servicerName);
    sink.close();
    sink.close();
  }
  sink.close();
}

/** TxsSummry/TtlNtries: count, sum of the absolute amounts and the net, so an importer can check it read every entry. */
function writeSummary(sink: XmlSink, notification: Notification, version: Camt054Version): void {
  let sum = 0n;
  let total = 0n;
  for (const entry of notification.entries) {
    sum += entry.amount.minor;
    total += entry.amount.minor < 0n ? -entry.amount.minor : entry.amount.minor;
  }
  const { currency } = notification.account;
  const net: Money = { minor: sum, currency };
  sink.open('TxsSummry');
  sink.open('TtlNtries');
  sink.leaf('NbOfNtries', String(notification.entries.length));
  sink.leaf('Sum', formatAmount({ minor: total, currency }));
  // .02 TotalTransactions2 has TtlNetNtryAmt + CdtDbtInd; .08 wraps them in TtlNetNtry.
  if (version === '001.02') {
    sink.leaf('TtlNetNtryAmt', formatAmount(absoluteMoney(net)));
    sink.leaf('CdtDbtInd', creditDebit(net));
  } else {
    sink.open('TtlNetNtry');
    sink.leaf('Amt', formatAmount(absoluteMoney(net)));
    sink.leaf('CdtDbtInd', creditDebit(net));
    sink.close();
  }
  sink.close();
  sink.close();
}

function amount(sink: XmlSink, name: string, value: Money): void {
  sink.leaf(name, formatAmount(absoluteMoney(value)), 'Ccy', value.currency);
}

function writeEntry(sink: XmlSink, ctx: ComposeContext, entry: NotificationEntry, currency: string): void {
  const path = `${NTFCTN}/Ntry[${ctx.entryIndex}]`;
  if (entry.amount.currency !== currency)
    ctx.report({
      code: 'CURRENCY_MISMATCH',
      severity: 'error',
      location: { path: `${path}/Amt` },
      field: 'amount',
      message: `entry in ${entry.amount.currency} on a ${currency} account`,
    });
  sink.open('Ntry');
  const entryRef = text(ctx, entry.entryReference, 35, `${path}/NtryRef`, 'entryReference');
  if (entryRef !== undefined) sink.leaf('NtryRef', entryRef);
  amount(sink, 'Amt', entry.amount);
  sink.leaf('CdtDbtInd', creditDebit(entry.amount));
  if (ctx.dialect.statusAsCode) {
    sink.open('Sts');
    sink.leaf('Cd', 'BOOK');
    sink.close();
  } else sink.leaf('Sts', 'BOOK');
  sink.open('BookgDt');
  sink.leaf('Dt', entry.bookingDate);
  sink.close();
  if (entry.valueDate !== undefined) {
    sink.open('ValDt');
    sink.leaf('Dt', entry.valueDate);
    sink.close();
  }
  const servicerRef = text(ctx, entry.accountServicerRef, 35, `${path}/AcctSvcrRef`, 'accountServicerRef');
  if (servicerRef !== undefined) sink.leaf('AcctSvcrRef', servicerRef);
  bankTransactionCode(sink, ctx, entry, path);
  if (entry.transactions.length > 0) {
    sink.open('NtryDtls');
    if (entry.transactions.length > 1) writeBatch(sink, ctx, entry, path);
    entry.transactions.forEach((tx, i) => writeTransaction(sink, ctx, tx, `${path}/NtryDtls/TxDtls[${i + 1}]`));
    sink.close();
  }
  const info = text(ctx, entry.additionalInfo, 500, `${path}/AddtlNtryInf`, 'additionalInfo');
  if (info !== undefined) sink.leaf('AddtlNtryInf', info);
  sink.close();
}

function bankTransactionCode(sink: XmlSink, ctx: ComposeContext, entry: NotificationEntry, path: string): void {
  const credit = entry.amount.minor >= 0n;
  const code: BankTransactionCode = entry.bankTransactionCode ?? {
    domain: 'PMNT',
    family: credit ? 'RCDT' : 'ICDT',
    subFamily: 'OTHR',
  };
  sink.open('BkTxCd');
  if ('proprietary' in code) {
    sink.open('Prtry');
    sink.leaf('Cd', required(ctx, code.proprietary, 35, `${path}/BkTxCd/Prtry/Cd`, 'bankTransactionCode'));
    const issuer = text(ctx, code.issuer, 35, `${path}/BkTxCd/Prtry/Issr`, 'bankTransactionCode.issuer');
    if (issuer !== undefined) sink.leaf('Issr', issuer);
  } else {
    sink.open('Domn');
    sink.leaf('Cd', code.domain);
    sink.open('Fmly');
    sink.leaf('Cd', code.family);
    sink.leaf('SubFmlyCd', code.subFamily);
    sink.close();
  }
  sink.close();
  sink.close();
}

/** Btch: the ERP's file and block when every line shares them, the line count and the total. */
function writeBatch(sink: XmlSink, ctx: ComposeContext, entry: NotificationEntry, path: string): void {
  const shared = (key: 'messageId' | 'paymentInformationId'): string | undefined => {
    const values = new Set(entry.transactions.map((t) => t.references[key]));
    const [only] = values;
    return values.size === 1 ? only : undefined;
  };
  sink.open('Btch');
  const messageId = text(ctx, shared('messageId'), 35, `${path}/NtryDtls/Btch/MsgId`, 'references.messageId');
  if (messageId !== undefined) sink.leaf('MsgId', messageId);
  const blockId = text(
    ctx,
    shared('paymentInformationId'),
    35,
    `${path}/NtryDtls/Btch/PmtInfId`,
    'references.paymentInformationId',
  );
  if (blockId !== undefined) sink.leaf('PmtInfId', blockId);
  sink.leaf('NbOfTxs', String(entry.transactions.length));
  let total = 0n;
  for (const tx of entry.transactions) total += tx.amount.minor;
  const sum: Money = { minor: total, currency: entry.amount.currency };
  amount(sink, 'TtlAmt', sum);
  sink.leaf('CdtDbtInd', creditDebit(sum));
  sink.close();
}

function writeTransaction(sink: XmlSink, ctx: ComposeContext, tx: NotificationTransaction, path: string): void {
  const { dialect } = ctx;
  sink.open('TxDtls');
  writeReferences(sink, ctx, tx.references, `${path}/Refs`);
  if (dialect.transactionAmount) {
    amount(sink, 'Amt', tx.amount);
    sink.leaf('CdtDbtInd', creditDebit(tx.amount));
  } else {
    // .02 has no TxDtls/Amt: the line's own amount goes in AmtDtls/TxAmt, as banks write it.
    sink.open('AmtDtls');
    sink.open('TxAmt');
    amount(sink, 'Amt', tx.amount);
    sink.close();
    sink.close();
  }
  writeParties(sink, ctx, tx, path);
  writeRemittance(sink, ctx, tx.remittance, `${path}/RmtInf`);
  sink.close();
}

const REFERENCE_ELEMENTS = [
  ['MsgId', 'messageId'],
  ['AcctSvcrRef', 'accountServicerRef'],
  ['PmtInfId', 'paymentInformationId'],
  ['EndToEndId', 'endToEndId'],
] as const;

function writeReferences(sink: XmlSink, ctx: ComposeContext, refs: NotificationReferences, path: string): void {
  const values = REFERENCE_ELEMENTS.map(
    ([name, key]) => [name, text(ctx, refs[key], 35, `${path}/${name}`, `references.${key}`)] as const,
  );
  const bankPaymentId = text(ctx, refs.bankPaymentId, 35, `${path}/Prtry/Ref`, 'references.bankPaymentId');
  if (values.every(([, v]) => v === undefined) && bankPaymentId === undefined) return;
  sink.open('Refs');
  for (const [name, value] of values) if (value !== undefined) sink.leaf(name, value);
  if (bankPaymentId !== undefined) {
    sink.open('Prtry');
    sink.leaf('Tp', 'BankPaymentId');
    sink.leaf('Ref', bankPaymentId);
    sink.close();
  }
  sink.close();
}

function writeParties(sink: XmlSink, ctx: ComposeContext, tx: NotificationTransaction, path: string): void {
  const role = tx.amount.minor >= 0n ? 'Dbtr' : 'Cdtr';
  const party = tx.counterparty;
  const name = text(ctx, party?.name, 140, `${path}/RltdPties/${role}/Nm`, 'counterparty.name');
  const iban = party?.iban?.replace(/\s+/g, '').toUpperCase();
  const id =
    iban === undefined || iban === ''
      ? undefined
      : accountIdValue(ctx, iban, `${path}/RltdPties/${role}Acct/Id`, 'counterparty.iban');
  if (name !== undefined || id !== undefined) {
    sink.open('RltdPties');
    if (name !== undefined) {
      sink.open(role);
      if (ctx.dialect.partyInPty) sink.open('Pty');
      sink.leaf('Nm', name);
      if (ctx.dialect.partyInPty) sink.close();
      sink.close();
    }
    if (id !== undefined) {
      sink.open(`${role}Acct`);
      sink.open('Id');
      if (id.iban !== undefined) sink.leaf('IBAN', id.iban);
      else {
        sink.open('Othr');
        sink.leaf('Id', id.other);
        sink.close();
      }
      sink.close();
      sink.close();
    }
    sink.close();
  }
  const agent = bic(ctx, party?.bic, `${path}/RltdAgts/${role}Agt/FinInstnId/{BIC}`, 'counterparty.bic');
  if (agent !== undefined) {
    sink.open('RltdAgts');
    sink.open(`${role}Agt`);
    sink.open('FinInstnId');
    sink.leaf(ctx.dialect.bicElement, agent);
    sink.close();
    sink.close();
    sink.close();
  }
}

/** Ustrd for free text; Strd/CdtrRefInf (type SCOR, issuer ISO for RF) for a checked reference. */
function writeRemittance(sink: XmlSink, ctx: ComposeContext, remittance: Remittance | undefined, path: string): void {
  const ustrd = text(ctx, remittance?.unstructured, 140, `${path}/Ustrd`, 'remittance.unstructured');
  const reference = text(
    ctx,
    remittance?.creditorReference,
    35,
    `${path}/Strd/CdtrRefInf/Ref`,
    'remittance.creditorReference',
  );
  if (ustrd === undefined && reference === undefined) return;
  sink.open('RmtInf');
  if (ustrd !== undefined) sink.leaf('Ustrd', ustrd);
  if (reference !== undefined) {
    sink.open('Strd');
    sink.open('CdtrRefInf');
    sink.open('Tp');
    sink.open('CdOrPrtry');
    sink.leaf('Cd', 'SCOR');
    sink.close();
    if (remittance?.creditorReferenceKind === 'RF') sink.leaf('Issr', 'ISO');
    sink.close();
    sink.leaf('Ref', reference);
    sink.close();
    sink.close();
  }
  sink.close();
}
