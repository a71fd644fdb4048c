// Onboarding and refresh write what the bank answered into the consents table at once, for every
// configured company with that organisation number, so the alert and the reports know the new
// consent before the next nightly read. A consent of a company not (yet) in the configuration
// is recorded by the first read after it is added.
import type { BankClient } from '../../bank/index.js';
import { consentOrganisation } from '../../../jobs/consents/index.js';
import { pinnedConsentIds, soleBankId } from '../../config/index.js';
import type { ConsentSource } from '../../store/index.js';
import { createApp } from '../../main/app.js';
import type { CliContext } from '../context.js';

export async function recordConsent(
  ctx: CliContext,
  bank: BankClient,
  consentId: string,
  source: ConsentSource,
): Promise<string[]> {
  const consent = await bank.getConsent(consentId);
  const org = consentOrganisation(consent);
  const companies = ctx.config.companies.filter(
    (c) => pinnedConsentIds(c).includes(consentId) || (org !== undefined && c.organisationNumber === org),
  );
  const recorded: string[] = [];
  if (companies.length === 0) return recorded;
  const app = await createApp(ctx.config, ctx.logger);
  try {
    for (const company of companies) {
      const bankId = consent.bankId ?? soleBankId(company);
      if (bankId === undefined) continue;
      const expires = consent.expiresAtUtc === undefined ? undefined : new Date(consent.expiresAtUtc);
      await app.store.consents.record({
        company: company.id,
        bankId,
        consentId,
        status: consent.status,
        expiresAt: expires && !Number.isNaN(expires.getTime()) ? expires : undefined,
        statusAt: app.clock.now(),
        source,
      });
      recorded.push(company.id);
    }
  } finally {
    await app.close();
  }
  return recorded;
}
