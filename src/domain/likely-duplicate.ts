// A likely duplicate: an ERP that exports the same invoices again gives them new end-to-end ids,
// so the id check cannot see it. What stays the same is who is paid, how much and for what:
// creditor account, amount with currency, and the structured reference (or, without one, the
// remittance text). Compared without case and extra spaces, as an ERP may re-format them.
import type { PaymentInstruction } from './payment.js';

export type DuplicateKeyFields = Pick<
  PaymentInstruction,
  'creditorIban' | 'amount' | 'creditorReference' | 'remittanceInformation'
>;

const normal = (text: string | undefined) => (text ?? '').trim().replace(/\s+/g, ' ').toUpperCase();

/** Two payments with the same key pay the same creditor the same amount for the same thing. */
export function likelyDuplicateKey(p: DuplicateKeyFields): string {
  const reference = p.creditorReference?.trim() ? p.creditorReference : p.remittanceInformation;
  return [
    normal(p.creditorIban).replace(/ /g, ''),
    p.amount.currency,
    p.amount.minor.toString(),
    normal(reference),
  ].join('\u0000');
}
