// Structured creditor references: the Norwegian KID and the international RF (ISO 11649).
// One reading serves intake checks, camt.054 credit notifications and reconciliation, so a
// reference that one part calls valid no other part calls broken.

export type CreditorReferenceKind = 'KID' | 'RF';

export interface CreditorReference {
  kind: CreditorReferenceKind;
  /** The reference as banks exchange it: spaces removed, letters upper-cased. */
  value: string;
  /** Whether its check digits hold (KID: MOD10 or MOD11; RF: MOD 97). */
  valid: boolean;
  /** For a valid KID, which of the two check-digit methods it satisfies. */
  check?: 'MOD10' | 'MOD11';
}

/** KIDs are 2 to 25 digits; the MOD11 check digit may be "-" (remainder 10). */
const KID = /^\d{1,24}[\d-]$/;
const RF = /^RF\d{2}[A-Z0-9]{1,21}$/;

/**
 * Reads a text as a structured creditor reference. "RF…" is read as ISO 11649, digits as a KID;
 * anything else (free text, an invoice number with letters) is not a structured reference: undefined.
 */
export function parseCreditorReference(text: string): CreditorReference | undefined {
  const value = text.replace(/\s+/g, '').toUpperCase();
  if (value.startsWith('RF')) return { kind: 'RF', value, valid: RF.test(value) && mod97(value) === 1 };
  if (!KID.test(value) || value.length < 2) return undefined;
  const body = value.slice(0, -1);
  const digit = value.slice(-1);
  if (digit !== '-' && luhnDigit(body) === digit) return { kind: 'KID', value, valid: true, check: 'MOD10' };
  if (mod11Digit(body) === digit) return { kind: 'KID', value, valid: true, check: 'MOD11' };
  return { kind: 'KID', value, valid: false };
}

/** MOD10 (Luhn): weights 2,1,2,1… from the right, digits of each product summed. */
function luhnDigit(body: string): string | undefined {
  if (!/^\d+$/.test(body)) return undefined;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const d = body.charCodeAt(body.length - 1 - i) - 48;
    const p = i % 2 === 0 ? d * 2 : d;
    sum += p > 9 ? p - 9 : p;
  }
  return String((10 - (sum % 10)) % 10);
}

/** MOD11: weights 2..7 repeating from the right; 11 - remainder, 11 → 0, 10 → "-". */
function mod11Digit(body: string): string | undefined {
  if (!/^\d+$/.test(body)) return undefined;
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += (body.charCodeAt(body.length - 1 - i) - 48) * (2 + (i % 6));
  const c = 11 - (sum % 11);
  return c === 11 ? '0' : c === 10 ? '-' : String(c);
}

/** ISO 7064 MOD 97-10 over the reference with its first four characters moved to the end. */
function mod97(ref: string): number {
  let rest = 0;
  for (const ch of ref.slice(4) + ref.slice(0, 4)) {
    const v = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rest = (rest * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rest;
}
