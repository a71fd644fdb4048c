// Whether a company is onboarded: settle can only pay and fetch for a company that has a usable
// consent and at least one enabled account at its banks. One that has neither is never shown as
// all clear (settle health, the console's Today): what is missing is named, with the commands
// that fix it.

/** What an onboarded company has and this one lacks. */
export type OnboardingGap = 'consent' | 'enabled-account';

/** What the database knows of the company at its banks (as the last reads and onboarding recorded it). */
export interface OnboardingFacts {
  /** Consents that are Authorized or Valid and not expired. */
  liveConsents: number;
  /** Whether any of its accounts is usable (the bank lists it as `enabled`). */
  enabledAccount: boolean;
}

export interface Onboarding {
  company: string;
  onboarded: boolean;
  missing: OnboardingGap[];
  /** What the gap means, for a person. */
  why: string;
  /** The commands that close the gap, in order. */
  fix: string[];
}

export function onboardingOf(
  company: { id: string; organisationNumber: string; bankIds: readonly string[] },
  facts: OnboardingFacts,
): Onboarding {
  const missing: OnboardingGap[] = [];
  if (facts.liveConsents === 0) missing.push('consent');
  if (!facts.enabledAccount) missing.push('enabled-account');
  const org = company.organisationNumber;
  const fix: string[] = [];
  if (missing.includes('consent')) {
    if (company.bankIds.length === 0)
      fix.push('settle banks list', `settle consents create --bank <bankId> --org ${org}`);
    for (const bank of company.bankIds) fix.push(`settle consents create --bank ${bank} --org ${org}`);
  } else if (missing.includes('enabled-account')) fix.push(`settle accounts list --org ${org}`);
  // The night reads the consents and the account list again, so settle knows what the bank now has.
  if (missing.length > 0) fix.push(`settle run nightly --company ${company.id}`);
  return { company: company.id, onboarded: missing.length === 0, missing, why: explain(missing), fix };
}

function explain(missing: readonly OnboardingGap[]): string {
  if (missing.length === 2)
    return 'not onboarded: no usable consent and no enabled account at its banks, so nothing can be paid or fetched';
  if (missing[0] === 'consent')
    return 'not onboarded: no usable consent (Authorized or Valid, not expired) at its banks';
  if (missing[0] === 'enabled-account')
    return 'not onboarded: no enabled account at its banks (the bank enables them after the consent is signed and the bank order is in place)';
  return 'onboarded';
}

/** The onboarding of each company from what the store reads for all of them at once. */
export function onboardingOfAll(
  companies: readonly { id: string; organisationNumber: string; bankIds: readonly string[] }[],
  liveConsents: ReadonlyMap<string, number>,
  withEnabledAccount: ReadonlySet<string>,
): Onboarding[] {
  return companies.map((c) =>
    onboardingOf(c, { liveConsents: liveConsents.get(c.id) ?? 0, enabledAccount: withEnabledAccount.has(c.id) }),
  );
}
