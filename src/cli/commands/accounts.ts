// `settle accounts list|show`: the onboarded accounts and their status. An Authorized consent
// does not make an account usable: only its own status `enabled` does (spec §3.1 rule 2), so
// every account that is not enabled under an Authorized consent gets a warning.
import { Command } from 'commander';
import type { Account, BankClient, Consent, DataContext } from '../../bank/index.js';
import { collect, printJson, renderTable, withBank } from './banks.js';
import { consentCompany } from './consents.js';
import { notEnabledLine } from './not-enabled.js';

export interface AccountRow {
  account: Account;
  organisationNumber: string | undefined;
}

/** Warnings for accounts that are not `enabled` although their company's consent at that bank is Authorized. */
export function notEnabledWarnings(rows: readonly AccountRow[], consents: readonly Consent[]): string[] {
  const warnings: string[] = [];
  for (const { account, organisationNumber } of rows) {
    if (account.status === 'enabled') continue;
    const consent = consents.find(
      (c) =>
        c.status === 'Authorized' &&
        (account.bankId === undefined || c.bankId === account.bankId) &&
        (organisationNumber === undefined || consentCompany(c) === organisationNumber),
    );
    if (!consent) continue;
    warnings.push(notEnabledLine(account, consent));
  }
  return warnings;
}

function contexts(
  orgs: readonly string[],
  subscriptionId: string,
): { context: DataContext; org: string | undefined }[] {
  if (orgs.length) return orgs.map((org) => ({ context: { resourceGroupName: org }, org }));
  return [{ context: { scopes: [`/subscriptions/${subscriptionId}`] }, org: undefined }];
}

/** The stable `--json` shape of an account (docs/cli-json.md); the bank's raw answer stays out. */
function accountJson({ account: a, organisationNumber }: AccountRow): Record<string, unknown> {
  return {
    id: a.id,
    iban: a.iban ?? null,
    bban: a.bban ?? null,
    other: a.other ?? null,
    bic: a.bic ?? null,
    currency: a.currency ?? null,
    name: a.displayName ?? a.name ?? null,
    ownerName: a.ownerName ?? null,
    status: a.status ?? null,
    bankId: a.bankId ?? null,
    organisationNumber: organisationNumber ?? null,
    balances: a.balances.map((b) => ({
      type: b.balanceType,
      amount: b.balanceAmount.amount,
      currency: b.balanceAmount.currency ?? a.currency ?? null,
      referenceDate: b.referenceDate ?? null,
    })),
  };
}

async function listRows(bank: BankClient, orgs: readonly string[], subscriptionId: string): Promise<AccountRow[]> {
  const rows: AccountRow[] = [];
  for (const { context, org } of contexts(orgs, subscriptionId)) {
    for await (const account of bank.listAccounts(context)) rows.push({ account, organisationNumber: org });
  }
  return rows;
}

export function accountsCommand(): Command {
  const command = new Command('accounts').description('the onboarded bank accounts and their status');

  command
    .command('list')
    .description(
      'list accounts (of one company with --org; else of every configured company, or the whole subscription)',
    )
    .option('--org <orgno>', 'organisation number of the company')
    .option('--bank <bankId>', 'only the accounts at this bank')
    .option('--json', 'print JSON for scripts')
    .action(async (opts: { org?: string; bank?: string; json?: boolean }, cmd: Command) => {
      await withBank(cmd, async (bank, { config }) => {
        const orgs = opts.org ? [opts.org] : config.companies.map((c) => c.organisationNumber);
        const rows = (await listRows(bank, [...new Set(orgs)], config.bank.subscriptionId)).filter(
          (r) => opts.bank === undefined || r.account.bankId === opts.bank,
        );
        const warnings = notEnabledWarnings(rows, await collect(bank.listConsents()));
        for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
        if (opts.json) return printJson(rows.map(accountJson));
        if (rows.length === 0) return void process.stdout.write('no accounts\n');
        process.stdout.write(
          renderTable(
            ['ACCOUNT ID', 'IBAN', 'CURRENCY', 'STATUS', 'COMPANY', 'BANK', 'NAME'],
            rows.map(({ account: a, organisationNumber }) => [
              a.id,
              a.iban ?? a.bban ?? a.other?.identification ?? '-',
              a.currency ?? '-',
              a.status ?? '-',
              organisationNumber ?? '-',
              a.bankId ?? '-',
              a.displayName ?? a.name ?? '',
            ]),
          ),
        );
      });
    });

  command
    .command('show')
    .description('show one account with its approval parameters and balances')
    .argument('<accountId>')
    .option('--org <orgno>', 'organisation number of the company (default: the whole subscription)')
    .option('--json', 'print JSON for scripts')
    .action(async (accountId: string, opts: { org?: string; json?: boolean }, cmd: Command) => {
      await withBank(cmd, async (bank, { config }) => {
        const [{ context, org }] = contexts(opts.org ? [opts.org] : [], config.bank.subscriptionId) as [
          { context: DataContext; org: string | undefined },
        ];
        const account = await bank.getAccount(context, accountId);
        const params = await bank.getAccountParameters(context, accountId);
        if (opts.json) {
          return printJson({
            ...accountJson({ account, organisationNumber: org }),
            parameters: {
              preApproval: params.preApproval ?? null,
              numberOfApprovers: params.numberOfApprovers ?? null,
            },
          });
        }
        const lines = [
          `account:      ${account.id}`,
          `IBAN:         ${account.iban ?? '-'}`,
          `BBAN:         ${account.bban ?? '-'}`,
          `currency:     ${account.currency ?? '-'}`,
          `name:         ${account.displayName ?? account.name ?? '-'}`,
          `owner:        ${account.ownerName ?? '-'}`,
          `bank:         ${account.bankId ?? '-'}`,
          `status:       ${account.status ?? '-'}${account.status === 'enabled' ? '' : ' (not usable for statements or payments)'}`,
          `pre-approval: ${params.preApproval === undefined ? '-' : params.preApproval ? `yes, ${params.numberOfApprovers ?? '?'} approver(s) sign payments in a signing basket` : 'no, payments go straight to the bank'}`,
        ];
        process.stdout.write(lines.join('\n') + '\n');
        if (account.balances.length) {
          process.stdout.write(
            '\n' +
              renderTable(
                ['BALANCE', 'AMOUNT', 'CURRENCY', 'DATE'],
                account.balances.map((b) => [
                  b.balanceType,
                  b.balanceAmount.amount,
                  b.balanceAmount.currency ?? account.currency ?? '',
                  b.referenceDate ?? '',
                ]),
              ),
          );
        }
      });
    });
  return command;
}
