// A company's account directory, read from its banks: one account list in the company's resource
// group (every bank's accounts are in it), and the parameters of each enabled account (does a
// payment wait for a signing basket, and for how many approvers). Stored with the time of the
// read, so submit and approve find the bank of a debtor account without asking again, and read
// at most once per run per company (`directoryOncePerRun`).
import { type BankClient, isBankError } from '../../src/bank/index.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { normalizeIban } from '../../src/domain/account-id.js';
import type { Clock } from '../../src/domain/clock.js';
import type { Logger } from '../../src/log/index.js';
import type { AccountDirectory, BankAccountInput, Store } from '../../src/store/index.js';

export interface DirectoryDeps {
  store: Store;
  bank: BankClient;
  clock: Clock;
  logger: Logger;
}

/** Why the directory could not be read: the bank did not answer or refused (the caller waits). */
export interface DirectoryUnreachable {
  unreachable: string;
}

/** Reads the company's accounts (and their approval parameters) from the bank and stores them. */
export async function readAccountDirectory(
  deps: DirectoryDeps,
  company: CompanyConfig,
): Promise<AccountDirectory | DirectoryUnreachable> {
  const context = { resourceGroupName: company.organisationNumber };
  const accounts: BankAccountInput[] = [];
  try {
    for await (const a of deps.bank.listAccounts(context)) {
      const enabled = a.status === undefined || a.status === 'enabled';
      // Parameters of an account the bank does not serve yet are not needed (and may be refused).
      const parameters = enabled ? await deps.bank.getAccountParameters(context, a.id) : undefined;
      accounts.push({
        accountId: a.id,
        bankId: a.bankId,
        iban: a.iban,
        bban: a.bban,
        currency: a.currency,
        name: a.displayName ?? a.name,
        status: a.status,
        preApproval: parameters?.preApproval,
        numberOfApprovers: parameters?.numberOfApprovers,
      });
    }
  } catch (error) {
    if (!isBankError(error)) throw error;
    deps.logger.warn('the bank did not give the account list; tried again next run', {
      company: company.id,
      code: error.code,
      ...(error.status === undefined ? {} : { status: error.status }),
    });
    return { unreachable: `${error.code}${error.status === undefined ? '' : ` (HTTP ${error.status})`}` };
  }
  const readAt = deps.clock.now();
  await deps.store.bankAccounts.replace(company.id, accounts, readAt);
  deps.logger.info('account list read from the bank', { company: company.id, accounts: accounts.length });
  return (await deps.store.bankAccounts.directory(company.id))!;
}

/** A reader that asks the bank at most once per company for as long as it lives (one run). */
export function directoryOncePerRun(
  deps: DirectoryDeps,
): (company: CompanyConfig) => Promise<AccountDirectory | DirectoryUnreachable> {
  const reads = new Map<string, Promise<AccountDirectory | DirectoryUnreachable>>();
  return (company) => {
    let read = reads.get(company.id);
    if (read === undefined) {
      read = readAccountDirectory(deps, company);
      reads.set(company.id, read);
    }
    return read;
  };
}

/**
 * The directory as last stored, read from the bank only when there is none yet or an account
 * asked for is missing from it (a new account onboarded since the last read) or was stored
 * without its parameters (it was not enabled then).
 */
export async function directoryWith(
  deps: DirectoryDeps,
  company: CompanyConfig,
  ibans: readonly string[],
): Promise<AccountDirectory | DirectoryUnreachable> {
  const stored = await deps.store.bankAccounts.directory(company.id);
  const known = new Set(
    stored?.accounts.flatMap((a) => (a.iban === undefined || a.preApproval === undefined ? [] : [a.iban])) ?? [],
  );
  if (stored !== undefined && ibans.every((iban) => known.has(normalizeIban(iban)))) return stored;
  return readAccountDirectory(deps, company);
}

export function isUnreachable(d: AccountDirectory | DirectoryUnreachable): d is DirectoryUnreachable {
  return 'unreachable' in d;
}
