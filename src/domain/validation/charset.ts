// The character-set rule: banks accept only a small Latin set in names and remittance text
// (the EPC "SEPA" set), some add national letters (Norwegian æøå). Other characters are
// transliterated with any-ascii so a payment is not refused for an accent, and every change is
// reported so nobody is surprised by what the bank shows. Identifiers (end-to-end id, creditor
// reference) are never changed: a changed identifier would break reconciliation.
import anyAscii from 'any-ascii';

/** The EPC basic Latin character set (EPC217-08): letters, digits and / - ? : ( ) . , ' + space. */
export const EPC_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-?:().,'+ ";

export interface CharsetRule {
  /** Characters allowed; undefined = any character (the rule is off). */
  allowed?: ReadonlySet<string>;
  /** The same set as one regular expression: a whole-text test is much faster than a loop. */
  fits?: RegExp;
}

export function charsetRule(extra = '', base: 'epc' | 'any' = 'epc'): CharsetRule {
  if (base === 'any') return {};
  const allowed = new Set([...EPC_CHARACTERS, ...extra]);
  const escaped = [...allowed].map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('');
  // Unicode mode only when the set holds characters beyond one UTF-16 unit: the plain mode tests
  // faster, and with a set of single units it gives the same answer (a surrogate is never in it).
  const unicode = [...allowed].some((c) => c.length > 1);
  return { allowed, fits: new RegExp(`^[${escaped}]*$`, unicode ? 'u' : '') };
}

/** ASCII characters outside the EPC set get a close EPC stand-in rather than disappearing. */
const ASCII_STAND_INS: Record<string, string> = {
  '&': '+',
  _: '-',
  '"': "'",
  '`': "'",
  ';': ',',
  '[': '(',
  ']': ')',
  '{': '(',
  '}': ')',
  '<': '(',
  '>': ')',
  '!': '.',
  '\t': ' ',
};

export interface CharsetResult {
  text: string;
  changed: boolean;
}

const NONE: readonly string[] = Object.freeze([]);

/** True when every character of text is in the rule's set (or the rule is off): no allocation. */
export function fitsCharset(rule: CharsetRule, text: string): boolean {
  const { allowed } = rule;
  if (!allowed) return true;
  return rule.fits ? rule.fits.test(text) : [...text].every((ch) => allowed.has(ch));
}

/** The distinct characters of text outside the rule's set. */
export function charactersOutside(rule: CharsetRule, text: string): readonly string[] {
  const { allowed } = rule;
  if (!allowed || rule.fits?.test(text)) return NONE;
  let bad: Set<string> | undefined;
  for (const ch of text) if (!allowed.has(ch)) (bad ??= new Set()).add(ch);
  return bad ? [...bad] : NONE;
}

/** Free text: transliterates what is outside the set. */
export function transliterate(rule: CharsetRule, text: string): CharsetResult {
  const { allowed } = rule;
  if (!allowed || fitsCharset(rule, text)) return { text, changed: false };
  let out = '';
  for (const ch of text) {
    if (allowed.has(ch)) {
      out += ch;
      continue;
    }
    for (const c of anyAscii(ch)) out += allowed.has(c) ? c : (ASCII_STAND_INS[c] ?? '.');
  }
  return { text: out.replace(/ {2,}/g, ' ').trim(), changed: true };
}
