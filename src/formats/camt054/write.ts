// camt.054 writer: a debit or credit notification in, the document text out. A notification
// covers one account and day, so it is composed in one go through the chunk writer. Its entries
// are the statement's (ReportEntry2 / ReportEntry10 in both), described once from the booking
// (jobs/statements/describe-bookings.ts) and rendered by camt.053's entry renderer, so the same
// booking reads the same in both documents (issue #47). Element order follows the XSDs;
// docs/formats/camt054.md has the mapping.
import type { Issue } from '../../domain/issue.js';
import type { ShortIdentifier } from '../../domain/iso-identifier.js';
import { formatAmount } from '../../domain/money.js';
import type { Money } from '../../domain/money.js';
import type { Notification } from '../../domain/notification.js';
import { absoluteMoney, creditDebit } from '../../domain/statement.js';
import { accountId, bic, required, text, type ComposeContext } from '../camt053/compose.js';
import { renderEntry } from '../camt053/render-entry.js';
import { XmlChunkWriter } from '../xml/chunk-writer.js';
import { flattened } from '../xml/flat.js';
import { distinctPairs, type StandIn } from '../xml/identifier.js';
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
  /** Stand-ins written for ids longer than their field, for the caller to store. */
  shortIdentifiers: ShortIdentifier[];
}

export function writeCamt054(notification: Notification, options: Camt054Options = {}): Camt054Output {
  const { issues, report } = issueCollector(options.onIssue);
  const standIns: StandIn[] = [];
  const ctx: ComposeContext = {
    dialect: CAMT054_DIALECTS[options.version ?? '001.02'],
    report,
    entryIndex: 0,
    entriesAt: NTFCTN,
    standIns,
  };
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
  const { currency } = notification.account;
  notification.entries.forEach((entry, i) => {
    ctx.entryIndex = i + 1;
    if (entry.amount.currency !== currency)
      report({
        code: 'CURRENCY_MISMATCH',
        severity: 'error',
        location: { path: `${NTFCTN}/Ntry[${i + 1}]/Amt` },
        field: 'amount',
        message: `entry in ${entry.amount.currency} on a ${currency} account`,
      });
    // The whole document stays in memory: each entry made one piece, so its parts die young (flat.ts).
    sink.raw(flattened(renderEntry(entry, ctx)));
  });
  sink.close();
  sink.close();
  sink.close();
  return {
    text: sink.finish(),
    issues,
    entryCount: notification.entries.length,
    shortIdentifiers: distinctPairs(standIns),
  };
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
