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
import { flat } from '../xml/flat.js';
import type { StandIn } from '../xml/identifier.js';
import { escapeAttribute, escapeText, idAsXml, textAsXml } from '../xml/text.js';
import { accountIdValue, additionalInfo, bic, entryId, required, text, type ComposeContext } from './compose.js';
import { returnReasonCode } from './transactions.js';
import type { Camt053Dialect } from './versions.js';

// Why the renderer is shaped so: V8 builds `a + b` of long strings as a link to both, and the
// writer's consumer flattens every link once more, so each joined piece costs twice; the constant
// parts of a literal cost nothing per entry. So the parts every entry has are one literal, the
// names that depend on the dialect or on the side (Dbtr or Cdtr) sit in constants built once
// (`Layout`) and made flat (a kept string joined from parts would be walked part by part in every
// entry: flat.ts), text that always goes together is one constant, an optional element is one
// `out +=`, and nothing is allocated per entry that is not output
// (docs/decisions/0018-writers-at-the-template.md). Indentation is in the literals: \n and two
// spaces a level.

/** Per currency, once: its exponent and the escaped Ccy attribute with the start tag's end. */
const currencies = new Map<string, { exponent: number; ccy: string }>();
// The last currency asked for: a statement's amounts are mostly in one, and a comparison costs
// less than a map's look-up.
let lastCurrency = '';
let lastKnown = { exponent: 2, ccy: '' };
function currencyOf(currency: string): { exponent: number; ccy: string } {
  if (currency === lastCurrency) return lastKnown;
  let known = currencies.get(currency);
  if (known === undefined) {
    known = { exponent: currencyExponent(currency) ?? 2, ccy: flat(` Ccy="${escapeAttribute(currency)}">`) };
    currencies.set(currency, known);
  }
  lastCurrency = currency;
  lastKnown = known;
  return known;
}

function absolute(amount: Money): Money {
  return amount.minor < 0n ? { minor: -amount.minor, currency: amount.currency } : amount;
}

// An IBAN that needs neither spaces removed nor letters raised, nor any escaping.
const PLAIN_IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{1,30}$/;

/** Where a text field is, below its transaction's path, and the field it comes from: for its issues. */
interface FieldAt {
  under: string;
  field: string;
}
const USTRD: FieldAt = { under: '/RmtInf/Ustrd', field: 'remittance.unstructured' };
const REF: FieldAt = { under: '/RmtInf/Strd/CdtrRefInf/Ref', field: 'remittance.creditorReference' };
const OWN_CODE: FieldAt = { under: '', field: 'proprietaryBankTransactionCode' };

/** The text of a transaction's side, Dbtr (a credit) or Cdtr (a debit), in one dialect. */
interface Side {
  role: 'Dbtr' | 'Cdtr';
  indicator: 'CRDT' | 'DBIT';
  name: FieldAt;
  /** The entry's Amt end tag and CdtDbtInd; the same followed by Sts (no RvslInd between). */
  entryIndicator: string;
  entryIndicatorStatus: string;
  /** RltdPties/{role}/Nm (in Pty in .08) around the name, RltdPties' start tag first. */
  partiesNameOpen: string;
  nameClose: string;
  /** RltdPties/{role}Acct/Id around the account's element. */
  accountOpen: string;
  accountClose: string;
  /** The same around an IBAN, RltdPties' end tag last. */
  ibanOpen: string;
  ibanCloseParties: string;
  /** RltdAgts/{role}Agt/FinInstnId/{BIC or BICFI} around the BIC. */
  agentOpen: string;
  agentClose: string;
}

/** What differs between dialects in an entry's constant text, built once per dialect. */
interface Layout {
  status: string;
  credit: Side;
  debit: Side;
}

function side(dialect: Camt053Dialect, credit: boolean, status: string): Side {
  const role = credit ? 'Dbtr' : 'Cdtr';
  const b = dialect.bicElement;
  const indicator = credit ? 'CRDT' : 'DBIT';
  const accountOpen = `\n              <${role}Acct>\n                <Id>`;
  const accountClose = `\n                </Id>\n              </${role}Acct>`;
  return {
    role,
    indicator,
    name: { under: `/RltdPties/${role}/Nm`, field: 'counterparty.name' },
    entryIndicator: flat(`</Amt>\n        <CdtDbtInd>${indicator}</CdtDbtInd>`),
    entryIndicatorStatus: flat(`</Amt>\n        <CdtDbtInd>${indicator}</CdtDbtInd>${status}`),
    partiesNameOpen: flat(
      dialect.partyInPty
        ? `\n            <RltdPties>\n              <${role}>\n                <Pty>\n                  <Nm>`
        : `\n            <RltdPties>\n              <${role}>\n                <Nm>`,
    ),
    nameClose: flat(
      dialect.partyInPty
        ? `</Nm>\n                </Pty>\n              </${role}>`
        : `</Nm>\n              </${role}>`,
    ),
    accountOpen: flat(accountOpen),
    accountClose: flat(accountClose),
    ibanOpen: flat(`${accountOpen}\n                  <IBAN>`),
    ibanCloseParties: flat(`</IBAN>${accountClose}\n            </RltdPties>`),
    agentOpen: flat(
      `\n            <RltdAgts>\n              <${role}Agt>\n                <FinInstnId>\n                  <${b}>`,
    ),
    agentClose: flat(`</${b}>\n                </FinInstnId>\n              </${role}Agt>\n            </RltdAgts>`),
  };
}

const layouts = new Map<Camt053Dialect, Layout>();
// The last dialect asked for, as the last currency above.
let lastDialect: Camt053Dialect | undefined;
let lastLayout: Layout | undefined;
function layoutOf(dialect: Camt053Dialect): Layout {
  if (dialect === lastDialect) return lastLayout!;
  let layout = layouts.get(dialect);
  if (layout === undefined) {
    const status = dialect.statusAsCode
      ? `\n        <Sts>\n          <Cd>BOOK</Cd>\n        </Sts>`
      : `\n        <Sts>BOOK</Sts>`;
    layout = { status, credit: side(dialect, true, status), debit: side(dialect, false, status) };
    layouts.set(dialect, layout);
  }
  lastDialect = dialect;
  lastLayout = layout;
  return layout;
}

/**
 * A text field (Max`max`Text) as XML: in one scan when it only needs escaping (textAsXml), else
 * prepared (and reported at `path` + `at.under`, joined only then) and escaped.
 */
function textXml(
  ctx: ComposeContext,
  value: string | undefined,
  max: number,
  path: string,
  at: FieldAt,
): string | undefined {
  if (value === undefined) return undefined;
  const xml = textAsXml(value, max);
  if (xml !== undefined) return xml;
  const prepared = text(ctx, value, max, path + at.under, at.field);
  return prepared === undefined ? undefined : escapeText(prepared);
}

/** An id (Max35Text) as XML: in one scan when it fits as it is (idAsXml), else through entryId (stand-ins) and escaped. */
function idXml(ctx: ComposeContext, value: string | undefined, element: string, own: StandIn[]): string | undefined {
  if (value === undefined) return undefined;
  const xml = idAsXml(value, 35);
  if (xml !== undefined) return xml;
  const written = entryId(ctx, value, element, own);
  return written === undefined ? undefined : escapeText(written);
}

// The last counterparty IBAN found plain and the last BIC the dialect's pattern accepted: a
// statement's entries repeat their counterparties' accounts, and a repeat costs one comparison
// instead of a pattern's scan. Only values that passed are kept, so every other value is checked.
let lastPlainIban = '';
let lastBic = '';
let lastBicPattern: RegExp | undefined;

function isPlainIban(iban: string): boolean {
  if (iban === lastPlainIban) return true;
  if (!PLAIN_IBAN.test(iban)) return false;
  lastPlainIban = iban;
  return true;
}

function acceptedBic(pattern: RegExp, value: string): boolean {
  if (value === lastBic && pattern === lastBicPattern) return true;
  if (!pattern.test(value)) return false;
  lastBic = value;
  lastBicPattern = pattern;
  return true;
}

// The stand-ins of the entry being rendered and of its transaction being rendered: rendering is
// synchronous, so one list of each is reused instead of two new arrays per entry.
const entryOwn: StandIn[] = [];
const transactionOwn: StandIn[] = [];

// The one transaction of an entry without a list of its own (singleTransaction's fields), filled
// in per entry rather than built: rendering is synchronous and keeps no reference to it.
const single: TransactionDetails = {};
const singleRefs: TransactionReferences = {};
function singleOf(entry: StatementEntry): TransactionDetails {
  singleRefs.endToEndId = entry.endToEndId;
  single.refs = entry.endToEndId === undefined ? undefined : singleRefs;
  single.counterparty = entry.counterparty;
  single.remittance = entry.remittance;
  return single;
}

/** The Ntry element with its leading line break; `ctx.entryIndex` must be set by the caller. */
export function renderEntry(entry: StatementEntry, ctx: ComposeContext): string {
  const amount = entry.amount;
  const credit = amount.minor >= 0n;
  // The entry's own ids that had to be written as stand-ins: spelled out in AddtlNtryInf.
  const own = entryOwn;
  if (own.length !== 0) own.length = 0;
  const entryRef = idXml(ctx, entry.entryReference, 'NtryRef', own);
  const layout = layoutOf(ctx.dialect);
  const s = credit ? layout.credit : layout.debit;
  // Ntry's start to BookgDt: in every entry, one literal; CdtDbtInd and Sts one constant when no RvslInd is between.
  const head =
    entryRef === undefined
      ? `\n      <Ntry>\n        <Amt`
      : `\n      <Ntry>\n        <NtryRef>${entryRef}</NtryRef>\n        <Amt`;
  let out =
    entry.reversal === true
      ? `${head}${amountXml(amount)}${s.entryIndicator}\n        <RvslInd>true</RvslInd>${layout.status}${bookingXml(entry.bookingDate)}`
      : `${head}${amountXml(amount)}${s.entryIndicatorStatus}${bookingXml(entry.bookingDate)}`;
  if (entry.valueDate !== undefined) out += valueXml(entry.valueDate);
  const servicerRef = idXml(ctx, entry.accountServicerRef, 'AcctSvcrRef', own);
  if (servicerRef !== undefined) out += `\n        <AcctSvcrRef>${servicerRef}</AcctSvcrRef>`;
  out += bankTransactionCode(
    ctx,
    entry.bankTransactionCode ?? defaultBankTransactionCode(amount),
    entry.proprietaryBankTransactionCode,
    credit ? 0 : 1,
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
    body += renderTransaction(singleOf(entry), entry, ctx, '~/NtryDtls/TxDtls');
  }
  const info =
    entry.additionalInfo === undefined && own.length === 0
      ? undefined
      : additionalInfo(ctx, entry.additionalInfo, own, '~/AddtlNtryInf', 'additionalInfo');
  if (info === undefined)
    return body === ''
      ? out + `\n      </Ntry>`
      : `${out}\n        <NtryDtls>${body}\n        </NtryDtls>\n      </Ntry>`;
  if (body !== '') out += `\n        <NtryDtls>${body}\n        </NtryDtls>`;
  return `${out}\n        <AddtlNtryInf>${escapeText(info)}</AddtlNtryInf>\n      </Ntry>`;
}

// The last BookgDt and ValDt written: a statement's entries mostly share their dates, and a
// repeated date costs one comparison instead of an escape and three joined pieces.
function dateElement(name: 'BookgDt' | 'ValDt'): (date: string) => string {
  let last: string | undefined;
  let xml = '';
  let flattened = false;
  return (date) => {
    if (date !== last) {
      xml = `\n        <${name}>\n          <Dt>${escapeText(date)}</Dt>\n        </${name}>`;
      last = date;
      flattened = false;
    } else if (!flattened) {
      // Made one piece once it is written again, not for a date that may not come back.
      xml = flat(xml);
      flattened = true;
    }
    return xml;
  };
}
const bookingXml = dateElement('BookgDt');
const valueXml = dateElement('ValDt');

/** An amount's Ccy attribute, the start tag's end and the absolute amount: `<Amt${…}</Amt>`. */
function amountXml(amount: Money): string {
  const { exponent, ccy } = currencyOf(amount.currency);
  const minor = amount.minor;
  // Digits and a point: nothing to escape.
  return ccy + formatMinor(minor < 0n ? -minor : minor, exponent);
}

function renderBatch(batch: BatchInformation, ctx: ComposeContext, own: StandIn[]): string {
  let out = `\n          <Btch>`;
  const messageId = idXml(ctx, batch.messageId, 'Btch/MsgId', own);
  if (messageId !== undefined) out += `\n            <MsgId>${messageId}</MsgId>`;
  const pmtInfId = idXml(ctx, batch.paymentInformationId, 'Btch/PmtInfId', own);
  if (pmtInfId !== undefined) out += `\n            <PmtInfId>${pmtInfId}</PmtInfId>`;
  out += `\n            <NbOfTxs>${batch.count}</NbOfTxs>\n            <TtlAmt${amountXml(batch.total)}</TtlAmt>`;
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
  const layout = layoutOf(dialect);
  const s = amount.minor >= 0n ? layout.credit : layout.debit;
  const own = transactionOwn;
  if (own.length !== 0) own.length = 0;
  const refs = detail.refs === undefined ? '' : renderRefs(detail.refs, ctx, own);
  const instructed =
    detail.instructedAmount === undefined && (dialect.transactionAmount || detail.amount === undefined)
      ? ''
      : amountDetails(detail, dialect.transactionAmount);
  const party = detail.counterparty;
  const partyName = textXml(ctx, party?.name, 140, path, s.name);
  const rawIban = party?.iban;
  const plainIban = rawIban !== undefined && isPlainIban(rawIban);
  const partyIban = rawIban === undefined || plainIban ? rawIban : rawIban.replace(/\s+/g, '').toUpperCase();
  const rawBic = party?.bic;
  // A BIC the dialect's pattern accepts is capitals and digits: nothing to check or escape.
  const agentBic =
    rawBic === undefined || acceptedBic(dialect.bicPattern, rawBic)
      ? rawBic
      : bic(ctx, rawBic, `${path}/RltdAgts/${s.role}Agt/FinInstnId/{BIC}`, 'counterparty.bic');
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
    out += `\n            <Amt${amountXml(amount)}</Amt>\n            <CdtDbtInd>${s.indicator}</CdtDbtInd>`;
  out += instructed;
  if (hasParty) {
    out += partyName === undefined ? `\n            <RltdPties>` : `${s.partiesNameOpen}${partyName}${s.nameClose}`;
    if (plainIban) {
      out += `${s.ibanOpen}${partyIban}${s.ibanCloseParties}`;
    } else if (hasIban) {
      const id = accountIdValue(ctx, partyIban, `${path}/RltdPties/${s.role}Acct/Id`, 'counterparty.iban');
      out +=
        id.iban !== undefined
          ? `${s.accountOpen}\n                  <IBAN>${escapeText(id.iban)}</IBAN>${s.accountClose}`
          : `${s.accountOpen}\n                  <Othr>\n                    <Id>${escapeText(id.other)}</Id>\n                  </Othr>${s.accountClose}`;
      out += `\n            </RltdPties>`;
    } else {
      out += `\n            </RltdPties>`;
    }
  }
  if (agentBic !== undefined) out += `${s.agentOpen}${agentBic}${s.agentClose}`;
  if (ustrd !== undefined || reference !== undefined) {
    out +=
      ustrd === undefined ? `\n            <RmtInf>` : `\n            <RmtInf>\n              <Ustrd>${ustrd}</Ustrd>`;
    if (reference !== undefined) {
      // An RF reference (ISO 11649) names ISO as its issuer.
      out +=
        remittance?.creditorReferenceKind === 'RF'
          ? `\n              <Strd>\n                <CdtrRefInf>\n                  <Tp>\n                    <CdOrPrtry>\n                      <Cd>SCOR</Cd>\n                    </CdOrPrtry>\n                    <Issr>ISO</Issr>\n                  </Tp>\n                  <Ref>${reference}</Ref>\n                </CdtrRefInf>\n              </Strd>\n            </RmtInf>`
          : `\n              <Strd>\n                <CdtrRefInf>\n                  <Tp>\n                    <CdOrPrtry>\n                      <Cd>SCOR</Cd>\n                    </CdOrPrtry>\n                  </Tp>\n                  <Ref>${reference}</Ref>\n                </CdtrRefInf>\n              </Strd>\n            </RmtInf>`;
    } else {
      out += `\n            </RmtInf>`;
    }
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
      : `\n              <InstdAmt>\n                <Amt${amountXml(absolute(detail.instructedAmount))}</Amt>\n              </InstdAmt>`;
  const line =
    transactionAmount || detail.amount === undefined
      ? ''
      : `\n              <TxAmt>\n                <Amt${amountXml(detail.amount)}</Amt>\n              </TxAmt>`;
  return instructed === '' && line === '' ? '' : `\n            <AmtDtls>${instructed}${line}\n            </AmtDtls>`;
}

/** Refs in schema order (REFERENCE_FIELDS), the bank's payment id as Prtry last; "" when no id is known. */
function renderRefs(refs: TransactionReferences, ctx: ComposeContext, own: StandIn[]): string {
  // Each field read by its name: refs[field] over a list of six names is a megamorphic keyed
  // read, which cost more than the rest of the Refs together. Each element's tags are literal
  // text, one piece each, rather than joined from its name (see flat.ts).
  let out = '';
  const messageId = idXml(ctx, refs.messageId, 'MsgId', own);
  if (messageId !== undefined) out += `\n              <MsgId>${messageId}</MsgId>`;
  const servicerRef = idXml(ctx, refs.accountServicerRef, 'AcctSvcrRef', own);
  if (servicerRef !== undefined) out += `\n              <AcctSvcrRef>${servicerRef}</AcctSvcrRef>`;
  const pmtInfId = idXml(ctx, refs.paymentInformationId, 'PmtInfId', own);
  if (pmtInfId !== undefined) out += `\n              <PmtInfId>${pmtInfId}</PmtInfId>`;
  const instrId = idXml(ctx, refs.instructionId, 'InstrId', own);
  if (instrId !== undefined) out += `\n              <InstrId>${instrId}</InstrId>`;
  const endToEndId = idXml(ctx, refs.endToEndId, 'EndToEndId', own);
  if (endToEndId !== undefined) out += `\n              <EndToEndId>${endToEndId}</EndToEndId>`;
  const txId = idXml(ctx, refs.transactionId, 'TxId', own);
  if (txId !== undefined) out += `\n              <TxId>${txId}</TxId>`;
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

function bankTransactionCode(
  ctx: ComposeContext,
  code: BankTransactionCode,
  own: string | undefined,
  side: 0 | 1,
): string {
  if ('proprietary' in code) {
    const cdText = required(ctx, code.proprietary, 35, '~/BkTxCd/Prtry/Cd', 'bankTransactionCode');
    const issuer = text(ctx, code.issuer, 35, '~/BkTxCd/Prtry/Issr', 'bankTransactionCode.issuer');
    return `\n        <BkTxCd>\n          <Prtry>\n            <Cd>${escapeText(cdText)}</Cd>${issuer === undefined ? '' : `\n            <Issr>${escapeText(issuer)}</Issr>`}\n          </Prtry>\n        </BkTxCd>`;
  }
  const { domain, family, subFamily } = code;
  // The bank's own code beside the ISO one: both, as the schema allows (Domn then Prtry).
  const ownText = textXml(ctx, own, 35, '~/BkTxCd/Prtry/Cd', OWN_CODE);
  if (ownText === undefined) {
    const last = lastCodes[side];
    if (last !== undefined && last.domain === domain && last.family === family && last.subFamily === subFamily) {
      // Made one piece once it is written again (see flat.ts).
      if (!last.flat) {
        last.xml = flat(last.xml);
        last.flat = true;
      }
      return last.xml;
    }
  }
  const prtry = ownText === undefined ? '' : `\n          <Prtry>\n            <Cd>${ownText}</Cd>\n          </Prtry>`;
  const xml = `\n        <BkTxCd>\n          <Domn>\n            <Cd>${escapeText(domain)}</Cd>\n            <Fmly>\n              <Cd>${escapeText(family)}</Cd>\n              <SubFmlyCd>${escapeText(subFamily)}</SubFmlyCd>\n            </Fmly>\n          </Domn>${prtry}\n        </BkTxCd>`;
  if (ownText === undefined) lastCodes[side] = { domain, family, subFamily, xml, flat: false };
  return xml;
}

// The last ISO code written (without the bank's own) as BkTxCd, for a credit (0) and a debit (1):
// a statement's credits mostly share one code and its debits another, and a repeated code costs
// three comparisons instead of three escapes and six joined pieces.
const lastCodes: ({ domain: string; family: string; subFamily: string; xml: string; flat: boolean } | undefined)[] = [
  undefined,
  undefined,
];
