// Whether each configured company is onboarded (src/domain/onboarding.ts), from two counts by
// company in the database: a query or two, however many companies there are.
import { companyBanks } from '../config/index.js';
import { onboardingOfAll, type Onboarding } from '../domain/onboarding.js';
import type { App } from './app.js';

export async function companiesOnboarding(app: Pick<App, 'config' | 'store' | 'clock'>): Promise<Onboarding[]> {
  const [consents, accounts] = await Promise.all([
    app.store.consents.liveByCompany(app.clock.now()),
    app.store.accountStatus.companiesWithUsableAccount(),
  ]);
  const companies = app.config.companies.map((c) => ({
    id: c.id,
    organisationNumber: c.organisationNumber,
    bankIds: companyBanks(c).map((b) => b.bankId),
  }));
  return onboardingOfAll(companies, consents, accounts);
}
