// The reference composition of a camt.053 entry, element by element through an XmlSink. Driven
// into xmlbuilder2 it is what the fast renderer (src/formats/camt053/render-entry.ts) must equal
// byte for byte; two independent writings of the same mapping that agree are the proof.
import { formatAmount } from '../../../src/domain/money.js';
import { absoluteMoney, creditDebit } from '../../../src/domain/statement.js';
import type { BankTransactionCode, StatementEntry } from '../../../src/domain/statement.js';
import { accountId, bic, required, text, type ComposeContext } from '../../../src/formats/camt053/compose.js';
import type { XmlSink } from '../../../src/formats/xml/xml-sink.js';

/** Writes one Ntry; `index` is its 1-based position (for issue locations). */
export function composeEntry(sink: XmlSink, entry: StatementEntry, index: number, ctx: ComposeContext): void {
  const { dialect } = ctx;
  ctx.entryIndex = index;
  const amount = formatAmount(absoluteMoney(entry.amount));
  const indicator = creditDebit(entry.amount);
  sink.open('Ntry');
  sink.leaf('Amt', amount, 'Ccy', entry.amount.currency);
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
  const servicerRef = text(ctx, entry.accountServicerRef, 35, `~/AcctSvcrRef`, 'accountServicerRef');
  if (servicerRef !== undefined) sink.leaf('AcctSvcrRef', servicerRef);
  bankTransactionCode(sink, ctx, entry.bankTransactionCode, indicator);

  // Transaction details: only written when there is something to say.
  const endToEndId = text(ctx, entry.endToEndId, 35, `~/NtryDtls/TxDtls/Refs/EndToEndId`, 'endToEndId');
  const party = entry.counterparty;
  const role = indicator === 'CRDT' ? 'Dbtr' : 'Cdtr';
  const partyName = text(
    ctx,
    party?.name,
    140,
    indicator === 'CRDT' ? '~/NtryDtls/TxDtls/RltdPties/Dbtr/Nm' : '~/NtryDtls/TxDtls/RltdPties/Cdtr/Nm',
    'counterparty.name',
  );
  const partyIban = party?.iban === undefined ? undefined : party.iban.replace(/\s+/g, '').toUpperCase();
  const agentBic = bic(
    ctx,
    party?.bic,
    indicator === 'CRDT'
      ? '~/NtryDtls/TxDtls/RltdAgts/DbtrAgt/FinInstnId/{BIC}'
      : '~/NtryDtls/TxDtls/RltdAgts/CdtrAgt/FinInstnId/{BIC}',
    'counterparty.bic',
  );
  const ustrd = text(
    ctx,
    entry.remittance?.unstructured,
    140,
    `~/NtryDtls/TxDtls/RmtInf/Ustrd`,
    'remittance.unstructured',
  );
  const reference = text(
    ctx,
    entry.remittance?.creditorReference,
    35,
    `~/NtryDtls/TxDtls/RmtInf/Strd/CdtrRefInf/Ref`,
    'remittance.creditorReference',
  );
  const hasParty = partyName !== undefined || (partyIban !== undefined && partyIban !== '');
  if (
    endToEndId !== undefined ||
    hasParty ||
    agentBic !== undefined ||
    ustrd !== undefined ||
    reference !== undefined ||
    dialect.transactionAmount
  ) {
    sink.open('NtryDtls');
    sink.open('TxDtls');
    if (endToEndId !== undefined) {
      sink.open('Refs');
      sink.leaf('EndToEndId', endToEndId);
      sink.close();
    }
    if (dialect.transactionAmount) {
      sink.leaf('Amt', amount, 'Ccy', entry.amount.currency);
      sink.leaf('CdtDbtInd', indicator);
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
      if (partyIban !== undefined && partyIban !== '') {
        sink.open(role === 'Dbtr' ? 'DbtrAcct' : 'CdtrAcct');
        accountId(
          sink,
          ctx,
          partyIban,
          role === 'Dbtr' ? '~/NtryDtls/TxDtls/RltdPties/DbtrAcct/Id' : '~/NtryDtls/TxDtls/RltdPties/CdtrAcct/Id',
          'counterparty.iban',
        );
        sink.close();
      }
      sink.close();
    }
    if (agentBic !== undefined) {
      sink.open('RltdAgts');
      sink.open(role === 'Dbtr' ? 'DbtrAgt' : 'CdtrAgt');
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
        sink.close();
        sink.leaf('Ref', reference);
        sink.close();
        sink.close();
      }
      sink.close();
    }
    sink.close();
    sink.close();
  }
  const info = text(ctx, entry.additionalInfo, 500, `~/AddtlNtryInf`, 'additionalInfo');
  if (info !== undefined) sink.leaf('AddtlNtryInf', info);
  sink.close();
}

function bankTransactionCode(
  sink: XmlSink,
  ctx: ComposeContext,
  code: BankTransactionCode | undefined,
  indicator: 'CRDT' | 'DBIT',
): void {
  sink.open('BkTxCd');
  if (code !== undefined && 'proprietary' in code) {
    sink.open('Prtry');
    sink.leaf('Cd', required(ctx, code.proprietary, 35, `~/BkTxCd/Prtry/Cd`, 'bankTransactionCode'));
    const issuer = text(ctx, code.issuer, 35, `~/BkTxCd/Prtry/Issr`, 'bankTransactionCode.issuer');
    if (issuer !== undefined) sink.leaf('Issr', issuer);
    sink.close();
  } else {
    // BkTxCd is mandatory; without a code from the bank we say "miscellaneous credit/debit
    // operation" (PMNT/MCOP|MDOP/OTHR) rather than invent a more specific one.
    sink.open('Domn');
    sink.leaf('Cd', code?.domain ?? 'PMNT');
    sink.open('Fmly');
    sink.leaf('Cd', code?.family ?? (indicator === 'CRDT' ? 'MCOP' : 'MDOP'));
    sink.leaf('SubFmlyCd', code?.subFamily ?? 'OTHR');
    sink.close();
    sink.close();
  }
  sink.close();
}
