// The reference composition of a camt.053 entry, element by element through an XmlSink. Driven
// into xmlbuilder2 it is what the fast renderer (src/formats/camt053/render-entry.ts) must equal
// byte for byte; two independent writings of the same mapping that agree are the proof.
import { formatAmount } from '../../../src/domain/money.js';
import { absoluteMoney, creditDebit, defaultBankTransactionCode } from '../../../src/domain/statement.js';
import type { Money } from '../../../src/domain/money.js';
import type {
  BankTransactionCode,
  BatchInformation,
  ReturnReason,
  StatementEntry,
  TransactionDetails,
} from '../../../src/domain/statement.js';
import {
  accountId,
  additionalInfo,
  bic,
  entryId,
  required,
  text,
  type ComposeContext,
} from '../../../src/formats/camt053/compose.js';
import type { StandIn } from '../../../src/formats/xml/identifier.js';
import { REFERENCE_FIELDS, returnReasonCode, transactionsOf } from '../../../src/formats/camt053/transactions.js';
import type { XmlSink } from '../../../src/formats/xml/xml-sink.js';

/** Writes one Ntry; `index` is its 1-based position (for issue locations). */
export function composeEntry(sink: XmlSink, entry: StatementEntry, index: number, ctx: ComposeContext): void {
  const { dialect } = ctx;
  ctx.entryIndex = index;
  const indicator = creditDebit(entry.amount);
  sink.open('Ntry');
  const own: StandIn[] = [];
  const entryRef = entryId(ctx, entry.entryReference, 'NtryRef', own);
  if (entryRef !== undefined) sink.leaf('NtryRef', entryRef);
  amountLeaf(sink, 'Amt', entry.amount);
  sink.leaf('CdtDbtInd', indicator);
  if (entry.reversal === true) sink.leaf('RvslInd', 'true');
  if (dialect.statusAsCode) {
    sink.open('Sts');
    sink.leaf('Cd', 'BOOK');
    sink.close();
  } else {
    sink.leaf('Sts', 'BOOK');
  }
  sink.open('BookgDt');
  sink.leaf('Dt', entry.bookingDate);
  sink.close();
  if (entry.valueDate !== undefined) {
    sink.open('ValDt');
    sink.leaf('Dt', entry.valueDate);
    sink.close();
  }
  const servicerRef = entryId(ctx, entry.accountServicerRef, 'AcctSvcrRef', own);
  if (servicerRef !== undefined) sink.leaf('AcctSvcrRef', servicerRef);
  bankTransactionCode(sink, ctx, entry.bankTransactionCode ?? defaultBankTransactionCode(entry.amount));

  // Transaction details: only written when there is something to say.
  const details = transactionsOf(entry);
  const batch = entry.batch === undefined ? undefined : composeBatch(entry.batch, ctx, own);
  const writers = details.flatMap((detail, i) => {
    const path = details.length === 1 ? '~/NtryDtls/TxDtls' : `~/NtryDtls/TxDtls[${i + 1}]`;
    const write = composeTransaction(detail, entry, path, ctx);
    return write === undefined ? [] : [write];
  });
  if (batch !== undefined || writers.length > 0) {
    sink.open('NtryDtls');
    batch?.(sink);
    for (const write of writers) write(sink);
    sink.close();
  }
  const info = additionalInfo(ctx, entry.additionalInfo, own, `~/AddtlNtryInf`, 'additionalInfo');
  if (info !== undefined) sink.leaf('AddtlNtryInf', info);
  sink.close();
}

function amountLeaf(sink: XmlSink, name: string, amount: Money): void {
  sink.leaf(name, formatAmount(absoluteMoney(amount)), 'Ccy', amount.currency);
}

function composeBatch(batch: BatchInformation, ctx: ComposeContext, own: StandIn[]): (sink: XmlSink) => void {
  const messageId = entryId(ctx, batch.messageId, 'Btch/MsgId', own);
  const pmtInfId = entryId(ctx, batch.paymentInformationId, 'Btch/PmtInfId', own);
  return (sink) => {
    sink.open('Btch');
    if (messageId !== undefined) sink.leaf('MsgId', messageId);
    if (pmtInfId !== undefined) sink.leaf('PmtInfId', pmtInfId);
    sink.leaf('NbOfTxs', String(batch.count));
    amountLeaf(sink, 'TtlAmt', batch.total);
    sink.leaf('CdtDbtInd', creditDebit(batch.total));
    sink.close();
  };
}

/** The texts are prepared (and issues reported) in the renderer's order; the writing is deferred. */
function composeTransaction(
  detail: TransactionDetails,
  entry: StatementEntry,
  path: string,
  ctx: ComposeContext,
): ((sink: XmlSink) => void) | undefined {
  const { dialect } = ctx;
  const amount = detail.amount ?? entry.amount;
  const indicator = creditDebit(amount);
  const own: StandIn[] = [];
  const refs = REFERENCE_FIELDS.flatMap(([element, field]) => {
    const value = entryId(ctx, detail.refs?.[field], element, own);
    return value === undefined ? [] : [[element, value] as const];
  });
  const bankPaymentId = entryId(ctx, detail.refs?.bankPaymentId, 'Prtry/Ref', own);
  const lineAmount = dialect.transactionAmount ? undefined : detail.amount;
  const party = detail.counterparty;
  const role = indicator === 'CRDT' ? 'Dbtr' : 'Cdtr';
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
  const returned = detail.returnReason === undefined ? undefined : composeReturn(detail.returnReason, path, ctx);
  const info = additionalInfo(ctx, undefined, own, `${path}/AddtlTxInf`, 'refs');
  const hasIban = partyIban !== undefined && partyIban !== '';
  const hasParty = partyName !== undefined || hasIban;
  if (
    refs.length === 0 &&
    bankPaymentId === undefined &&
    lineAmount === undefined &&
    info === undefined &&
    detail.instructedAmount === undefined &&
    !hasParty &&
    agentBic === undefined &&
    ustrd === undefined &&
    reference === undefined &&
    returned === undefined &&
    !dialect.transactionAmount
  )
    return undefined;
  return (sink) => {
    sink.open('TxDtls');
    if (refs.length > 0 || bankPaymentId !== undefined) {
      sink.open('Refs');
      for (const [element, value] of refs) sink.leaf(element, value);
      if (bankPaymentId !== undefined) {
        sink.open('Prtry');
        sink.leaf('Tp', 'BankPaymentId');
        sink.leaf('Ref', bankPaymentId);
        sink.close();
      }
      sink.close();
    }
    if (dialect.transactionAmount) {
      amountLeaf(sink, 'Amt', amount);
      sink.leaf('CdtDbtInd', indicator);
    }
    if (detail.instructedAmount !== undefined || lineAmount !== undefined) {
      sink.open('AmtDtls');
      if (detail.instructedAmount !== undefined) {
        sink.open('InstdAmt');
        amountLeaf(sink, 'Amt', detail.instructedAmount);
        sink.close();
      }
      if (lineAmount !== undefined) {
        sink.open('TxAmt');
        amountLeaf(sink, 'Amt', lineAmount);
        sink.close();
      }
      sink.close();
    }
    if (hasParty) {
      sink.open('RltdPties');
      if (partyName !== undefined) {
        sink.open(role);
        if (dialect.partyInPty) sink.open('Pty');
        sink.leaf('Nm', partyName);
        if (dialect.partyInPty) sink.close();
        sink.close();
      }
      if (hasIban) {
        sink.open(`${role}Acct`);
        accountId(sink, ctx, partyIban, `${path}/RltdPties/${role}Acct/Id`, 'counterparty.iban');
        sink.close();
      }
      sink.close();
    }
    if (agentBic !== undefined) {
      sink.open('RltdAgts');
      sink.open(`${role}Agt`);
      sink.open('FinInstnId');
      sink.leaf(dialect.bicElement, agentBic);
      sink.close();
      sink.close();
      sink.close();
    }
    if (ustrd !== undefined || reference !== undefined) {
      sink.open('RmtInf');
      if (ustrd !== undefined) sink.leaf('Ustrd', ustrd);
      if (reference !== undefined) {
        sink.open('Strd');
        sink.open('CdtrRefInf');
        sink.open('Tp');
        sink.open('CdOrPrtry');
        sink.leaf('Cd', 'SCOR');
        sink.close();
        if (detail.remittance?.creditorReferenceKind === 'RF') sink.leaf('Issr', 'ISO');
        sink.close();
        sink.leaf('Ref', reference);
        sink.close();
        sink.close();
      }
      sink.close();
    }
    returned?.(sink);
    if (info !== undefined) sink.leaf('AddtlTxInf', info);
    sink.close();
  };
}

function composeReturn(reason: ReturnReason, path: string, ctx: ComposeContext): ((sink: XmlSink) => void) | undefined {
  const rsn = returnReasonCode(reason.code);
  const value =
    rsn === undefined ? undefined : text(ctx, rsn.value, 35, `${path}/RtrInf/Rsn/${rsn.element}`, 'returnReason.code');
  const info = text(ctx, reason.additionalInfo, 105, `${path}/RtrInf/AddtlInf`, 'returnReason.additionalInfo');
  if (value === undefined && info === undefined) return undefined;
  return (sink) => {
    sink.open('RtrInf');
    if (rsn !== undefined && value !== undefined) {
      sink.open('Rsn');
      sink.leaf(rsn.element, value);
      sink.close();
    }
    if (info !== undefined) sink.leaf('AddtlInf', info);
    sink.close();
  };
}

function bankTransactionCode(sink: XmlSink, ctx: ComposeContext, code: BankTransactionCode): void {
  sink.open('BkTxCd');
  if ('proprietary' in code) {
    sink.open('Prtry');
    sink.leaf('Cd', required(ctx, code.proprietary, 35, `~/BkTxCd/Prtry/Cd`, 'bankTransactionCode'));
    const issuer = text(ctx, code.issuer, 35, `~/BkTxCd/Prtry/Issr`, 'bankTransactionCode.issuer');
    if (issuer !== undefined) sink.leaf('Issr', issuer);
    sink.close();
  } else {
    sink.open('Domn');
    sink.leaf('Cd', code.domain);
    sink.open('Fmly');
    sink.leaf('Cd', code.family);
    sink.leaf('SubFmlyCd', code.subFamily);
    sink.close();
    sink.close();
  }
  sink.close();
}
