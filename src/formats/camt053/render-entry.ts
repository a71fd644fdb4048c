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
import { REFERENCE_FIELDS, returnReasonCode, transactionsOf } from './transactions.js';

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

const exponents = new Map<string, number>();
function amountText(minor: bigint, currency: string): string {
  let exponent = exponents.get(currency);
  if (exponent === undefined) {
    exponent = currencyExponent(currency) ?? 2;
    exponents.set(currency, exponent);
  }
  return formatMinor(minor < 0n ? -minor : minor, exponent);
}

function absolute(amount: Money): Money {
  return amount.minor < 0n ? { minor: -amount.minor, currency: amount.currency } : amount;
}

/** The Ntry element with its leading line break; `ctx.entryIndex` must be set by the caller. */
export function renderEntry(entry: StatementEntry, ctx: ComposeContext): string {
  const { dialect } = ctx;
  const credit = entry.amount.minor >= 0n;
  const indicator = credit ? 'CRDT' : 'DBIT';
  const amountXml = amountElement('Amt', entry.amount);
  let out = `${I3}<Ntry>`;
  // The entry's own ids that had to be written as stand-ins: spelled out in AddtlNtryInf.
  const own: StandIn[] = [];
  const entryRef = entryId(ctx, entry.entryReference, 'NtryRef', own);
  if (entryRef !== undefined) out += `${I4}<NtryRef>${escapeText(entryRef)}</NtryRef>`;
  out += `${I4}${amountXml}${I4}<CdtDbtInd>${indicator}</CdtDbtInd>`;
  if (entry.reversal === true) out += `${I4}<RvslInd>true</RvslInd>`;
  out += dialect.statusAsCode ? `${I4}<Sts>${I5}<Cd>BOOK</Cd>${I4}</Sts>` : `${I4}<Sts>BOOK</Sts>`;
  out += `${I4}<BookgDt>${I5}<Dt>${escapeText(entry.bookingDate)}</Dt>${I4}</BookgDt>`;
  if (entry.valueDate !== undefined) out += `${I4}<ValDt>${I5}<Dt>${escapeText(entry.valueDate)}</Dt>${I4}</ValDt>`;
  const servicerRef = entryId(ctx, entry.accountServicerRef, 'AcctSvcrRef', own);
  if (servicerRef !== undefined) out += `${I4}<AcctSvcrRef>${escapeText(servicerRef)}</AcctSvcrRef>`;
  out += bankTransactionCode(
    ctx,
    entry.bankTransactionCode ?? defaultBankTransactionCode(entry.amount),
    entry.proprietaryBankTransactionCode,
  );

  const details = transactionsOf(entry);
  const batch = entry.batch === undefined ? '' : renderBatch(entry.batch, ctx, own);
  const rendered = details.map((detail, i) =>
    renderTransaction(detail, {
      entry,
      ctx,
      path: details.length === 1 ? '~/NtryDtls/TxDtls' : `~/NtryDtls/TxDtls[${i + 1}]`,
    }),
  );
  const body = batch + rendered.join('');
  if (body !== '') out += `${I4}<NtryDtls>${body}${I4}</NtryDtls>`;
  const info = additionalInfo(ctx, entry.additionalInfo, own, '~/AddtlNtryInf', 'additionalInfo');
  if (info !== undefined) out += `${I4}<AddtlNtryInf>${escapeText(info)}</AddtlNtryInf>`;
  return out + `${I3}</Ntry>`;
}

function amountElement(name: string, amount: Money): string {
  return `<${name} Ccy="${escapeAttribute(amount.currency)}">${escapeText(amountText(amount.minor, amount.currency))}</${name}>`;
}

function renderBatch(batch: BatchInformation, ctx: ComposeContext, own: StandIn[]): string {
  let out = `${I5}<Btch>`;
  const messageId = entryId(ctx, batch.messageId, 'Btch/MsgId', own);
  if (messageId !== undefined) out += `${I6}<MsgId>${escapeText(messageId)}</MsgId>`;
  const pmtInfId = entryId(ctx, batch.paymentInformationId, 'Btch/PmtInfId', own);
  if (pmtInfId !== undefined) out += `${I6}<PmtInfId>${escapeText(pmtInfId)}</PmtInfId>`;
  out += `${I6}<NbOfTxs>${batch.count}</NbOfTxs>${I6}${amountElement('TtlAmt', batch.total)}`;
  out += `${I6}<CdtDbtInd>${batch.total.minor < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd>`;
  return out + `${I5}</Btch>`;
}

interface TransactionContext {
  entry: StatementEntry;
  ctx: ComposeContext;
  /** "~/NtryDtls/TxDtls", or with a position when the entry has several. */
  path: string;
}

/** One TxDtls, or nothing when there is nothing to say (.02 has no amount of its own there). */
function renderTransaction(detail: TransactionDetails, { entry, ctx, path }: TransactionContext): string {
  const { dialect } = ctx;
  const amount = detail.amount ?? entry.amount;
  const credit = amount.minor >= 0n;
  const own: StandIn[] = [];
  const refs = renderRefs(detail.refs, ctx, own);
  const instructed = amountDetails(detail, dialect.transactionAmount);
  const party = detail.counterparty;
  const role = credit ? 'Dbtr' : 'Cdtr';
  const partyName = text(ctx, party?.name, 140, `${path}/RltdPties/${role}/Nm`, 'counterparty.name');
  const partyIban = party?.iban === undefined ? undefined : party.iban.replace(/\s+/g, '').toUpperCase();
  const agentBic = bic(ctx, party?.bic, `${path}/RltdAgts/${role}Agt/FinInstnId/{BIC}`, 'counterparty.bic');
  const ustrd = text(ctx, detail.remittance?.unstructured, 140, `${path}/RmtInf/Ustrd`, 'remittance.unstructured');
  const reference = text(
    ctx,
    detail.remittance?.creditorReference,
    35,
    `${path}/RmtInf/Strd/CdtrRefInf/Ref`,
    'remittance.creditorReference',
  );
  const returned = detail.returnReason === undefined ? '' : renderReturn(detail.returnReason, ctx, path);
  const info = additionalInfo(ctx, undefined, own, `${path}/AddtlTxInf`, 'refs');
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
        ? `${I7}<${role}>${I8}<Pty>${I9}<Nm>${escapeText(partyName)}</Nm>${I8}</Pty>${I7}</${role}>`
        : `${I7}<${role}>${I8}<Nm>${escapeText(partyName)}</Nm>${I7}</${role}>`;
    }
    if (hasIban) {
      const id = accountIdValue(ctx, partyIban, `${path}/RltdPties/${role}Acct/Id`, 'counterparty.iban');
      const inner =
        id.iban !== undefined
          ? `${I9}<IBAN>${escapeText(id.iban)}</IBAN>`
          : `${I9}<Othr>${I10}<Id>${escapeText(id.other)}</Id>${I9}</Othr>`;
      out += `${I7}<${role}Acct>${I8}<Id>${inner}${I8}</Id>${I7}</${role}Acct>`;
    }
    out += `${I6}</RltdPties>`;
  }
  if (agentBic !== undefined) {
    const b = dialect.bicElement;
    out += `${I6}<RltdAgts>${I7}<${role}Agt>${I8}<FinInstnId>${I9}<${b}>${escapeText(agentBic)}</${b}>${I8}</FinInstnId>${I7}</${role}Agt>${I6}</RltdAgts>`;
  }
  if (ustrd !== undefined || reference !== undefined) {
    out += `${I6}<RmtInf>`;
    if (ustrd !== undefined) out += `${I7}<Ustrd>${escapeText(ustrd)}</Ustrd>`;
    if (reference !== undefined) {
      // An RF reference (ISO 11649) names ISO as its issuer.
      const issuer = detail.remittance?.creditorReferenceKind === 'RF' ? `${I10}<Issr>ISO</Issr>` : '';
      out += `${I7}<Strd>${I8}<CdtrRefInf>${I9}<Tp>${I10}<CdOrPrtry>${I11}<Cd>SCOR</Cd>${I10}</CdOrPrtry>${issuer}${I9}</Tp>${I9}<Ref>${escapeText(reference)}</Ref>${I8}</CdtrRefInf>${I7}</Strd>`;
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
function renderRefs(refs: TransactionReferences | undefined, ctx: ComposeContext, own: StandIn[]): string {
  if (refs === undefined) return '';
  let out = '';
  for (const [element, field] of REFERENCE_FIELDS) {
    const value = entryId(ctx, refs[field], element, own);
    if (value !== undefined) out += `${I7}<${element}>${escapeText(value)}</${element}>`;
  }
  const bankPaymentId = entryId(ctx, refs.bankPaymentId, 'Prtry/Ref', own);
  if (bankPaymentId !== undefined)
    out += `${I7}<Prtry>${I8}<Tp>BankPaymentId</Tp>${I8}<Ref>${escapeText(bankPaymentId)}</Ref>${I7}</Prtry>`;
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
  const ownText = text(ctx, own, 35, '~/BkTxCd/Prtry/Cd', 'proprietaryBankTransactionCode');
  const prtry = ownText === undefined ? '' : `${I5}<Prtry>${I6}<Cd>${escapeText(ownText)}</Cd>${I5}</Prtry>`;
  return `${I4}<BkTxCd>${I5}<Domn>${I6}<Cd>${escapeText(domain)}</Cd>${I6}<Fmly>${I7}<Cd>${escapeText(family)}</Cd>${I7}<SubFmlyCd>${escapeText(subFamily)}</SubFmlyCd>${I6}</Fmly>${I5}</Domn>${prtry}${I4}</BkTxCd>`;
}
