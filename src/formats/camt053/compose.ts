// The camt.053 document as a sequence of sink calls: the head (group header, account,
// balances), one call per entry, the tail. The same calls drive the fast chunk writer in
// production and xmlbuilder2 in the byte-identity test, so element order lives only here.
// Field mapping: docs/formats/camt053.md.
import type { Issue } from '../../domain/issue.js';
import { currencyExponent } from '../../domain/currency.js';
import { formatAmount, formatMinor } from '../../domain/money.js';
import { absoluteMoney, creditDebit } from '../../domain/statement.js';
import type { Statement, StatementBalance, TransactionsSummary } from '../../domain/statement.js';
import { formatDateTime } from '../xml/date-time.js';
import { prepareText } from '../xml/text.js';
import { identifier, standInText, type StandIn } from '../xml/identifier.js';
import { requiredTextIssue, textIssue } from '../xml/issues.js';
import type { XmlSink } from '../xml/xml-sink.js';
import type { Camt053Dialect } from './versions.js';

const IBAN = /^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$/;
const STMT = '/Document/BkToCstmrStmt/Stmt';

export interface ComposeContext {
  dialect: Camt053Dialect;
  report: (issue: Issue) => void;
  /** 1-based position of the entry being written (0 in the head); paths are built from it only when an issue needs one. */
  entryIndex: number;
  /** Where the entries are ("/Document/BkToCstmrStmt/Stmt" unless said otherwise): "~/" paths resolve under it. */
  entriesAt?: string;
  /** Every stand-in the document used for an id too long for its field, for the caller to store. */
  standIns?: StandIn[];
}

/** Writes everything before the first entry; leaves Document, BkToCstmrStmt and Stmt open. The
 * entries themselves are rendered by render-entry.ts. */
export function composeHead(sink: XmlSink, statement: Statement, ctx: ComposeContext): void {
  const { dialect } = ctx;
  ctx.entryIndex = 0;
  const t = (value: string | undefined, max: number, path: string, field: string): string | undefined =>
    text(ctx, value, max, path, field);
  const created = formatDateTime(statement.createdAt);
  sink.open('Document', 'xmlns', dialect.namespace);
  sink.open('BkToCstmrStmt');
  sink.open('GrpHdr');
  sink.leaf(
    'MsgId',
    required(ctx, statement.messageId ?? statement.id, 35, '/Document/BkToCstmrStmt/GrpHdr/MsgId', 'messageId'),
  );
  sink.leaf('CreDtTm', created);
  sink.close();
  sink.open('Stmt');
  sink.leaf('Id', required(ctx, statement.id, 35, `${STMT}/Id`, 'id'));
  sequenceNumber(sink, ctx, 'ElctrncSeqNb', statement.sequenceNumber, 'sequenceNumber');
  if (statement.legalSequenceNumber !== undefined)
    sequenceNumber(sink, ctx, 'LglSeqNb', statement.legalSequenceNumber, 'legalSequenceNumber');
  sink.leaf('CreDtTm', created);
  sink.open('FrToDt');
  sink.leaf('FrDtTm', `${statement.fromDate}T00:00:00`);
  sink.leaf('ToDtTm', `${statement.toDate}T23:59:59`);
  sink.close();

  const { account } = statement;
  sink.open('Acct');
  accountId(sink, ctx, account.iban, `${STMT}/Acct/Id`, 'account.iban');
  sink.leaf('Ccy', account.currency);
  const name = t(account.name, 70, `${STMT}/Acct/Nm`, 'account.name');
  if (name !== undefined) sink.leaf('Nm', name);
  const owner = t(account.ownerName, 140, `${STMT}/Acct/Ownr/Nm`, 'account.ownerName');
  if (owner !== undefined) {
    sink.open('Ownr');
    sink.leaf('Nm', owner);
    sink.close();
  }
  const servicerName = t(account.servicerName, 140, `${STMT}/Acct/Svcr/FinInstnId/Nm`, 'account.servicerName');
  const servicerBic = bic(ctx, account.servicerBic, `${STMT}/Acct/Svcr/FinInstnId/{BIC}`, 'account.servicerBic');
  if (servicerBic !== undefined || servicerName !== undefined) {
    sink.open('Svcr');
    sink.open('FinInstnId');
    if (servicerBic !== undefined) sink.leaf(dialect.bicElement, servicerBic);
    if (servicerName !== undefined) sink.leaf('Nm', servicerName);
    sink.close();
    sink.close();
  }
  sink.close();

  balance(sink, 'OPBD', statement.openingBalance);
  balance(sink, 'CLBD', statement.closingBalance);
  if (statement.summary !== undefined) summary(sink, ctx, statement.summary, statement.account.currency);
}

/** TxsSummry: all entries (count, sum of absolute amounts, net), then credits and debits. */
function summary(sink: XmlSink, ctx: ComposeContext, s: TransactionsSummary, currency: string): void {
  const exponent = currencyExponent(currency) ?? 2;
  const decimal = (minor: bigint) => formatMinor(minor < 0n ? -minor : minor, exponent);
  const net = s.creditSum - s.debitSum;
  const netIndicator = net < 0n ? 'DBIT' : 'CRDT';
  sink.open('TxsSummry');
  sink.open('TtlNtries');
  sink.leaf('NbOfNtries', String(s.count));
  sink.leaf('Sum', decimal(s.creditSum + s.debitSum));
  if (ctx.dialect.netEntryWrapped) {
    sink.open('TtlNetNtry');
    sink.leaf('Amt', decimal(net));
    sink.leaf('CdtDbtInd', netIndicator);
    sink.close();
  } else {
    sink.leaf('TtlNetNtryAmt', decimal(net));
    sink.leaf('CdtDbtInd', netIndicator);
  }
  sink.close();
  for (const [name, count, sum] of [
    ['TtlCdtNtries', s.creditCount, s.creditSum],
    ['TtlDbtNtries', s.debitCount, s.debitSum],
  ] as const) {
    sink.open(name);
    sink.leaf('NbOfNtries', String(count));
    sink.leaf('Sum', decimal(sum));
    sink.close();
  }
  sink.close();
}

/** Closes Stmt, BkToCstmrStmt and Document. */
export function composeTail(sink: XmlSink): void {
  sink.close();
  sink.close();
  sink.close();
}

function balance(sink: XmlSink, code: 'OPBD' | 'CLBD', value: StatementBalance): void {
  sink.open('Bal');
  sink.open('Tp');
  sink.open('CdOrPrtry');
  sink.leaf('Cd', code);
  sink.close();
  sink.close();
  sink.leaf('Amt', formatAmount(absoluteMoney(value.amount)), 'Ccy', value.amount.currency);
  sink.leaf('CdtDbtInd', creditDebit(value.amount));
  sink.open('Dt');
  sink.leaf('Dt', value.date);
  sink.close();
  sink.close();
}

/** Number: an integer of at most 18 digits; anything else is left out and reported. */
function sequenceNumber(sink: XmlSink, ctx: ComposeContext, name: string, value: number, field: string): void {
  if (Number.isSafeInteger(value) && value >= 0) {
    sink.leaf(name, String(value));
    return;
  }
  ctx.report({
    code: 'SEQUENCE_NUMBER_INVALID',
    severity: 'error',
    location: { path: `${STMT}/${name}` },
    field,
    message: `${field} must be a whole number ≥ 0; left out`,
  });
}

/** Writes Id with IBAN, or Othr/Id for an account number that is not an IBAN. */
export function accountId(sink: XmlSink, ctx: ComposeContext, raw: string, path: string, field: string): void {
  const id = accountIdValue(ctx, raw, path, field);
  sink.open('Id');
  if (id.iban !== undefined) {
    sink.leaf('IBAN', id.iban);
  } else {
    sink.open('Othr');
    sink.leaf('Id', id.other);
    sink.close();
  }
  sink.close();
}

/** The IBAN (spaces removed, upper case), or the account number as Othr/Id text, reported. */
export function accountIdValue(
  ctx: ComposeContext,
  raw: string,
  path: string,
  field: string,
): { iban: string; other?: undefined } | { iban?: undefined; other: string } {
  const iban = IBAN.test(raw) ? raw : raw.replace(/\s+/g, '').toUpperCase();
  if (IBAN.test(iban)) return { iban };
  ctx.report({
    code: 'ACCOUNT_NOT_IBAN',
    severity: 'warning',
    location: { path: resolve(ctx, path) },
    field,
    message: 'account number is not in IBAN form; written as Othr/Id',
  });
  return { other: required(ctx, raw, 34, `${path}/Othr/Id`, field) };
}

export function bic(ctx: ComposeContext, raw: string | undefined, path: string, field: string): string | undefined {
  if (raw === undefined) return undefined;
  if (ctx.dialect.bicPattern.test(raw)) return raw;
  if (raw.trim() === '') return undefined;
  const value = raw.trim().toUpperCase();
  if (ctx.dialect.bicPattern.test(value)) return value;
  ctx.report({
    code: 'BIC_OMITTED',
    severity: 'warning',
    location: { path: resolve(ctx, path).replace('{BIC}', ctx.dialect.bicElement) },
    field,
    message: `"${value.slice(0, 20)}" is not a BIC the camt.053.${ctx.dialect.version} schema accepts; left out`,
  });
  return undefined;
}

// Printable ASCII without leading or trailing space: nothing to clean, trim or report.
export const CLEAN_TEXT = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

export function text(
  ctx: ComposeContext,
  value: string | undefined,
  max: number,
  path: string,
  field: string,
): string | undefined {
  if (value === undefined) return undefined;
  if (value.length <= max && CLEAN_TEXT.test(value)) return value;
  const prepared = prepareText(value, max);
  for (const change of prepared.changes) ctx.report(textIssue(change, resolve(ctx, path), field, max));
  return prepared.text;
}

export function required(
  ctx: ComposeContext,
  value: string | undefined,
  max: number,
  path: string,
  field: string,
): string {
  const prepared = text(ctx, value, max, path, field);
  if (prepared !== undefined) return prepared;
  ctx.report(requiredTextIssue(resolve(ctx, path), field));
  return 'NOTPROVIDED';
}

/** "~/X" is relative to the entry being written. */
function resolve(ctx: ComposeContext, path: string): string {
  return path.startsWith('~/') ? `${ctx.entriesAt ?? STMT}/Ntry[${ctx.entryIndex}]${path.slice(1)}` : path;
}

/**
 * An id of an entry or transaction (Max35Text): never cut (src/formats/xml/identifier.ts). A
 * stand-in is added to `own`, spelled out in the element's additional info, and to the document's list.
 */
export function entryId(
  ctx: ComposeContext,
  value: string | undefined,
  element: string,
  own: StandIn[],
): string | undefined {
  const before = own.length;
  const written = identifier(value, 35, element, own);
  if (own.length > before) ctx.standIns?.push(...own.slice(before));
  return written;
}

/**
 * AddtlNtryInf / AddtlTxInf (Max500Text): the bank's text, then what the element's stand-ins
 * stand for; the text gives way to the ids when both do not fit.
 */
export function additionalInfo(
  ctx: ComposeContext,
  info: string | undefined,
  own: readonly StandIn[],
  path: string,
  field: string,
): string | undefined {
  const ids = standInText(own);
  if (ids === undefined) return text(ctx, info, 500, path, field);
  const bank = text(ctx, info, Math.max(1, 500 - ids.length - 1), path, field);
  return text(ctx, bank === undefined ? ids : `${bank} ${ids}`, 500, path, field);
}
