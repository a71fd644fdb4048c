// Which configured company a consent at the bank belongs to: the one that pins its consent id, or
// whose organisation number is the consent's resource group (spec §3.1: one resource group per
// company, named by its organisation number).
import type { Consent } from '../../src/bank/index.js';
import { pinnedConsentIds, type CompanyConfig } from '../../src/config/index.js';

/** The organisation number (resource group) of a consent, read from its resource id. */
export function consentOrganisation(c: Pick<Consent, 'resourceId'>): string | undefined {
  return /\/resource-groups\/([^/]+)/.exec(c.resourceId ?? '')?.[1];
}

export function ownsConsent(company: CompanyConfig, c: Pick<Consent, 'consentId' | 'resourceId'>): boolean {
  return pinnedConsentIds(company).includes(c.consentId) || consentOrganisation(c) === company.organisationNumber;
}

/** Statuses in which a consent can no longer be used. */
export const INACTIVE_CONSENT = new Set(['Revoked', 'Expired', 'Failure', 'Deleted']);
