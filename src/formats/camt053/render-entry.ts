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

// Line breaks and indentation are written into the literals (\n and two spaces a level), not
// joined from constants: every joined piece is one more string for V8 to link, flatten and
// collect, and the constant parts of a literal cost nothing per entry.

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
  let out = `\n      <Ntry>`;
  const entryRef = idXml(ctx, entry.entryReference, 'NtryRef', own);
  if (entryRef !== undefined) out += `\n        <NtryRef>${entryRef}</NtryRef>`;
  out += `\n        ${amountElement('Amt', amount)}\n        <CdtDbtInd>${amount.minor >= 0n ? 'CRDT' : 'DBIT'}</CdtDbtInd>`;
  if (entry.reversal === true) out += `\n        <RvslInd>true</RvslInd>`;
  out += dialect.statusAsCode
    ? `\n        <Sts>\n          <Cd>BOOK</Cd>\n        </Sts>`
    : `\n        <Sts>BOOK</Sts>`;
  out += `\n        <BookgDt>\n          <Dt>${escapeText(entry.bookingDate)}</Dt>\n        </BookgDt>`;
  if (entry.valueDate !== undefined)
    out += `\n        <ValDt>\n          <Dt>${escapeText(entry.valueDate)}</Dt>\n        </ValDt>`;
  const servicerRef = idXml(ctx, entry.accountServicerRef, 'AcctSvcrRef', own);
  if (servicerRef !== undefined) out += `\n        <AcctSvcrRef>${servicerRef}</AcctSvcrRef>`;
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
  if (body !== '') out += `\n        <NtryDtls>${body}\n        </NtryDtls>`;
  const info =
    entry.additionalInfo === undefined && own.length === 0
      ? undefined
      : additionalInfo(ctx, entry.additionalInfo, own, '~/AddtlNtryInf', 'additionalInfo');
  if (info !== undefined) out += `\n        <AddtlNtryInf>${escapeText(info)}</AddtlNtryInf>`;
  return out + `\n      </Ntry>`;
}

function amountElement(name: string, amount: Money): string {
  const { exponent, ccy } = currencyOf(amount.currency);
  const minor = amount.minor;
  // Digits and a point: nothing to escape.
  return `<${name}${ccy}${formatMinor(minor < 0n ? -minor : minor, exponent)}</${name}>`;
}

function renderBatch(batch: BatchInformation, ctx: ComposeContext, own: StandIn[]): string {
  let out = `\n          <Btch>`;
  const messageId = idXml(ctx, batch.messageId, 'Btch/MsgId', own);
  if (messageId !== undefined) out += `\n            <MsgId>${messageId}</MsgId>`;
  const pmtInfId = idXml(ctx, batch.paymentInformationId, 'Btch/PmtInfId', own);
  if (pmtInfId !== undefined) out += `\n            <PmtInfId>${pmtInfId}</PmtInfId>`;
  out += `\n            <NbOfTxs>${batch.count}</NbOfTxs>\n            ${amountElement('TtlAmt', batch.total)}`;
  out += `\n            <CdtDbtInd>${batch.total.minor < 0n ? 'DBIT' : 'CRDT'}</CdtDbtInd>`;
  return out + `\n          </Btch>`;
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
  const plainIban = rawIban !== undefined && PLAIN_IBAN.test(rawIban);
  const partyIban = rawIban === undefined || plainIban ? rawIban : rawIban.replace(/\s+/g, '').toUpperCase();
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
  let out = `\n          <TxDtls>${refs}`;
  if (dialect.transactionAmount)
    out += `\n            ${amountElement('Amt', amount)}\n            <CdtDbtInd>${credit ? 'CRDT' : 'DBIT'}</CdtDbtInd>`;
  out += instructed;
  if (hasParty) {
    out += `\n            <RltdPties>`;
    if (partyName !== undefined) {
      out += dialect.partyInPty
        ? `\n              <${role}>\n                <Pty>\n                  <Nm>${partyName}</Nm>\n                </Pty>\n              </${role}>`
        : `\n              <${role}>\n                <Nm>${partyName}</Nm>\n              </${role}>`;
    }
    if (hasIban) {
      let inner: string;
      if (plainIban) {
        inner = `\n                  <IBAN>${partyIban}</IBAN>`;
      } else {
        const id = accountIdValue(ctx, partyIban, `${path}/RltdPties/${role}Acct/Id`, 'counterparty.iban');
        inner =
          id.iban !== undefined
            ? `\n                  <IBAN>${escapeText(id.iban)}</IBAN>`
            : `\n                  <Othr>\n                    <Id>${escapeText(id.other)}</Id>\n                  </Othr>`;
      }
      out += `\n              <${role}Acct>\n                <Id>${inner}\n                </Id>\n              </${role}Acct>`;
    }
    out += `\n            </RltdPties>`;
  }
  if (agentBic !== undefined) {
    const b = dialect.bicElement;
    out += `\n            <RltdAgts>\n              <${role}Agt>\n                <FinInstnId>\n                  <${b}>${agentBic}</${b}>\n                </FinInstnId>\n              </${role}Agt>\n            </RltdAgts>`;
  }
  if (ustrd !== undefined || reference !== undefined) {
    out += `\n            <RmtInf>`;
    if (ustrd !== undefined) out += `\n              <Ustrd>${ustrd}</Ustrd>`;
    if (reference !== undefined) {
      // An RF reference (ISO 11649) names ISO as its issuer.
      const issuer = remittance?.creditorReferenceKind === 'RF' ? `\n                    <Issr>ISO</Issr>` : '';
      out += `\n              <Strd>\n                <CdtrRefInf>\n                  <Tp>\n                    <CdOrPrtry>\n                      <Cd>SCOR</Cd>\n                    </CdOrPrtry>${issuer}\n                  </Tp>\n                  <Ref>${reference}</Ref>\n                </CdtrRefInf>\n              </Strd>`;
    }
    out += `\n            </RmtInf>`;
  }
  const addtl = info === undefined ? '' : `\n            <AddtlTxInf>${escapeText(info)}</AddtlTxInf>`;
  return out + returned + addtl + `\n          </TxDtls>`;
}

/**
 * AmtDtls: the amount as instructed, when the bank reports it, and in .02 (whose TxDtls has no
 * Amt) a line's own amount when it is not the entry's (a batch line), as TxAmt.
 */
function amountDetails(detail: TransactionDetails, transactionAmount: boolean): string {
  const instructed =
    detail.instructedAmount === undefined
      ? ''
      : `\n              <InstdAmt>\n                ${amountElement('Amt', absolute(detail.instructedAmount))}\n              </InstdAmt>`;
  const line =
    transactionAmount || detail.amount === undefined
      ? ''
      : `\n              <TxAmt>\n                ${amountElement('Amt', detail.amount)}\n              </TxAmt>`;
  return instructed === '' && line === '' ? '' : `\n            <AmtDtls>${instructed}${line}\n            </AmtDtls>`;
}

/** Refs in schema order, the bank's payment id as Prtry last; "" when no id is known. */
function renderRefs(refs: TransactionReferences, ctx: ComposeContext, own: StandIn[]): string {
  let out = '';
  for (const [element, field] of REFERENCE_FIELDS) {
    const value = idXml(ctx, refs[field], element, own);
    if (value !== undefined) out += `\n              <${element}>${value}</${element}>`;
  }
  const bankPaymentId = idXml(ctx, refs.bankPaymentId, 'Prtry/Ref', own);
  if (bankPaymentId !== undefined)
    out += `\n              <Prtry>\n                <Tp>BankPaymentId</Tp>\n                <Ref>${bankPaymentId}</Ref>\n              </Prtry>`;
  return out === '' ? '' : `\n            <Refs>${out}\n            </Refs>`;
}

function renderReturn(reason: ReturnReason, ctx: ComposeContext, path: string): string {
  const rsn = returnReasonCode(reason.code);
  const info = text(ctx, reason.additionalInfo, 105, `${path}/RtrInf/AddtlInf`, 'returnReason.additionalInfo');
  if (rsn === undefined && info === undefined) return '';
  let out = `\n            <RtrInf>`;
  if (rsn !== undefined) {
    const value = text(ctx, rsn.value, 35, `${path}/RtrInf/Rsn/${rsn.element}`, 'returnReason.code')!;
    out += `\n              <Rsn>\n                <${rsn.element}>${escapeText(value)}</${rsn.element}>\n              </Rsn>`;
  }
  if (info !== undefined) out += `\n              <AddtlInf>${escapeText(info)}</AddtlInf>`;
  return out + `\n            </RtrInf>`;
}

function bankTransactionCode(ctx: ComposeContext, code: BankTransactionCode, own?: string): string {
  if ('proprietary' in code) {
    const cdText = required(ctx, code.proprietary, 35, '~/BkTxCd/Prtry/Cd', 'bankTransactionCode');
    const issuer = text(ctx, code.issuer, 35, '~/BkTxCd/Prtry/Issr', 'bankTransactionCode.issuer');
    return `\n        <BkTxCd>\n          <Prtry>\n            <Cd>${escapeText(cdText)}</Cd>${issuer === undefined ? '' : `\n            <Issr>${escapeText(issuer)}</Issr>`}\n          </Prtry>\n        </BkTxCd>`;
  }
  const { domain, family, subFamily } = code;
  // The bank's own code beside the ISO one: both, as the schema allows (Domn then Prtry).
  const ownText = textXml(ctx, own, 35, '~/BkTxCd/Prtry/Cd', OWN_CODE);
  const prtry = ownText === undefined ? '' : `\n          <Prtry>\n            <Cd>${ownText}</Cd>\n          </Prtry>`;
  return `\n        <BkTxCd>\n          <Domn>\n            <Cd>${escapeText(domain)}</Cd>\n            <Fmly>\n              <Cd>${escapeText(family)}</Cd>\n              <SubFmlyCd>${escapeText(subFamily)}</SubFmlyCd>\n            </Fmly>\n          </Domn>${prtry}\n        </BkTxCd>`;
}
