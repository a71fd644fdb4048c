// The banks of a company, read tolerantly: `banks: [{ bankId, consentId? }]` is the form for
// several banks; the older one-bank keys `bankId` and `consentId` are read as a list of one.
// When both are written the lists are merged by bankId, so nothing has to be listed twice.
import type { CompanyConfig } from './schema.js';

export interface CompanyBank {
  bankId: string;
  /** A pinned Consent-ID for this bank; absent: the consent settle read from the bank. */
  consentId?: string;
}

export function companyBanks(company: Pick<CompanyConfig, 'banks' | 'bankId' | 'consentId'>): CompanyBank[] {
  const out: CompanyBank[] = company.banks.map((b) => ({
    bankId: b.bankId,
    ...(b.consentId === undefined ? {} : { consentId: b.consentId }),
  }));
  if (company.bankId !== undefined) {
    const listed = out.find((b) => b.bankId === company.bankId);
    if (listed === undefined)
      out.unshift({
        bankId: company.bankId,
        ...(company.consentId === undefined ? {} : { consentId: company.consentId }),
      });
    else if (listed.consentId === undefined && company.consentId !== undefined) listed.consentId = company.consentId;
  }
  return out;
}

/** The Consent-IDs the configuration pins for the company, whichever form names them. */
export function pinnedConsentIds(company: Pick<CompanyConfig, 'banks' | 'bankId' | 'consentId'>): string[] {
  const ids = companyBanks(company).flatMap((b) => (b.consentId === undefined ? [] : [b.consentId]));
  if (company.consentId !== undefined && !ids.includes(company.consentId)) ids.push(company.consentId);
  return ids;
}

/**
 * The bank of an account or consent that does not name its own: the company's only configured
 * bank, or undefined when it has none or several (then the bank's own bankId is needed).
 */
export function soleBankId(company: Pick<CompanyConfig, 'banks' | 'bankId' | 'consentId'>): string | undefined {
  const banks = companyBanks(company);
  return banks.length === 1 ? banks[0]!.bankId : undefined;
}
