// The regular read of the bank's consents (in the nightly chain and `settle serve`'s schedule):
// for each company and bank, the consent the bank lists for it is recorded with its status and
// expiry, so the "consent near expiry" alert, the reconciliation report and the console read the
// bank's view of at most a day ago. When the bank lists several consents for one pair (an old
// revoked one beside the new one), the usable one wins, then the one that lasts longest. A
// consent settle had recorded that the bank no longer lists is recorded as Deleted.
import type { BankClient, Consent } from '../../src/bank/index.js';
import { soleBankId, type CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import type { Logger } from '../../src/log/index.js';
import type { Store } from '../../src/store/index.js';
import { INACTIVE_CONSENT, ownsConsent } from './ownership.js';

export interface SyncConsentsDeps {
  store: Store;
  bank: BankClient;
  clock: Clock;
  logger: Logger;
  /** The bank's list as this run read it already (`consentListPerRun`); else it is read here. */
  listed?: () => Promise<ListedConsents>;
}

/** The subscription's consents as the bank listed them, and when. */
export interface ListedConsents {
  consents: readonly Consent[];
  at: Date;
}

/** Every consent the bank lists for the subscription (all its companies'), and the time of the read. */
async function listConsents(deps: Pick<SyncConsentsDeps, 'bank' | 'clock'>): Promise<ListedConsents> {
  const consents: Consent[] = [];
  for await (const consent of deps.bank.listConsents()) consents.push(consent);
  return { consents, at: deps.clock.now() };
}

/**
 * The bank lists every consent of the subscription, not one company's, so a bureau's chains
 * each reading it would ask the bank companies × pages times a night (40,000 requests for 1,000
 * companies). One read serves all of a run's companies; a read that failed is not kept, so the
 * next company asks again. What is recorded from it carries the time of the read, so a consent
 * settle learned of later in the run (onboarding, an event) is never overwritten by it.
 */
export function consentListPerRun(
  deps: Pick<SyncConsentsDeps, 'bank' | 'clock'>,
): (runId: string) => () => Promise<ListedConsents> {
  let kept: { runId: string; list: Promise<ListedConsents> } | undefined;
  return (runId) => () => {
    if (kept?.runId !== runId) {
      const list: Promise<ListedConsents> = listConsents(deps).catch((error: unknown) => {
        if (kept?.list === list) kept = undefined;
        throw error;
      });
      kept = { runId, list };
    }
    return kept.list;
  };
}

export interface SyncedConsent {
  company: string;
  bankId: string;
  consentId: string;
  status: string;
  expiresAt?: string;
}

export async function runSyncConsents(
  deps: SyncConsentsDeps,
  companies: readonly CompanyConfig[],
): Promise<SyncedConsent[]> {
  const { consents: listed, at } = await (deps.listed ?? (() => listConsents(deps)))();
  const out: SyncedConsent[] = [];
  for (const company of companies) {
    const best = new Map<string, Consent>();
    for (const c of listed) {
      const bankId = c.bankId ?? soleBankId(company);
      if (bankId === undefined || !ownsConsent(company, c)) continue;
      const kept = best.get(bankId);
      if (kept === undefined || better(c, kept)) best.set(bankId, c);
    }
    for (const [bankId, c] of best) {
      const expiresAt = validInstant(c.expiresAtUtc);
      await deps.store.consents.record({
        company: company.id,
        bankId,
        consentId: c.consentId,
        status: c.status,
        expiresAt,
        statusAt: at,
        source: 'bank',
      });
      out.push({
        company: company.id,
        bankId,
        consentId: c.consentId,
        status: c.status,
        ...(expiresAt ? { expiresAt: expiresAt.toISOString() } : {}),
      });
    }
    for (const stored of await deps.store.consents.list(company.id)) {
      if (best.has(stored.bankId) || listed.some((c) => c.consentId === stored.consentId)) continue;
      if (stored.status === 'Deleted') continue;
      await deps.store.consents.record({ ...stored, status: 'Deleted', statusAt: at, source: 'bank' });
      out.push({ company: company.id, bankId: stored.bankId, consentId: stored.consentId, status: 'Deleted' });
    }
  }
  deps.logger.info('consents read from the bank', { listed: listed.length, recorded: out.length });
  return out;
}

function better(a: Consent, b: Consent): boolean {
  const usable = (c: Consent) => !INACTIVE_CONSENT.has(c.status);
  if (usable(a) !== usable(b)) return usable(a);
  return (validInstant(a.expiresAtUtc)?.getTime() ?? Infinity) > (validInstant(b.expiresAtUtc)?.getTime() ?? Infinity);
}

function validInstant(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
