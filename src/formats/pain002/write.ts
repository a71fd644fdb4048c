// pain.002 writer: a customer payment status report for one original message (pain.001 file or
// CSV file). Status reports are one file's lines, so the document is rendered in one piece with
// the same chunk writer (and the same text rules) as camt.053. Mapping: docs/formats/pain002.md.
import type { Issue } from '../../domain/issue.js';
import {
  groupStatus,
  type PaymentLineStatus,
  type PaymentStatusLine,
  type PaymentStatusReport,
} from '../../domain/payment-status.js';
import { XmlChunkWriter } from '../xml/chunk-writer.js';
import { linePath, renderLine, ROOT, type LineAt, type TextFn } from './render-line.js';

export { splitAtWords } from './render-line.js';
import { formatDateTime } from '../xml/date-time.js';
import type { ShortIdentifier } from '../../domain/iso-identifier.js';
import { distinctPairs, identifier, type StandIn } from '../xml/identifier.js';
import { issueCollector, requiredTextIssue, textIssue, type IssueListener } from '../xml/issues.js';
import { prepareText } from '../xml/text.js';
import type { XmlSink } from '../xml/xml-sink.js';
import { PAIN002_03_STATUS_MAP, PAIN002_DIALECTS, type Pain002Dialect, type Pain002Version } from './versions.js';

export interface Pain002Options {
  /** Default '001.03'. */
  version?: Pain002Version;
  onIssue?: IssueListener;
}

export interface Pain002Output {
  xml: string;
  issues: Issue[];
  /** Stand-ins written for ids longer than their field, for the caller to store. */
  shortIdentifiers: ShortIdentifier[];
}

export function writePain002(report: PaymentStatusReport, options: Pain002Options = {}): Pain002Output {
  const { issues, report: emit } = issueCollector(options.onIssue);
  const writer = new XmlChunkWriter({ chunkSize: Number.MAX_SAFE_INTEGER });
  const standIns: StandIn[] = [];
  composePain002(writer, report, PAIN002_DIALECTS[options.version ?? '001.03'], emit, {
    standIns,
    composeLine: (_, line, status, at, t) => writer.raw(renderLine(line, status, at, t, standIns)),
  });
  return { xml: writer.finish(), issues, shortIdentifiers: distinctPairs(standIns) };
}

/**
 * Writes one TxInfAndSts: the writer renders it as text (render-line.ts), the byte-identity test
 * composes it element by element into xmlbuilder2 (test/formats/writers/pain002-reference.ts).
 */
export type LineComposer = (w: XmlSink, line: PaymentStatusLine, status: string, at: LineAt, t: TextFn) => void;

/** Where the ids' stand-ins go, and how a line is written. */
export interface Pain002Lines {
  standIns: StandIn[];
  composeLine: LineComposer;
}

/**
 * The document as sink calls, each line through `composeLine` (the byte-identity test drives
 * xmlbuilder2 with the same calls and the reference composition of a line).
 */
export function composePain002(
  w: XmlSink,
  report: PaymentStatusReport,
  dialect: Pain002Dialect,
  emit: IssueListener,
  { standIns, composeLine }: Pain002Lines,
): void {
  const t = (value: string | undefined, max: number, path: string, field: string): string | undefined => {
    if (value === undefined) return undefined;
    const prepared = prepareText(value, max);
    for (const change of prepared.changes) emit(textIssue(change, path, field, max));
    return prepared.text;
  };

  // Map every line's status once; the group statuses are derived from the mapped values.
  const statuses = report.groups.map((group, g) =>
    group.lines.map((line, l) => transactionStatus(dialect, line.status, g + 1, l + 1, emit)),
  );

  const req = requiredText(t, emit);
  // An id is never cut: one longer than its field is written as its stand-in (src/domain/iso-identifier.ts).
  const id = (value: string | undefined, element: string, path: string, field: string): string =>
    req(identifier(value, 35, element, standIns) ?? value, 35, path, field);
  w.open('Document', 'xmlns', dialect.namespace);
  w.open('CstmrPmtStsRpt');
  w.open('GrpHdr');
  w.leaf('MsgId', id(report.messageId, 'MsgId', `${ROOT}/GrpHdr/MsgId`, 'messageId'));
  w.leaf('CreDtTm', formatDateTime(report.createdAt));
  initiatingParty(w, report.initiatingParty, t);
  w.close();

  w.open('OrgnlGrpInfAndSts');
  w.leaf(
    'OrgnlMsgId',
    id(report.originalMessageId, 'OrgnlMsgId', `${ROOT}/OrgnlGrpInfAndSts/OrgnlMsgId`, 'originalMessageId'),
  );
  w.leaf(
    'OrgnlMsgNmId',
    req(report.originalMessageNameId, 35, `${ROOT}/OrgnlGrpInfAndSts/OrgnlMsgNmId`, 'originalMessageNameId'),
  );
  if (report.originalCreatedAt !== undefined) w.leaf('OrgnlCreDtTm', formatDateTime(report.originalCreatedAt));
  // A report of one group (a pain.001 file of one PmtInf, any CSV file) has the group's statuses
  // as its own: derived once, without a copy of the list.
  const fileStatus = summary(dialect, statuses.length === 1 ? statuses[0]! : statuses.flat());
  if (fileStatus !== undefined) w.leaf('GrpSts', fileStatus);
  w.close();

  report.groups.forEach((group, g) => {
    const at = `${ROOT}/OrgnlPmtInfAndSts[${g + 1}]`;
    w.open('OrgnlPmtInfAndSts');
    w.leaf(
      'OrgnlPmtInfId',
      id(group.originalPaymentInformationId, 'OrgnlPmtInfId', `${at}/OrgnlPmtInfId`, 'originalPaymentInformationId'),
    );
    const pmtInfStatus = statuses.length === 1 ? fileStatus : summary(dialect, statuses[g] ?? []);
    if (pmtInfStatus !== undefined) w.leaf('PmtInfSts', pmtInfStatus);
    // One position object for the group's lines, moved along: the composer keeps no reference.
    const lineAt: LineAt = { group: g + 1, line: 0 };
    const lines = group.lines;
    const lineStatuses = statuses[g]!;
    for (let l = 0; l < lines.length; l++) {
      lineAt.line = l + 1;
      const line = lines[l]!;
      composeLine(w, line, lineStatuses[l] ?? line.status, lineAt, t);
    }
    w.close();
  });
  w.close();
  w.close();
}

/** Like `t`, for an element the schema requires: a missing value is reported and written as NOTPROVIDED. */
function requiredText(t: TextFn, emit: IssueListener): (...args: Parameters<TextFn>) => string {
  return (value, max, path, field) => {
    const prepared = t(value, max, path, field);
    if (prepared !== undefined) return prepared;
    emit(requiredTextIssue(path, field));
    return 'NOTPROVIDED';
  };
}

function transactionStatus(
  dialect: Pain002Dialect,
  status: PaymentLineStatus,
  group: number,
  line: number,
  emit: IssueListener,
): string {
  if (dialect.transactionStatuses === undefined || dialect.transactionStatuses.has(status)) return status;
  const mapped = PAIN002_03_STATUS_MAP[status] ?? 'PDNG';
  emit({
    code: 'STATUS_MAPPED',
    severity: 'warning',
    location: { path: `${linePath({ group, line })}/TxSts` },
    field: 'status',
    message: `pain.002.${dialect.version} has no transaction status ${status}; written as ${mapped}`,
  });
  return mapped;
}

/** The group's status derived from its written line statuses, when the schema has it for a group. */
function summary(dialect: Pain002Dialect, statuses: readonly string[]): string | undefined {
  const status = groupStatus(statuses as PaymentLineStatus[]);
  if (status === undefined) return undefined;
  if (dialect.groupStatuses !== undefined && !dialect.groupStatuses.has(status)) return undefined;
  return status;
}

/** GrpHdr/InitgPty: the company the payments were made for, with its organisation number. */
function initiatingParty(w: XmlSink, party: PaymentStatusReport['initiatingParty'], t: TextFn): void {
  if (party === undefined) return;
  w.open('InitgPty');
  w.leaf('Nm', t(party.name, 140, `${ROOT}/GrpHdr/InitgPty/Nm`, 'initiatingParty.name') ?? '');
  const id = t(
    party.organisationNumber,
    35,
    `${ROOT}/GrpHdr/InitgPty/Id/OrgId/Othr/Id`,
    'initiatingParty.organisationNumber',
  );
  if (id !== undefined && id !== '') {
    w.open('Id');
    w.open('OrgId');
    w.open('Othr');
    w.leaf('Id', id);
    w.close();
    w.close();
    w.close();
  }
  w.close();
}
