// IBAN and BIC checks through ibantools: country length and mod-97 for IBANs, ISO 9362 form for BICs.
import { electronicFormatIBAN, isValidBIC, validateIBAN, ValidationErrorsIBAN } from 'ibantools';

/** Removes spaces and upper-cases; "no93 8601 1117 947" → "NO9386011117947". */
export function normalizeIban(text: string): string {
  return electronicFormatIBAN(text) ?? text.replace(/\s+/g, '').toUpperCase();
}

export type IbanCheck = { ok: true; iban: string } | { ok: false; iban: string; message: string };

export function checkIban(text: string): IbanCheck {
  const iban = normalizeIban(text);
  const result = validateIBAN(iban);
  if (result.valid) return { ok: true, iban };
  const reasons = result.errorCodes.map((code) => IBAN_REASONS[code] ?? 'is not a valid IBAN');
  return { ok: false, iban, message: `IBAN "${iban}" ${[...new Set(reasons)].join('; ')}` };
}

const IBAN_REASONS: Partial<Record<ValidationErrorsIBAN, string>> = {
  [ValidationErrorsIBAN.NoIBANProvided]: 'is empty',
  [ValidationErrorsIBAN.NoIBANCountry]: 'does not start with a known country code',
  [ValidationErrorsIBAN.WrongBBANLength]: 'has the wrong length for its country',
  [ValidationErrorsIBAN.WrongBBANFormat]: 'does not have the account format of its country',
  [ValidationErrorsIBAN.ChecksumNotNumber]: 'has non-numeric check digits',
  [ValidationErrorsIBAN.WrongIBANChecksum]: 'fails the mod-97 check digit test (a typing error?)',
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: 'fails the national check digit test',
  [ValidationErrorsIBAN.QRIBANNotAllowed]: 'is a QR-IBAN, which is not allowed here',
};

export function checkBic(text: string): boolean {
  return isValidBIC(text.trim().toUpperCase());
}
