// The structured creditor reference (KID or RF) of a booked credit, read in one place. The bank
// may give it as structured remittance information; otherwise payers and banks often carry it in
// the free remittance text ("KID 0012345678", "RF18 5390 0754 7034"), where only a reference
// whose check digits hold is taken, so a phone or invoice number is not mistaken for one.
import { parseCreditorReference, type CreditorReference } from '../creditor-reference.js';

export interface ReferenceSource {
  /** The bank's structured remittance reference, when it gave one. */
  creditorReference?: { reference: string; type?: string };
  remittance?: string;
}

const RF_IN_TEXT = /\bRF\d{2}(?: ?[A-Z0-9]){1,21}\b/gi;
/** Digit runs, possibly grouped by single spaces, ending in a digit or the MOD11 "-". */
const DIGITS_IN_TEXT = /(?<![\dA-Z])\d(?: ?\d){1,23}[\d-]?(?![\dA-Z])/gi;

export function creditReferenceOf(tx: ReferenceSource): CreditorReference | undefined {
  if (tx.creditorReference && tx.creditorReference.reference.trim() !== '')
    return parseCreditorReference(tx.creditorReference.reference);
  const text = tx.remittance;
  if (!text) return undefined;
  for (const found of text.matchAll(RF_IN_TEXT)) {
    const ref = parseCreditorReference(found[0]);
    if (ref?.valid) return ref;
  }
  for (const found of text.matchAll(DIGITS_IN_TEXT)) {
    const ref = parseCreditorReference(found[0]);
    if (ref?.valid && ref.value.length >= 4) return ref;
  }
  return undefined;
}

/** "KID 0012345678" / "RF18539007547034" (an RF names itself): how a reference is shown. */
export function referenceText(ref: CreditorReference | undefined): string | undefined {
  if (!ref) return undefined;
  return ref.kind === 'RF' ? ref.value : `${ref.kind} ${ref.value}`;
}
