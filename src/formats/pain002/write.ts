// pain.002 writer: a customer payment status report for one original message (pain.001 file or
// CSV file). Status reports are one file's lines, so the document is rendered in one piece with
// the same chunk writer (and the same text rules) as camt.053. Mapping: docs/formats/pain002.md.
import type { Issue } from '../../domain/issue.js';
import { formatAmount } from '../../domain/money.js';
import {
  groupStatus,
  type PaymentLineStatus,
  type PaymentStatusLine,
  type PaymentStatusReport,
} from '../../domain/payment-status.js';
import { XmlChunkWriter } from '../xml/chunk-writer.js';
import { formatDateTime } from '../xml/date-time.js';
import type { ShortIdentifier } from '../../domain/iso-identifier.js';
import { distinctPairs, identifier, standInText, type StandIn } from '../xml/identifier.js';
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

const ROOT = '/Document/CstmrPmtStsRpt';
const ACCEPTED = new Set<string>(['ACTC', 'ACCP', 'ACSP', 'ACSC', 'ACWC']);
const REASON_CODE = /^[A-Z0-9]{4}$/;
/** Longer reason texts are split over several AddtlInf (Max105Text); beyond this many, cut. */
const MAX_ADDITIONAL_INFO = 5;

export function writePain002(report: PaymentStatusReport, options: Pain002Options = {}): Pain002Output {
  const { issues, report: emit } = issueCollector(options.onIssue);
  const writer = new XmlChunkWriter({ chunkSize: Number.MAX_SAFE_INTEGER });
  const standIns: StandIn[] = [];
  composePain002(writer, report, PAIN002_DIALECTS[options.version ?? '001.03'], emit, standIns);
  return { xml: writer.finish(), issues, shortIdentifiers: distinctPairs(standIns) };
}

/** The document as sink calls (the byte-identity test drives xmlbuilder2 with the same calls). */
export function composePain002(
  w: XmlSink,
  report: PaymentStatusReport,
  dialect: Pain002Dialect,
  emit: IssueListener,
  standIns: StandIn[] = [],
): void {
  const t = (value: string | undefined, max: number, path: string, field: string): string | undefined => {
    if (value === undefined) return undefined;
    const prepared = prepareText(value, max);
    for (const change of prepared.changes) emit(textIssue(change, path, field, max));
    return prepared.text;
  };

  // Map every line's status once; the group statuses are derived from the mapped values.
  const statuses = report.groups.map((group, g) =>
    group.lines.map((line, l) =>
      transactionStatus(dialect, line.status, `${ROOT}/OrgnlPmtInfAndSts[${g + 1}]/TxInfAndSts[${l + 1}]/TxSts`, emit),
    ),
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
  const fileStatus = summary(dialect, statuses.flat());
  if (fileStatus !== undefined) w.leaf('GrpSts', fileStatus);
  w.close();

  report.groups.forEach((group, g) => {
    const at = `${ROOT}/OrgnlPmtInfAndSts[${g + 1}]`;
    w.open('OrgnlPmtInfAndSts');
    w.leaf(
      'OrgnlPmtInfId',
      id(group.originalPaymentInformationId, 'OrgnlPmtInfId', `${at}/OrgnlPmtInfId`, 'originalPaymentInformationId'),
    );
    const pmtInfStatus = summary(dialect, statuses[g] ?? []);
    if (pmtInfStatus !== undefined) w.leaf('PmtInfSts', pmtInfStatus);
    group.lines.forEach((line, l) => {
      transaction(w, line, { status: statuses[g]?.[l] ?? line.status, at: `${at}/TxInfAndSts[${l + 1}]` }, t, standIns);
    });
    w.close();
  });
  w.close();
  w.close();
}

type TextFn = (value: string | undefined, max: number, path: string, field: string) => string | undefined;

/** Like `t`, for an element the schema requires: a missing value is reported and written as NOTPROVIDED. */
function requiredText(t: TextFn, emit: IssueListener): (...args: Parameters<TextFn>) => string {
  return (value, max, path, field) => {
    const prepared = t(value, max, path, field);
    if (prepared !== undefined) return prepared;
    emit(requiredTextIssue(path, field));
    return 'NOTPROVIDED';
  };
}

/** One TxInfAndSts; the stand-ins of its own ids are spelled out in its StsRsnInf/AddtlInf. */
function transaction(
  w: XmlSink,
  line: PaymentStatusLine,
  { status, at }: { status: string; at: string },
  t: TextFn,
  standIns: StandIn[],
): void {
  const own: StandIn[] = [];
  const instructionId = identifier(line.originalInstructionId, 35, 'OrgnlInstrId', own);
  const endToEndId = identifier(line.endToEndId, 35, 'OrgnlEndToEndId', own);
  const servicerRef = identifier(line.bankPaymentId, 35, 'AcctSvcrRef', own);
  standIns.push(...own);
  w.open('TxInfAndSts');
  if (instructionId !== undefined) w.leaf('OrgnlInstrId', instructionId);
  if (endToEndId !== undefined) w.leaf('OrgnlEndToEndId', endToEndId);
  w.leaf('TxSts', status);
  reasons(w, line, at, t, standInText(own));
  if (ACCEPTED.has(status)) w.leaf('AccptncDtTm', formatDateTime(line.time));
  if (servicerRef !== undefined) w.leaf('AcctSvcrRef', servicerRef);
  if (line.amount !== undefined && line.amount.minor >= 0n) {
    w.open('OrgnlTxRef');
    w.open('Amt');
    w.leaf('InstdAmt', formatAmount(line.amount), 'Ccy', line.amount.currency);
    w.close();
    w.close();
  }
  w.close();
}

/**
 * One StsRsnInf per reason code; the text (and what the line's stand-ins stand for) goes to
 * AddtlInf of the first (or of its own).
 */
function reasons(w: XmlSink, line: PaymentStatusLine, at: string, t: TextFn, ids: string | undefined): void {
  const codes = (line.reasonCodes ?? []).map((c) => c.trim()).filter((c) => c !== '');
  // The stand-ins first, in AddtlInf of their own, so the reason's text still reads whole after them.
  const info = [
    ...splitInfo(ids, `${at}/StsRsnInf/AddtlInf`, t),
    ...splitInfo(line.reasonText, `${at}/StsRsnInf/AddtlInf`, t),
  ];
  const count = Math.max(codes.length, info.length > 0 ? 1 : 0);
  for (let i = 0; i < count; i++) {
    w.open('StsRsnInf');
    const code = codes[i];
    if (code !== undefined) {
      w.open('Rsn');
      if (REASON_CODE.test(code)) w.leaf('Cd', code);
      else w.leaf('Prtry', t(code, 35, `${at}/StsRsnInf[${i + 1}]/Rsn/Prtry`, 'reasonCodes') ?? code);
      w.close();
    }
    if (i === 0) for (const part of info) w.leaf('AddtlInf', part);
    w.close();
  }
}

function splitInfo(text: string | undefined, path: string, t: TextFn): string[] {
  const whole = t(text, 105 * MAX_ADDITIONAL_INFO, path, 'reasonText');
  return whole === undefined ? [] : splitAtWords(whole, 105);
}

/** Parts of at most `max` characters, broken at spaces; a word longer than `max` is cut. */
export function splitAtWords(text: string, max: number): string[] {
  const parts: string[] = [];
  let part = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    let rest = Array.from(word);
    while (rest.length > 0) {
      const room = part === '' ? max : max - Array.from(part).length - 1;
      if (rest.length <= room) {
        part = part === '' ? rest.join('') : `${part} ${rest.join('')}`;
        rest = [];
      } else if (part !== '') {
        parts.push(part);
        part = '';
      } else {
        parts.push(rest.slice(0, max).join(''));
        rest = rest.slice(max);
      }
    }
  }
  if (part !== '') parts.push(part);
  return parts;
}

function transactionStatus(
  dialect: Pain002Dialect,
  status: PaymentLineStatus,
  path: string,
  emit: IssueListener,
): string {
  if (dialect.transactionStatuses === undefined || dialect.transactionStatuses.has(status)) return status;
  const mapped = PAIN002_03_STATUS_MAP[status] ?? 'PDNG';
  emit({
    code: 'STATUS_MAPPED',
    severity: 'warning',
    location: { path },
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
