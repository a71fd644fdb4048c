// The hot path of a status report: one TxInfAndSts rendered straight to text, as camt.053's
// entries are (src/formats/camt053/render-entry.ts, docs/decisions/0018-writers-at-the-template.md).
// Element calls on the chunk writer cost about twice the text itself. The output is the same
// bytes the reference composition gives through xmlbuilder2 (test/formats/writers/pain002-reference.ts,
// test/formats/writers/xml-identity.test.ts), so the element order here follows it and the XSDs;
// docs/formats/pain002.md has the mapping. Lines sit at depth 3
// (Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts/TxInfAndSts), indented by two spaces a level.
import { currencyExponent } from '../../domain/currency.js';
import { formatMinor } from '../../domain/money.js';
import type { PaymentStatusLine } from '../../domain/payment-status.js';
import { formatDateTime } from '../xml/date-time.js';
import { flat, flattened } from '../xml/flat.js';
import { identifier, standInText, type StandIn } from '../xml/identifier.js';
import { escapeAttribute, escapeText, idAsXml } from '../xml/text.js';

export type TextFn = (value: string | undefined, max: number, path: string, field: string) => string | undefined;

export const ROOT = '/Document/CstmrPmtStsRpt';

/** Longer reason texts are split over several AddtlInf (Max105Text); beyond this many, cut. */
export const MAX_ADDITIONAL_INFO = 5;

export const REASON_CODE = /^[A-Z0-9]{4}$/;

/** The statuses a line is accepted with, which carry AccptncDtTm. */
export const ACCEPTED = new Set<string>(['ACTC', 'ACCP', 'ACSP', 'ACSC', 'ACWC']);

/** Where a line is: its group's and its own position, 1-based; its path is built only for an issue. */
export interface LineAt {
  group: number;
  line: number;
}

/** "/Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts[g]/TxInfAndSts[l]": a line's path, for its issues. */
export function linePath(at: LineAt): string {
  return `${ROOT}/OrgnlPmtInfAndSts[${at.group}]/TxInfAndSts[${at.line}]`;
}

export function splitInfo(text: string | undefined, path: string, t: TextFn): string[] {
  const whole = t(text, 105 * MAX_ADDITIONAL_INFO, path, 'reasonText');
  return whole === undefined ? [] : splitAtWords(whole, 105);
}

const ONE_PART = /^\S+(?: \S+)*$/;

/** Parts of at most `max` characters, broken at spaces; a word longer than `max` is cut. */
export function splitAtWords(text: string, max: number): string[] {
  // Words with one space between them, within `max` UTF-16 units (so within `max` characters):
  // the one part is the text itself, without splitting it and counting each word's characters.
  if (text.length <= max && ONE_PART.test(text)) return [text];
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

// The stand-ins of the line being rendered: rendering is synchronous, so one list is reused.
const lineOwn: StandIn[] = [];

/** An id (Max35Text) as XML: in one scan when it fits as it is, else its stand-in (added to `own`). */
function idXml(value: string | undefined, element: string, own: StandIn[]): string | undefined {
  if (value === undefined) return undefined;
  const xml = idAsXml(value, 35);
  if (xml !== undefined) return xml;
  const written = identifier(value, 35, element, own);
  return written === undefined ? undefined : escapeText(written);
}

/** A leaf as the chunk writer writes it: `<name/>` when empty, else the text escaped. */
function leaf(indent: string, name: string, text: string): string {
  return text === '' ? `${indent}<${name}/>` : `${indent}<${name}>${escapeText(text)}</${name}>`;
}

/** A status's constant text, built once and flat (flat.ts): a report's lines share a few statuses. */
interface StatusXml {
  /** TxSts. */
  xml: string;
  /** Whether the status carries AccptncDtTm. */
  accepted: boolean;
  /** TxSts and AccptncDtTm's start tag, for an accepted line without reasons between them. */
  xmlTimeOpen: string;
}
const TIME_OPEN = '\n        <AccptncDtTm>';
const statusXml = new Map<string, StatusXml>();
// The last status and currency asked for: a comparison costs less than a map's look-up, and a
// report's lines are mostly of one status and one currency.
let lastStatus: string | undefined;
let lastStatusXml: StatusXml | undefined;
function statusOf(status: string): StatusXml {
  if (status === lastStatus) return lastStatusXml!;
  let known = statusXml.get(status);
  if (known === undefined) {
    const xml = leaf('\n        ', 'TxSts', status);
    known = { xml: flat(xml), accepted: ACCEPTED.has(status), xmlTimeOpen: flat(`${xml}${TIME_OPEN}`) };
    if (statusXml.size < 64) statusXml.set(status, known);
  }
  lastStatus = status;
  lastStatusXml = known;
  return known;
}

/** Per currency, once: its exponent and OrgnlTxRef up to the InstdAmt start tag's end, flat. */
const currencies = new Map<string, { exponent: number; open: string }>();
let lastCurrency = '';
let lastCurrencyXml = { exponent: 2, open: '' };
function currencyOf(currency: string): { exponent: number; open: string } {
  if (currency === lastCurrency) return lastCurrencyXml;
  let known = currencies.get(currency);
  if (known === undefined) {
    known = {
      exponent: currencyExponent(currency) ?? 2,
      open: flat(`\n        <OrgnlTxRef>\n          <Amt>\n            <InstdAmt Ccy="${escapeAttribute(currency)}">`),
    };
    currencies.set(currency, known);
  }
  lastCurrency = currency;
  lastCurrencyXml = known;
  return known;
}

/**
 * One TxInfAndSts with its leading line break; the stand-ins of its ids are added to `standIns`.
 * Text that always goes together is one literal (the start tag with the first id's, an end tag
 * with the next start tag), so a line is few pieces, and the line is made one piece before it is
 * kept (flattened: a report is one string in memory).
 */
export function renderLine(
  line: PaymentStatusLine,
  status: string,
  at: LineAt,
  t: TextFn,
  standIns: StandIn[],
): string {
  const own = lineOwn;
  if (own.length !== 0) own.length = 0;
  const instructionId = idXml(line.originalInstructionId, 'OrgnlInstrId', own);
  const endToEndId = idXml(line.endToEndId, 'OrgnlEndToEndId', own);
  const servicerRef = idXml(line.bankPaymentId, 'AcctSvcrRef', own);
  if (own.length !== 0) for (const s of own) standIns.push(s);
  let out =
    instructionId === undefined
      ? endToEndId === undefined
        ? '\n      <TxInfAndSts>'
        : `\n      <TxInfAndSts>\n        <OrgnlEndToEndId>${endToEndId}</OrgnlEndToEndId>`
      : endToEndId === undefined
        ? `\n      <TxInfAndSts>\n        <OrgnlInstrId>${instructionId}</OrgnlInstrId>`
        : `\n      <TxInfAndSts>\n        <OrgnlInstrId>${instructionId}</OrgnlInstrId>\n        <OrgnlEndToEndId>${endToEndId}</OrgnlEndToEndId>`;
  const { xml, accepted, xmlTimeOpen } = statusOf(status);
  if (line.reasonCodes !== undefined || line.reasonText !== undefined || own.length !== 0) {
    out += xml;
    out += reasons(line, at, t, standInText(own));
    if (accepted) out += TIME_OPEN;
  } else {
    out += accepted ? xmlTimeOpen : xml;
  }
  // AccptncDtTm's start tag is written: its value (an ISO instant: digits, '-', ':', '.', 'T' and
  // 'Z', nothing to escape) goes with its end tag and AcctSvcrRef.
  if (accepted) {
    const time = formatDateTime(line.time);
    out +=
      servicerRef === undefined
        ? `${time}</AccptncDtTm>`
        : `${time}</AccptncDtTm>\n        <AcctSvcrRef>${servicerRef}</AcctSvcrRef>`;
  } else if (servicerRef !== undefined) {
    out += `\n        <AcctSvcrRef>${servicerRef}</AcctSvcrRef>`;
  }
  const amount = line.amount;
  if (amount !== undefined && amount.minor >= 0n) {
    const { exponent, open } = currencyOf(amount.currency);
    // Digits and a point: nothing to escape.
    out += `${open}${formatMinor(amount.minor, exponent)}</InstdAmt>\n          </Amt>\n        </OrgnlTxRef>\n      </TxInfAndSts>`;
    return flattened(out);
  }
  return flattened(out + `\n      </TxInfAndSts>`);
}

/**
 * One StsRsnInf per reason code; the text (and what the line's stand-ins stand for) goes to
 * AddtlInf of the first (or of its own).
 */
function reasons(line: PaymentStatusLine, at: LineAt, t: TextFn, ids: string | undefined): string {
  const codes = (line.reasonCodes ?? []).map((c) => c.trim()).filter((c) => c !== '');
  const path = `${linePath(at)}/StsRsnInf/AddtlInf`;
  // The stand-ins first, in AddtlInf of their own, so the reason's text still reads whole after them.
  const info = [...splitInfo(ids, path, t), ...splitInfo(line.reasonText, path, t)];
  const count = Math.max(codes.length, info.length > 0 ? 1 : 0);
  let out = '';
  for (let i = 0; i < count; i++) {
    out += `\n        <StsRsnInf>`;
    const code = codes[i];
    if (code !== undefined) {
      const rsn = REASON_CODE.test(code)
        ? leaf('\n            ', 'Cd', code)
        : leaf(
            '\n            ',
            'Prtry',
            t(code, 35, `${linePath(at)}/StsRsnInf[${i + 1}]/Rsn/Prtry`, 'reasonCodes') ?? code,
          );
      out += `\n          <Rsn>${rsn}\n          </Rsn>`;
    }
    if (i === 0) for (const part of info) out += leaf('\n          ', 'AddtlInf', part);
    out += `\n        </StsRsnInf>`;
  }
  return out;
}
