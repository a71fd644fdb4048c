// `settle config check --online`: what a valid configuration still cannot promise — that each
// company's folders are there (local, or over SFTP with the pinned host key), that the database
// answers with this version's schema, and that the bank gives a token, knows each company's
// consent as Authorized and has its accounts enabled. Each problem is one located line.
import { companyBanks, pinnedConsentIds, type CompanyConfig, type Config } from '../config/index.js';
import { didYouMean } from '../config/did-you-mean.js';
import { isSettleError } from '../domain/errors.js';
import type { Logger } from '../log/index.js';
import { redactText } from '../log/index.js';
import { createBankClient } from './bank.js';
import { openConfiguredDatabase } from './database.js';
import { CompanyFileStores } from './file-stores.js';
import type { BankClient, Consent } from '../bank/index.js';

export interface OnlineCheck {
  area: 'folders' | 'database' | 'bank';
  /** What was checked, e.g. `acme folders.inbox (inbox)`, `consent 1e5e… of acme`. */
  subject: string;
  ok: boolean;
  /** What was found; for a problem, what is wrong and what to do. */
  message: string;
}

function said(error: unknown): string {
  const text = isSettleError(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
  return redactText(text);
}

export async function checkOnline(config: Readonly<Config>, logger: Logger): Promise<OnlineCheck[]> {
  return [
    ...(await checkFolders(config, logger)),
    ...(await checkDatabase(config, logger)),
    ...(await checkBank(config, logger)),
  ];
}

async function checkFolders(config: Readonly<Config>, logger: Logger): Promise<OnlineCheck[]> {
  const out: OnlineCheck[] = [];
  const stores = new CompanyFileStores(config, logger);
  try {
    for (const company of config.companies) {
      const where = company.transport === 'local' ? company.root : `${company.transport}:${company.root}`;
      for (const [key, dir] of Object.entries(company.folders)) {
        if (dir === undefined) continue;
        const subject = `${company.id} folders.${key} (${dir} in ${where})`;
        try {
          const scan = await (await stores.fileStore(company)).scan(dir);
          out.push({ area: 'folders', subject, ok: true, message: `${scan.files.length} file(s)` });
        } catch (error) {
          const missing = isSettleError(error) && error.code === 'ERR_FILE_NOT_FOUND';
          out.push({
            area: 'folders',
            subject,
            ok: false,
            message: missing
              ? `the folder does not exist: create it, or correct companies[${company.id}].folders.${key}`
              : said(error),
          });
        }
      }
    }
  } finally {
    await stores.close();
  }
  return out;
}

async function checkDatabase(config: Readonly<Config>, logger: Logger): Promise<OnlineCheck[]> {
  let db;
  try {
    db = await openConfiguredDatabase(config, logger);
  } catch (error) {
    return [{ area: 'database', subject: 'database', ok: false, message: said(error) }];
  }
  try {
    const status = await db.migrationStatus();
    const subject = `database ${db.description}`;
    if (status.unknown.length > 0)
      return [
        {
          area: 'database',
          subject,
          ok: false,
          message: `a newer settle migrated it (${status.unknown.join(', ')}): run that version, not this one`,
        },
      ];
    if (status.pending.length > 0)
      return [
        {
          area: 'database',
          subject,
          ok: false,
          message: `${status.pending.length} migration(s) not applied yet: run \`settle db migrate\``,
        },
      ];
    return [{ area: 'database', subject, ok: true, message: `schema current (${status.applied.length} migrations)` }];
  } catch (error) {
    return [{ area: 'database', subject: `database ${db.description}`, ok: false, message: said(error) }];
  } finally {
    await db.close();
  }
}

async function checkBank(config: Readonly<Config>, logger: Logger): Promise<OnlineCheck[]> {
  const bank = createBankClient(config, logger);
  try {
    const consents: Consent[] = [];
    try {
      for await (const c of bank.listConsents()) consents.push(c);
    } catch (error) {
      // The first call fetches the token: a wrong secret or tenant shows here.
      return [{ area: 'bank', subject: `bank ${config.bank.baseUrl}`, ok: false, message: said(error) }];
    }
    const out: OnlineCheck[] = [
      { area: 'bank', subject: `bank ${config.bank.baseUrl}`, ok: true, message: 'token issued' },
      ...(await checkBankIds(bank, config)),
    ];
    for (const company of config.companies) out.push(...(await checkCompanyAtBank(bank, company, consents)));
    return out;
  } finally {
    await bank.close();
  }
}

/**
 * Every configured bankId exactly as the bank lists it. The bank treats ids as case-sensitive
 * (spec §2.2), so `Nordbank` for `nordbank` is a mistake that would first show as a rejected
 * file: name it here, with the listed id it most likely meant.
 */
async function checkBankIds(bank: BankClient, config: Readonly<Config>): Promise<OnlineCheck[]> {
  const listed: string[] = [];
  try {
    for await (const b of bank.listBanks()) listed.push(b.bankId);
  } catch (error) {
    return [{ area: 'bank', subject: 'bank list', ok: false, message: said(error) }];
  }
  return config.companies.flatMap((company) =>
    companyBanks(company).map(({ bankId }): OnlineCheck => {
      const subject = `${company.id} bankId ${bankId}`;
      if (listed.includes(bankId)) return { area: 'bank', subject, ok: true, message: 'listed by the bank' };
      const near = didYouMean(bankId, listed);
      return {
        area: 'bank',
        subject,
        ok: false,
        message: near
          ? `the bank does not list "${bankId}"; did you mean "${near}"? bankIds are case-sensitive: write it exactly as \`settle banks list\` shows it`
          : `the bank does not list "${bankId}": see \`settle banks list\` for the bankIds it offers`,
      };
    }),
  );
}

async function checkCompanyAtBank(
  bank: BankClient,
  company: CompanyConfig,
  consents: readonly Consent[],
): Promise<OnlineCheck[]> {
  const out: OnlineCheck[] = [];
  for (const consentId of pinnedConsentIds(company)) {
    const consent = consents.find((c) => c.consentId === consentId);
    const subject = `${company.id} consent ${consentId}`;
    if (!consent)
      out.push({
        area: 'bank',
        subject,
        ok: false,
        message: 'the bank does not know it: check companies[].banks[].consentId (or companies[].consentId)',
      });
    else
      out.push({
        area: 'bank',
        subject,
        ok: consent.status === 'Authorized',
        message:
          consent.status === 'Authorized'
            ? `Authorized${consent.expiresAtUtc ? `, expires ${consent.expiresAtUtc}` : ''}`
            : `${consent.status}, not Authorized: no statements or payments until it is (settle consents show ${consent.consentId})`,
      });
  }
  try {
    let count = 0;
    for await (const account of bank.listAccounts({ resourceGroupName: company.organisationNumber })) {
      count++;
      const subject = `${company.id} account ${account.iban ?? account.bban ?? account.id}`;
      out.push({
        area: 'bank',
        subject,
        ok: account.status === 'enabled',
        message:
          account.status === 'enabled'
            ? 'enabled'
            : `${account.status ?? 'without status'}: not usable for statements or payments until the bank enables it`,
      });
    }
    if (count === 0)
      out.push({
        area: 'bank',
        subject: `${company.id} accounts`,
        ok: false,
        message: `the bank lists no account for organisation ${company.organisationNumber}: onboard it (settle consents create)`,
      });
  } catch (error) {
    out.push({ area: 'bank', subject: `${company.id} accounts`, ok: false, message: said(error) });
  }
  return out;
}
