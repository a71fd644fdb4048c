// The hot path: one Ntry rendered straight to text. A statement can hold a million entries, and
// going through the element-by-element writer costs about three times what the text itself does
// (bench/camt053.ts). The output is the same bytes the reference composition gives through
// xmlbuilder2 (test/formats/writers/xml-identity.test.ts, fixtures and fuzzed values), so the
// element order here must follow compose.ts and the XSDs; docs/formats/camt053.md has the mapping.
// Entries sit at depth 3 (Document/BkToCstmrStmt/Stmt/Ntry), indented by two spaces per level.
import { formatMinor } from '../../domain/money.js';
import { currencyExponent } from '../../domain/currency.js';
import type { BankTransactionCode, StatementEntry } from '../../domain/statement.js';
import { escapeAttribute, escapeText } from '../xml/text.js';
import { accountIdValue, bic, required, text, type ComposeContext } from './compose.js';

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

/** The Ntry element with its leading line break; `ctx.entryIndex` must be set by the caller. */
export function renderEntry(entry: StatementEntry, ctx: ComposeContext): string {
  const { dialect } = ctx;
  const credit = entry.amount.minor >= 0n;
  const indicator = credit ? 'CRDT' : 'DBIT';
  const amountXml = `<Amt Ccy="${escapeAttribute(entry.amount.currency)}">${escapeText(amountText(entry.amount.minor, entry.amount.currency))}</Amt>`;
  let out = `${I3}<Ntry>${I4}${amountXml}${I4}<CdtDbtInd>${indicator}</CdtDbtInd>`;
  if (entry.reversal === true) out += `${I4}<RvslInd>true</RvslInd>`;
  out += dialect.statusAsCode ? `${I4}<Sts>${I5}<Cd>BOOK</Cd>${I4}</Sts>` : `${I4}<Sts>BOOK</Sts>`;
  out += `${I4}<BookgDt>${I5}<Dt>${escapeText(entry.bookingDate)}</Dt>${I4}</BookgDt>`;
  if (entry.valueDate !== undefined) out += `${I4}<ValDt>${I5}<Dt>${escapeText(entry.valueDate)}</Dt>${I4}</ValDt>`;
  const servicerRef = text(ctx, entry.accountServicerRef, 35, '~/AcctSvcrRef', 'accountServicerRef');
  if (servicerRef !== undefined) out += `${I4}<AcctSvcrRef>${escapeText(servicerRef)}</AcctSvcrRef>`;
  out += bankTransactionCode(ctx, entry.bankTransactionCode, credit);

  const endToEndId = text(ctx, entry.endToEndId, 35, '~/NtryDtls/TxDtls/Refs/EndToEndId', 'endToEndId');
  const party = entry.counterparty;
  const role = credit ? 'Dbtr' : 'Cdtr';
  const partyName = text(
    ctx,
    party?.name,
    140,
    credit ? '~/NtryDtls/TxDtls/RltdPties/Dbtr/Nm' : '~/NtryDtls/TxDtls/RltdPties/Cdtr/Nm',
    'counterparty.name',
  );
  const partyIban = party?.iban === undefined ? undefined : party.iban.replace(/\s+/g, '').toUpperCase();
  const agentBic = bic(
    ctx,
    party?.bic,
    credit
      ? '~/NtryDtls/TxDtls/RltdAgts/DbtrAgt/FinInstnId/{BIC}'
      : '~/NtryDtls/TxDtls/RltdAgts/CdtrAgt/FinInstnId/{BIC}',
    'counterparty.bic',
  );
  const ustrd = text(
    ctx,
    entry.remittance?.unstructured,
    140,
    '~/NtryDtls/TxDtls/RmtInf/Ustrd',
    'remittance.unstructured',
  );
  const reference = text(
    ctx,
    entry.remittance?.creditorReference,
    35,
    '~/NtryDtls/TxDtls/RmtInf/Strd/CdtrRefInf/Ref',
    'remittance.creditorReference',
  );
  const hasIban = partyIban !== undefined && partyIban !== '';
  const hasParty = partyName !== undefined || hasIban;
  if (
    endToEndId !== undefined ||
    hasParty ||
    agentBic !== undefined ||
    ustrd !== undefined ||
    reference !== undefined ||
    dialect.transactionAmount
  ) {
    out += `${I4}<NtryDtls>${I5}<TxDtls>`;
    if (endToEndId !== undefined)
      out += `${I6}<Refs>${I7}<EndToEndId>${escapeText(endToEndId)}</EndToEndId>${I6}</Refs>`;
    if (dialect.transactionAmount) out += `${I6}${amountXml}${I6}<CdtDbtInd>${indicator}</CdtDbtInd>`;
    if (hasParty) {
      out += `${I6}<RltdPties>`;
      if (partyName !== undefined) {
        out += dialect.partyInPty
          ? `${I7}<${role}>${I8}<Pty>${I9}<Nm>${escapeText(partyName)}</Nm>${I8}</Pty>${I7}</${role}>`
          : `${I7}<${role}>${I8}<Nm>${escapeText(partyName)}</Nm>${I7}</${role}>`;
      }
      if (hasIban) {
        const id = accountIdValue(
          ctx,
          partyIban,
          credit ? '~/NtryDtls/TxDtls/RltdPties/DbtrAcct/Id' : '~/NtryDtls/TxDtls/RltdPties/CdtrAcct/Id',
          'counterparty.iban',
        );
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
        out += `${I7}<Strd>${I8}<CdtrRefInf>${I9}<Tp>${I10}<CdOrPrtry>${I11}<Cd>SCOR</Cd>${I10}</CdOrPrtry>${I9}</Tp>${I9}<Ref>${escapeText(reference)}</Ref>${I8}</CdtrRefInf>${I7}</Strd>`;
      }
      out += `${I6}</RmtInf>`;
    }
    out += `${I5}</TxDtls>${I4}</NtryDtls>`;
  }
  const info = text(ctx, entry.additionalInfo, 500, '~/AddtlNtryInf', 'additionalInfo');
  if (info !== undefined) out += `${I4}<AddtlNtryInf>${escapeText(info)}</AddtlNtryInf>`;
  return out + `${I3}</Ntry>`;
}

function bankTransactionCode(ctx: ComposeContext, code: BankTransactionCode | undefined, credit: boolean): string {
  if (code !== undefined && 'proprietary' in code) {
    const cdText = required(ctx, code.proprietary, 35, '~/BkTxCd/Prtry/Cd', 'bankTransactionCode');
    const issuer = text(ctx, code.issuer, 35, '~/BkTxCd/Prtry/Issr', 'bankTransactionCode.issuer');
    return `${I4}<BkTxCd>${I5}<Prtry>${I6}<Cd>${escapeText(cdText)}</Cd>${issuer === undefined ? '' : `${I6}<Issr>${escapeText(issuer)}</Issr>`}${I5}</Prtry>${I4}</BkTxCd>`;
  }
  const domain = code?.domain ?? 'PMNT';
  const family = code?.family ?? (credit ? 'MCOP' : 'MDOP');
  const subFamily = code?.subFamily ?? 'OTHR';
  return `${I4}<BkTxCd>${I5}<Domn>${I6}<Cd>${escapeText(domain)}</Cd>${I6}<Fmly>${I7}<Cd>${escapeText(family)}</Cd>${I7}<SubFmlyCd>${escapeText(subFamily)}</SubFmlyCd>${I6}</Fmly>${I5}</Domn>${I4}</BkTxCd>`;
}
