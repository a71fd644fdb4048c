// The rules of a line's texts: names and remittance text in the bank's character set
// (transliterated, with a warning) and within their lengths; identifiers (end-to-end id,
// creditor reference) never changed, so a character outside the set is an error; an RF
// creditor reference's check digits; creditor ids within 35 characters.
import { parseCreditorReference } from '../creditor-reference.js';
import { charactersOutside, fitsCharset, transliterate, type CharsetRule } from './charset.js';
import { IssueCode } from './codes.js';
import { add, type Ctx } from './line-context.js';
import type { PaymentField } from './raw-line.js';

/** pain.001 Othr/Id and SchmeNm/Prtry are Max35Text; an ERP's creditor id is held to the same. */
const MAX_CREDITOR_ID = 35;
const CREDITOR_ID_WORDS = {
  creditorOrgId: 'organisation number',
  creditorOrgScheme: 'organisation number scheme',
  creditorId: 'creditor id',
} as const;
export const MAX_REFERENCE = 35;

export class TextRules {
  constructor(private readonly charset: CharsetRule) {}

  identifier(ctx: Ctx, field: PaymentField, value: string): void {
    const bad = charactersOutside(this.charset, value);
    if (bad.length > 0)
      add(
        ctx,
        IssueCode.CHARSET_INVALID,
        'error',
        field,
        `${field} "${value}" contains characters outside the allowed set (${bad.map(show).join(' ')}); identifiers are never transliterated`,
      );
  }

  /** An organisation number, its scheme or an ERP creditor id: trimmed, empty is none, at most 35 characters. */
  creditorId(
    ctx: Ctx,
    field: 'creditorOrgId' | 'creditorOrgScheme' | 'creditorId',
    raw: string | undefined,
  ): string | undefined {
    const id = raw?.trim();
    if (id === undefined || id === '') return undefined;
    if (id.length > MAX_CREDITOR_ID)
      add(
        ctx,
        IssueCode.CREDITOR_ID_TOO_LONG,
        'error',
        field,
        `${CREDITOR_ID_WORDS[field]} has ${id.length} characters; at most ${MAX_CREDITOR_ID} are allowed`,
      );
    return id;
  }

  freeText(
    ctx: Ctx,
    field: PaymentField,
    raw: string | undefined,
    max: number,
    tooLong: IssueCode,
  ): string | undefined {
    if (raw === undefined) return undefined;
    let text = raw;
    // Most text fits the set: checked first, so it costs one test and no result object.
    if (!fitsCharset(this.charset, raw)) {
      text = transliterate(this.charset, raw).text;
      add(
        ctx,
        IssueCode.CHARSET_TRANSLITERATED,
        'warning',
        field,
        `${field} changed to the allowed character set: "${raw}" → "${text}"`,
      );
    }
    if (text.length > max)
      add(ctx, tooLong, 'error', field, `${field} has ${text.length} characters; at most ${max} are allowed`);
    return text;
  }
}

function show(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return cp < 0x20 || cp === 0x7f || cp === 0xfffd ? `U+${cp.toString(16).toUpperCase().padStart(4, '0')}` : `"${ch}"`;
}

/** RF references (ISO 11649) carry mod-97 check digits; other references (e.g. KID) are only length-checked. */
export function validCreditorReference(ref: string): boolean {
  // The common case first: a reference of at most 35 characters whose first is a visible ASCII
  // character other than "R" or "r" (a KID, an invoice number) is no RF reference, so it passes
  // without the white-space removal and the reading.
  const first = ref.charCodeAt(0);
  if (ref.length <= MAX_REFERENCE && first > 0x20 && first < 0x7f && first !== 0x52 && first !== 0x72) return true;
  if (ref.replace(/\s+/g, '').length > MAX_REFERENCE) return false;
  const parsed = parseCreditorReference(ref);
  return parsed?.kind !== 'RF' || parsed.valid;
}
