// The reference composition of a pain.002 line, element by element through an XmlSink. Driven
// into xmlbuilder2 it is what the fast renderer (src/formats/pain002/render-line.ts) must equal
// byte for byte; two independent writings of the same mapping that agree are the proof.
import { formatAmount } from '../../../src/domain/money.js';
import type { PaymentStatusLine } from '../../../src/domain/payment-status.js';
import type { LineComposer } from '../../../src/formats/pain002/write.js';
import { ACCEPTED, linePath, REASON_CODE, splitInfo, type TextFn } from '../../../src/formats/pain002/render-line.js';
import { formatDateTime } from '../../../src/formats/xml/date-time.js';
import { identifier, standInText, type StandIn } from '../../../src/formats/xml/identifier.js';
import type { XmlSink } from '../../../src/formats/xml/xml-sink.js';

/** One TxInfAndSts; the stand-ins of its own ids are spelled out in its StsRsnInf/AddtlInf and added to `standIns`. */
export const composeLineInto =
  (standIns: StandIn[]): LineComposer =>
  (w, line, status, lineAt, t) => {
    const at = linePath(lineAt);
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
  };

function reasons(w: XmlSink, line: PaymentStatusLine, at: string, t: TextFn, ids: string | undefined): void {
  const codes = (line.reasonCodes ?? []).map((c) => c.trim()).filter((c) => c !== '');
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
