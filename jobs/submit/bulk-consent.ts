// Under which consent a bulk is sent (spec §4.6: payments are initiated under the Consent-ID of
// the debtor account's bank). The bank of the debtor account comes from the company's account
// directory (jobs/accounts/directory.ts); its consent is the one the configuration pins for that
// bank, else the usable one settle recorded for (company, bank), else the bank's own list.
import { isBankError } from '../../src/bank/index.js';
import { companyBanks, type CompanyConfig } from '../../src/config/index.js';
import { normalizeIban } from '../../src/domain/account-id.js';
import { directoryWith, isUnreachable } from '../accounts/index.js';
import { ownsConsent } from '../consents/index.js';
import type { PaymentJobDeps } from '../payments/index.js';

export type BulkConsent = { bankId?: string; consentId?: string } | { later: string };

/** The consent of the debtor account's bank; `later` when the bank could not say (the bulk waits). */
export async function bulkConsent(
  deps: PaymentJobDeps,
  company: CompanyConfig,
  debtorIban: string,
): Promise<BulkConsent> {
  try {
    return await findBulkConsent(deps, company, debtorIban);
  } catch (error) {
    if (!isBankError(error)) throw error;
    return { later: `The consent of the debtor account's bank could not be read (${error.code}); sent next run.` };
  }
}

async function findBulkConsent(deps: PaymentJobDeps, company: CompanyConfig, debtorIban: string): Promise<BulkConsent> {
  const banks = companyBanks(company);
  // No bank named: the resource group headers alone choose the context, as before several banks.
  if (banks.length === 0) return {};
  let bankId = banks.length === 1 ? banks[0]!.bankId : undefined;
  if (bankId === undefined) {
    const directory = await directoryWith(deps, company, [debtorIban]);
    if (isUnreachable(directory))
      return { later: `The bank of the debtor account could not be read (${directory.unreachable}); sent next run.` };
    bankId = directory.accounts.find((a) => a.iban === normalizeIban(debtorIban))?.bankId;
    if (bankId === undefined) return {};
  }
  const pinned = banks.find((b) => b.bankId === bankId)?.consentId;
  if (pinned !== undefined) return { bankId, consentId: pinned };
  const stored = (await deps.store.consents.list(company.id)).find((c) => c.bankId === bankId && USABLE.has(c.status));
  if (stored !== undefined) return { bankId, consentId: stored.consentId };
  const listed = await listedConsent(deps, company, bankId);
  return listed === undefined ? { bankId } : { bankId, consentId: listed };
}

/** Statuses under which the bank takes payments. */
const USABLE = new Set(['Authorized', 'Valid']);

// The bank's consent list is asked at most once per run and company-bank pair.
const listedPerRun = new WeakMap<PaymentJobDeps, Map<string, Promise<string | undefined>>>();

function listedConsent(deps: PaymentJobDeps, company: CompanyConfig, bankId: string): Promise<string | undefined> {
  let run = listedPerRun.get(deps);
  if (run === undefined) listedPerRun.set(deps, (run = new Map<string, Promise<string | undefined>>()));
  const key = `${company.id}\u0000${bankId}`;
  let found = run.get(key);
  if (found === undefined) {
    found = (async () => {
      for await (const c of deps.bank.listConsents())
        if (c.bankId === bankId && ownsConsent(company, c) && USABLE.has(c.status)) return c.consentId;
      return undefined;
    })();
    run.set(key, found);
  }
  return found;
}
