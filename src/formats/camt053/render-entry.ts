// The hot path: one Ntry rendered straight to text. A statement can hold a million entries, and
// going through the element-by-element writer costs about three times what the text itself does
// (bench/camt053.ts). The output is the same bytes the reference composition gives through
// xmlbuilder2 (test/formats/writers/xml-identity.test.ts, fixtures and fuzzed values), so the
// element order here must follow compose.ts and the XSDs; docs/formats/camt053.md has the mapping.
// Entries sit at depth 3 (Document/BkToCstmrStmt/Stmt/Ntry), indented by two spaces per level.
import { formatMinor } from '../../domain/money.js';
import { currencyExponent } from '../../domain/currency.js';
import type { Money } from '../../domain/money.js';
import {
  defaultBankTransactionCode,
  type BankTransactionCode,
  type BatchInformation,
  type ReturnReason,
  type StatementEntry,
  type TransactionDetails,
  type TransactionReferences,
} from '../../domain/statement.js';
import type { StandIn } from '../xml/identifier.js';
import { escapeAttribute, escapeText } from '../xml/text.js';
import { accountIdValue, additionalInfo, bic, entryId, required, text, type ComposeContext } from './compose.js';
import { REFERENCE_FIELDS, returnReasonCode, singleTransaction } from './transactions.js';

const I = Array.from({ length: 13 }, (_, depth) => '\n' + '  '.repeat(depth));
const [, , , I3, I4, I5, I6, I7, I8, I9, I10, I11] = I as [
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];

/** Per currency, once: its exponent and the escaped Ccy attribute with the start tag's end. */
const currencies = new Map<string, { exponent: number; ccy: string }>();
function currencyOf(currency: string): { exponent: number; ccy: string } {
  let known = currencies.get(currency);
  if (known === undefined) {
    known = { exponent: currencyExponent(currency) ?? 2, ccy: ` Ccy="${escapeAttribute(currency)}">` };
    currencies.set(currency, known);
  }
  return known;
}

function absolute(amount: Money): Money {
  return amount.minor < 0n ? { minor: -amount.minor, currency: amount.currency } : amount;
}

// Printable ASCII with nothing to escape (no & < >) and no leading or trailing space: a value
// that matches and fits is written as it is, with no further check, path or copy. This is what
// nearly every field of a real statement is; anything else takes the checked way (text, entryId).
const PLAIN =
  /^[\x21-\x25\x27-\x3b\x3d\x3f-\x7e](?:[\x20-\x25\x27-\x3b\x3d\x3f-\x7e]*[\x21-\x25\x27-\x3b\x3d\x3f-\x7e])?$/;
// An IBAN that needs neither spaces removed nor letters raised, nor any escaping.
const PLAIN_IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/;

/** Where a text field is, below its transaction's path, and the field it comes from: for its issues. */
interface FieldAt {
  under: string;
  field: string;
}
const DBTR_NM: FieldAt = { under: '/RltdPties/Dbtr/Nm', field: 'counterparty.name' };
const CDTR_NM: FieldAt = { under: '/RltdPties/Cdtr/Nm', field: 'counterparty.name' };
const USTRD: FieldAt = { under: '/RmtInf/Ustrd', field: 'remittance.unstructured' };
const REF: FieldAt = { under: '/RmtInf/Strd/CdtrRefInf/Ref', field: 'remittance.creditorReference' };
const OWN_CODE: FieldAt = { under: '', field: 'proprietaryBankTransactionCode' };

/**
 * A text field (Max`max`Text) as XML: as is when plain, else prepared (and reported at `path`
 * + `at.under`, joined only then) and escaped.
 */
function textXml(
  ctx: ComposeContext,
  value: string | undefined,
  max: number,
  path: string,
  at: FieldAt,
): string | undefined {
  if (value === undefined) return undefined;
  if (value.length <= max && PLAIN.test(value)) return value;
  const prepared = text(ctx, value, max, path + at.under, at.field);
  return prepared === undefined ? undefined : escapeText(prepared);
}

/** An id (Max35Text) as XML: as is when plain, else through entryId (stand-ins) and escaped. */
function idXml(ctx: ComposeContext, value: string | undefined, element: string, own: StandIn[]): string | undefined {
  if (value === undefined) return undefined;
  if (value.length <= 35 && PLAIN.test(value)) return value;
  const written = entryId(ctx, value, element, own);
  return written === undefined ? undefined : escapeText(written);
}

// The stand-ins of the entry being rendered and of its transaction being rendered: rendering is
// synchronous, so one list of each is reused instead of two new arrays per entry.
const entryOwn: StandIn[] = [];
const transactionOwn: StandIn[] = [];

/** The Ntry element with its leading line break; `ctx.entryIndex` must be set by the caller. */
export function renderEntry(entry: StatementEntry, ctx: ComposeContext): string {
  const { dialect } = ctx;
  const amount = entry.amount;
  // The entry's own ids that had to be written as stand-ins: spelled out in AddtlNtryInf.
  const own = entryOwn;
  own.length = 0;
  let out = `${I3}<Ntry>`;
  const entryRef = idXml(ctx, entry.entryReference, 'NtryRef', own);
  if (entryRef !== undefined) out += `${I4}<NtryRef>${entryRef}</NtryRef>`;
  out += `${I4}${amountElement('Amt', amount)}${I4}<CdtDbtInd>${amount.minor >= 0n ? 'CRDT' : 'DBIT'}</CdtDbtInd>`;
  if (entry.reversal === true) out += `${I4}<RvslInd>true</RvslInd>`;
  out += dialect.statusAsCode ? `${I4}<Sts>${I5}<Cd>BOOK</Cd>${I4}</Sts>` : `${I4}<Sts>BOOK</Sts>`;
  out += `${I4}<BookgDt>${I5}<Dt>${escapeText(entry.bookingDate)}</Dt>${I4}</BookgDt>`;
  if (entry.valueDate !== undefined) out += `${I4}<ValDt>${I5}<Dt>${escapeText(entry.valueDate)}</Dt>${I4}</ValDt>`;
  const servicerRef = idXml(ctx, entry.accountServicerRef, 'AcctSvcrRef', own);
  if (servicerRef !== undefined) out += `${I4}<AcctSvcrRef>${servicerRef}</AcctSvcrRef>`;
  out += bankTransactionCode(
    ctx,
    entry.bankTransactionCode ?? defaultBankTransactionCode(amount),
    entry.proprietaryBankTransactionCode,
  );

  let body = entry.batch === undefined ? '' : renderBatch(entry.batch, ctx, own);
  const list = entry.transactions;
  if (list !== undefined && list.length > 0) {
    for (let i = 0; i < list.length; i++)
      body += renderTransaction(
        list[i]!,
        entry,
        ctx,
        list.length === 1 ? '~/NtryDtls/TxDtls' : `~/NtryDtls/TxDtls[${i + 1}]`,
      );
  } else {
    body += renderTransaction(singleTransaction(entry), entry, ctx, '~/NtryDtls/TxDtls');
  }
  if (body !== '') out += `${I4}<NtryDtls>${body}${I4}</NtryDtls>`;
  const info =
    entry.additionalInfo === undefined && own.length === 0
      ? undefined
      : additionalInfo(ctx, entry.additionalInfo, own, '~/AddtlNtryInf', 'additionalInfo');
  if (info !== undefined) out += `${I4}<AddtlNtryInf>${escapeText(info)}</AddtlNtryInf>`;
  return out + `${I3}</Ntry>`;
}

function amountElement(name: string, amount: Money): string {
  const { exponent, ccy } = currencyOf(amount.currency);
  const minor = amount.minor;
  // Digits and a point: nothing to escape.
  return `<${name}${ccy}${formatMinor(minor < 0n ? -minor : minor, exponent)}</${name}>`;
}

function renderBatch(batch: BatchInformation, ctx: ComposeContext, own: StandIn[]): string {
  let out = `${I5}<Btch>`;
  const messageId = idXml(ctx, batch.messageId, 'Btch/MsgId', own);
  if (messageId !== undefined) out += `${I6}<MsgId>${messageId}</MsgId>`;
  const pmtInfId = idXml(ctx, batch.paymentInformationId, 'Btch/PmtInfId', own);
  if (pmtInfId !== undefined) out += `${I6}<PmtInfId>${pmtInfId}</PmtInfId>`;
  out += `${I6}<NbOfTxs>${batch.count}</NbOfTxs>${I6}${amountElement('TtlAmt', batch.total)}`;
  out += `${I6}<CdtDbtInd>${batch.total.minor < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd>`;
  return out + `${I5}</Btch>`;
}

/**
 * One TxDtls, or nothing when there is nothing to say (.02 has no amount of its own there).
 * `path` is "~/NtryDtls/TxDtls", or with a position when the entry has several.
 */
function renderTransaction(
  detail: TransactionDetails,
  entry: StatementEntry,
  ctx: ComposeContext,
  path: string,
): string {
  const { dialect } = ctx;
  const amount = detail.amount ?? entry.amount;
  const credit = amount.minor >= 0n;
  const own = transactionOwn;
  own.length = 0;
  const refs = detail.refs === undefined ? '' : renderRefs(detail.refs, ctx, own);
  const instructed =
    detail.instructedAmount === undefined && (dialect.transactionAmount || detail.amount === undefined)
      ? ''
      : amountDetails(detail, dialect.transactionAmount);
  const party = detail.counterparty;
  const role = credit ? 'Dbtr' : 'Cdtr';
  const partyName = textXml(ctx, party?.name, 140, path, credit ? DBTR_NM : CDTR_NM);
  const rawIban = party?.iban;
  const partyIban =
    rawIban === undefined || PLAIN_IBAN.test(rawIban) ? rawIban : rawIban.replace(/\s+/g, '').toUpperCase();
  const rawBic = party?.bic;
  // A BIC the dialect's pattern accepts is capitals and digits: nothing to check or escape.
  const agentBic =
    rawBic === undefined || dialect.bicPattern.test(rawBic)
      ? rawBic
      : bic(ctx, rawBic, `${path}/RltdAgts/${role}Agt/FinInstnId/{BIC}`, 'counterparty.bic');
  const remittance = detail.remittance;
  const ustrd = textXml(ctx, remittance?.unstructured, 140, path, USTRD);
  const reference = textXml(ctx, remittance?.creditorReference, 35, path, REF);
  const returned = detail.returnReason === undefined ? '' : renderReturn(detail.returnReason, ctx, path);
  const info = own.length === 0 ? undefined : additionalInfo(ctx, undefined, own, `${path}/AddtlTxInf`, 'refs');
  const hasIban = partyIban !== undefined && partyIban !== '';
  const hasParty = partyName !== undefined || hasIban;
  if (
    refs === '' &&
    instructed === '' &&
    !hasParty &&
    agentBic === undefined &&
    ustrd === undefined &&
    reference === undefined &&
    returned === '' &&
    info === undefined &&
    !dialect.transactionAmount
  )
    return '';
  let out = `${I5}<TxDtls>${refs}`;
  if (dialect.transactionAmount)
    out += `${I6}${amountElement('Amt', amount)}${I6}<CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>`;
  out += instructed;
  if (hasParty) {
    out += `${I6}<RltdPties>`;
    if (partyName !== undefined) {
      out += dialect.partyInPty
        ? `${I7}<${role}>${I8}<Pty>${I9}<Nm>${partyName}</Nm>${I8}</Pty>${I7}</${role}>`
        : `${I7}<${role}>${I8}<Nm>${partyName}</Nm>${I7}</${role}>`;
    }
    if (hasIban) {
      let inner: string;
      if (PLAIN_IBAN.test(partyIban)) {
        inner = `${I9}<IBAN>${partyIban}</IBAN>`;
      } else {
        const id = accountIdValue(ctx, partyIban, `${path}/RltdPties/${role}Acct/Id`, 'counterparty.iban');
        inner =
          id.iban !== undefined
            ? `${I9}<IBAN>${escapeText(id.iban)}</IBAN>`
            : `${I9}<Othr>${I10}<Id>${escapeText(id.other)}</Id>${I9}</Othr>`;
      }
      out += `${I7}<${role}Acct>${I8}<Id>${inner}${I8}</Id>${I7}</${role}Acct>`;
    }
    out += `${I6}</RltdPties>`;
  }
  if (agentBic !== undefined) {
    const b = dialect.bicElement;
    out += `${I6}<RltdAgts>${I7}<${role}Agt>${I8}<FinInstnId>${I9}<${b}>${agentBic}</${b}>${I8}</FinInstnId>${I7}</${role}Agt>${I6}</RltdAgts>`;
  }
  if (ustrd !== undefined || reference !== undefined) {
    out += `${I6}<RmtInf>`;
    if (ustrd !== undefined) out += `${I7}<Ustrd>${ustrd}</Ustrd>`;
    if (reference !== undefined) {
      // An RF reference (ISO 11649) names ISO as its issuer.
      const issuer = remittance?.creditorReferenceKind === 'RF' ? `${I10}<Issr>ISO</Issr>` : '';
      out += `${I7}<Strd>${I8}<CdtrRefInf>${I9}<Tp>${I10}<CdOrPrtry>${I11}<Cd>SCOR</Cd>${I10}</CdOrPrtry>${issuer}${I9}</Tp>${I9}<Ref>${reference}</Ref>${I8}</CdtrRefInf>${I7}</Strd>`;
    }
    out += `${I6}</RmtInf>`;
  }
  const addtl = info === undefined ? '' : `${I6}<AddtlTxInf>${escapeText(info)}</AddtlTxInf>`;
  return out + returned + addtl + `${I5}</TxDtls>`;
}

/**
 * AmtDtls: the amount as instructed, when the bank reports it, and in .02 (whose TxDtls has no
 * Amt) a line's own amount when it is not the entry's (a batch line), as TxAmt.
 */
function amountDetails(detail: TransactionDetails, transactionAmount: boolean): string {
  const instructed =
    detail.instructedAmount === undefined
      ? ''
      : `${I7}<InstdAmt>${I8}${amountElement('Amt', absolute(detail.instructedAmount))}${I7}</InstdAmt>`;
  const line =
    transactionAmount || detail.amount === undefined
      ? ''
      : `${I7}<TxAmt>${I8}${amountElement('Amt', detail.amount)}${I7}</TxAmt>`;
  return instructed === '' && line === '' ? '' : `${I6}<AmtDtls>${instructed}${line}${I6}</AmtDtls>`;
}

/** Refs in schema order, the bank's payment id as Prtry last; "" when no id is known. */
function renderRefs(refs: TransactionReferences, ctx: ComposeContext, own: StandIn[]): string {
  let out = '';
  for (const [element, field] of REFERENCE_FIELDS) {
    const value = idXml(ctx, refs[field], element, own);
    if (value !== undefined) out += `${I7}<${element}>${value}</${element}>`;
  }
  const bankPaymentId = idXml(ctx, refs.bankPaymentId, 'Prtry/Ref', own);
  if (bankPaymentId !== undefined)
    out += `${I7}<Prtry>${I8}<Tp>BankPaymentId</Tp>${I8}<Ref>${bankPaymentId}</Ref>${I7}</Prtry>`;
  return out === '' ? '' : `${I6}<Refs>${out}${I6}</Refs>`;
}

function renderReturn(reason: ReturnReason, ctx: ComposeContext, path: string): string {
  const rsn = returnReasonCode(reason.code);
  const info = text(ctx, reason.additionalInfo, 105, `${path}/RtrInf/AddtlInf`, 'returnReason.additionalInfo');
  if (rsn === undefined && info === undefined) return '';
  let out = `${I6}<RtrInf>`;
  if (rsn !== undefined) {
    const value = text(ctx, rsn.value, 35, `${path}/RtrInf/Rsn/${rsn.element}`, 'returnReason.code')!;
    out += `${I7}<Rsn>${I8}<${rsn.element}>${escapeText(value)}</${rsn.element}>${I7}</Rsn>`;
  }
  if (info !== undefined) out += `${I7}<AddtlInf>${escapeText(info)}</AddtlInf>`;
  return out + `${I6}</RtrInf>`;
}

function bankTransactionCode(ctx: ComposeContext, code: BankTransactionCode, own?: string): string {
  if ('proprietary' in code) {
    const cdText = required(ctx, code.proprietary, 35, '~/BkTxCd/Prtry/Cd', 'bankTransactionCode');
    const issuer = text(ctx, code.issuer, 35, '~/BkTxCd/Prtry/Issr', 'bankTransactionCode.issuer');
    return `${I4}<BkTxCd>${I5}<Prtry>${I6}<Cd>${escapeText(cdText)}</Cd>${issuer === undefined ? '' : `${I6}<Issr>${escapeText(issuer)}</Issr>`}${I5}</Prtry>${I4}</BkTxCd>`;
  }
  const { domain, family, subFamily } = code;
  // The bank's own code beside the ISO one: both, as the schema allows (Domn then Prtry).
  const ownText = textXml(ctx, own, 35, '~/BkTxCd/Prtry/Cd', OWN_CODE);
  const prtry = ownText === undefined ? '' : `${I5}<Prtry>${I6}<Cd>${ownText}</Cd>${I5}</Prtry>`;
  return `${I4}<BkTxCd>${I5}<Domn>${I6}<Cd>${escapeText(domain)}</Cd>${I6}<Fmly>${I7}<Cd>${escapeText(family)}</Cd>${I7}<SubFmlyCd>${escapeText(subFamily)}</SubFmlyCd>${I6}</Fmly>${I5}</Domn>${prtry}${I4}</BkTxCd>`;
}
