// `settle consents create|refresh|list|show|delete`: onboarding a company at a bank. Creation
// checks the rules of spec §3.1 first (one active consent per company per bank; bankId exactly
// as listed; the bank's required properties); refresh prints the consent link with what an
// operator must know about it (single use, expires within 7 days, signing authority).
import { randomUUID } from 'node:crypto';
import { Command } from 'commander';
import type { Bank, BankClient, Consent, ConsentLink } from '../../bank/index.js';
import { systemClock } from '../../domain/clock.js';
import { SettleError } from '../../domain/errors.js';
import { consentOrganisation, INACTIVE_CONSENT as INACTIVE } from '../../../jobs/consents/index.js';
import { collect, findListedBank, printJson, renderTable, withBank } from './banks.js';
import { notEnabledAtBank } from './not-enabled.js';
import { recordConsent } from './consent-record.js';
import { addRenewalCommands } from './consents-renewal.js';
const SCA_LINK_DAYS = 7;

/** The company (resource group) of a consent, read from its resource id. */
export function consentCompany(c: Consent): string | undefined {
  return consentOrganisation(c);
}

/** The stable `--json` shape of a consent (docs/cli-json.md); the bank's raw answer stays out. */
function consentJson(c: Consent): Record<string, unknown> {
  return {
    consentId: c.consentId,
    status: c.status,
    bankId: c.bankId ?? null,
    organisationNumber: consentCompany(c) ?? null,
    expiresAt: c.expiresAtUtc ?? null,
    usable: c.status === 'Authorized',
    next: nextStep(c) ?? null,
  };
}

/**
 * What an operator does next about a consent that is not usable yet. A consent in `Started` is
 * being signed: a new link would be invoiced and would cancel the signing under way.
 */
export function nextStep(c: Pick<Consent, 'consentId' | 'status'>): string | undefined {
  if (c.status === 'Started')
    return 'not usable yet: the signer has opened the consent link and the bank is completing it; wait and check again (do not request a new link)';
  if (c.status === 'Authorized' || INACTIVE.has(c.status)) return undefined;
  return `not usable yet: accounts are provisioned once it is Authorized (\`settle consents refresh ${c.consentId}\` for a consent link)`;
}

function linkJson(l: ConsentLink, expiresBy?: string): Record<string, unknown> {
  const { raw: _raw, ...rest } = l;
  return expiresBy ? { ...rest, expiresBy, singleUse: true } : rest;
}

/** An active consent for this company at this bank, if there is one (spec §3.1 rule 1). */
export async function activeConsent(bank: BankClient, bankId: string, org: string): Promise<Consent | undefined> {
  const consents = await collect(bank.listConsents());
  return consents.find((c) => c.bankId === bankId && consentCompany(c) === org && !INACTIVE.has(c.status));
}

/** The active consent of --org at --bank, for `consents refresh` without a consent id. */
async function consentOfBank(bank: BankClient, opts: { bank?: string; org?: string }): Promise<string> {
  if (opts.bank === undefined || opts.org === undefined)
    throw new SettleError(
      'ERR_USAGE',
      'give the consent id, or --bank and --org to name the consent of a company at a bank',
    );
  const listed = await findListedBank(bank, opts.bank);
  const active = await activeConsent(bank, listed.bankId, opts.org);
  if (active === undefined)
    throw new SettleError(
      'ERR_USAGE',
      `company ${opts.org} has no active consent at ${listed.bankId}: create one with \`settle consents create --bank ${listed.bankId} --org ${opts.org}\``,
    );
  return active.consentId;
}

function properties(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new SettleError('ERR_USAGE', `--property must look like KEY=VALUE, not "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** Required properties of the bank that the command line does not provide. */
function missingProperties(b: Bank, given: Record<string, string>): string[] {
  const filled = new Set(['isHeadless', 'psuCorporateId', 'combinedServiceIndicator', ...Object.keys(given)]);
  return b.propertyRequirements.filter((r) => r.required && !filled.has(r.key)).map((r) => r.key);
}

function scaNotice(link: ConsentLink): string {
  const expiresBy = new Date(systemClock.now().getTime() + SCA_LINK_DAYS * 86_400_000)
    .toISOString()
    .slice(0, 16)
    .replace('T', ' ');
  return [
    `consent link for consent ${link.consentId} (status ${link.status}):`,
    '',
    `  ${link.redirectUrl ?? '(the bank returned no link)'}`,
    '',
    `It expires within ${SCA_LINK_DAYS} days (by ${expiresBy} UTC at the latest) and works ONCE: opening it a second time invalidates it.`,
    'Send it to a person with signing authority for both the company and the accounts; anyone else fails validation.',
    'Do not request links needlessly: every refresh issues a new link, and excessive links may be invoiced.',
  ].join('\n');
}

/**
 * An account number as the bank wants it in a consent: the domestic number (BBAN), digits only
 * (spaces and dots as written on paper are dropped). An IBAN is refused before calling the bank,
 * naming the number inside it.
 */
function accountNumber(text: string): string {
  const compact = text.replace(/[\s.]/g, '');
  if (/^[A-Za-z]{2}\d{2}[A-Za-z0-9]+$/.test(compact))
    throw new SettleError(
      'ERR_CONSENT_ACCOUNT_NOT_BBAN',
      `--accounts takes the domestic account numbers (BBAN) the bank expects, not an IBAN: "${text}" — give ${compact.slice(4)}`,
    );
  if (!/^\d{5,30}$/.test(compact))
    throw new SettleError(
      'ERR_CONSENT_ACCOUNT_NOT_BBAN',
      `--accounts takes domestic account numbers (BBAN, digits only, e.g. 15031234562), not "${text}"`,
    );
  return compact;
}

function listOption(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function consentsCommand(): Command {
  const command = new Command('consents').description(
    'onboard companies at banks: create, refresh (consent link), list, show, delete, expiring, renew consents',
  );

  command
    .command('create')
    .description('create a consent linking a company’s accounts at a bank (checks for an active one first)')
    .requiredOption('--bank <bankId>', 'bankId exactly as `settle banks list` shows it')
    .requiredOption('--org <orgno>', 'organisation number of the company (its resource group)')
    .option('--name <name>', 'display name of the company')
    .option('--accounts <list>', 'comma-separated account numbers to onboard')
    .option('--approvers <n>', 'number of required approvers (beta at the bank)')
    .option('--property <key=value>', 'extra bank-specific consent property (repeatable)', listOption, [])
    .option('--json', 'print JSON for scripts')
    .action(
      async (
        opts: {
          bank: string;
          org: string;
          name?: string;
          accounts?: string;
          approvers?: string;
          property: string[];
          json?: boolean;
        },
        cmd: Command,
      ) => {
        if (!/^[A-Za-z0-9_-]+$/.test(opts.org))
          throw new SettleError(
            'ERR_USAGE',
            `--org must be letters, digits, - or _ (an organisation number), not "${opts.org}"`,
          );
        if (opts.approvers !== undefined && !/^[1-9]\d?$/.test(opts.approvers))
          throw new SettleError('ERR_USAGE', `--approvers must be a small positive number, not "${opts.approvers}"`);
        const accounts = (opts.accounts ?? '')
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean)
          .map(accountNumber);
        const extra = properties(opts.property);
        if (accounts.length) extra.accountNumbers = accounts.join(',');
        if (opts.approvers !== undefined) extra.numberOfApprovers = opts.approvers;
        await withBank(cmd, async (bank, ctx) => {
          const listed = await findListedBank(bank, opts.bank);
          const missing = missingProperties(listed, extra);
          if (missing.length) {
            throw new SettleError(
              'ERR_CONSENT_PROPERTIES_MISSING',
              `bank ${listed.bankId} requires consent properties ${missing.join(', ')}; give them with --accounts or --property KEY=VALUE (see \`settle banks show ${listed.bankId}\`)`,
            );
          }
          const existing = await activeConsent(bank, listed.bankId, opts.org);
          if (existing) {
            throw new SettleError(
              'ERR_CONSENT_EXISTS',
              `company ${opts.org} already has consent ${existing.consentId} (${existing.status}) at ${listed.bankId}; only one active consent per company per bank is allowed — ${existing.status === 'Started' ? 'its signing is under way: wait until it is Authorized (do not request a new link)' : `use \`settle consents refresh ${existing.consentId}\` for a new consent link, or delete it first`}`,
            );
          }
          const created = await bank.createConsent(
            {
              bankId: listed.bankId,
              organisationNumber: opts.org,
              ...(opts.name ? { displayName: opts.name } : {}),
              properties: extra,
            },
            { idempotencyKey: randomUUID() },
          );
          await recordConsent(ctx, bank, created.consentId, 'onboarding');
          if (opts.json) return printJson(linkJson(created));
          const waiting = await notEnabledAtBank(bank, opts.org, { ...created, bankId: listed.bankId });
          process.stdout.write(
            `created consent ${created.consentId} for ${opts.org} at ${listed.bankId}: status ${created.status}\n`,
          );
          if (created.redirectUrl) process.stdout.write('\n' + scaNotice(created) + '\n');
          else
            process.stdout.write(
              `next: \`settle consents refresh ${created.consentId}\` gives the consent link for the person who signs\n`,
            );
          process.stdout.write(waiting.map((w) => `${w}\n`).join(''));
        });
      },
    );

  command
    .command('refresh')
    .description('get a new consent link for a consent (single use, expires within 7 days)')
    .argument('[consentId]', 'the consent; or name it by --bank and --org')
    .option('--bank <bankId>', 'the bank of the consent (with --org, instead of the consent id)')
    .option('--org <orgno>', 'organisation number of the company (with --bank)')
    .option('--json', 'print JSON for scripts')
    .action(async (given: string | undefined, opts: { bank?: string; org?: string; json?: boolean }, cmd: Command) => {
      await withBank(cmd, async (bank, ctx) => {
        const consentId = given ?? (await consentOfBank(bank, opts));
        const link = await bank.refreshConsent(consentId);
        await recordConsent(ctx, bank, consentId, 'refresh');
        if (opts.json)
          return printJson(
            linkJson(link, new Date(systemClock.now().getTime() + SCA_LINK_DAYS * 86_400_000).toISOString()),
          );
        process.stdout.write(scaNotice(link) + '\n');
        const consent = await bank.getConsent(consentId);
        const org = consentCompany(consent);
        if (org !== undefined && consent.bankId !== undefined)
          process.stdout.write(
            (await notEnabledAtBank(bank, org, { ...consent, bankId: consent.bankId })).map((w) => `${w}\n`).join(''),
          );
      });
    });

  command
    .command('list')
    .description('list the consents of the subscription')
    .option('--status <status>', 'only consents with this status (e.g. Authorized)')
    .option('--json', 'print JSON for scripts')
    .action(async (opts: { status?: string; json?: boolean }, cmd: Command) => {
      await withBank(cmd, async (bank) => {
        const consents = await collect(bank.listConsents(opts.status ? { status: opts.status } : {}));
        if (opts.json) return printJson(consents.map(consentJson));
        if (consents.length === 0) return void process.stdout.write('no consents\n');
        process.stdout.write(
          renderTable(
            ['CONSENT ID', 'STATUS', 'BANK', 'COMPANY', 'EXPIRES'],
            consents.map((c) => [
              c.consentId,
              c.status,
              c.bankId ?? '-',
              consentCompany(c) ?? '-',
              c.expiresAtUtc ?? 'never',
            ]),
          ),
        );
      });
    });

  command
    .command('show')
    .description('show one consent')
    .argument('<consentId>')
    .option('--json', 'print JSON for scripts')
    .action(async (consentId: string, opts: { json?: boolean }, cmd: Command) => {
      await withBank(cmd, async (bank) => {
        const c = await bank.getConsent(consentId);
        if (opts.json) return printJson(consentJson(c));
        process.stdout.write(
          [
            `consent:  ${c.consentId}`,
            `status:   ${c.status}`,
            `bank:     ${c.bankId ?? '-'}`,
            `company:  ${consentCompany(c) ?? '-'}`,
            `expires:  ${c.expiresAtUtc ?? 'never'}`,
          ].join('\n') + '\n',
        );
        const next = nextStep(c);
        if (next) process.stdout.write(`${next}\n`);
      });
    });

  command
    .command('delete')
    .description('delete (withdraw) a consent')
    .argument('<consentId>')
    .action(async (consentId: string, _opts: unknown, cmd: Command) => {
      await withBank(cmd, async (bank) => {
        const current = await bank.getConsent(consentId);
        if (current.status === 'Revoked')
          return void process.stdout.write(`consent ${consentId} is already revoked; nothing to delete\n`);
        await bank.deleteConsent(consentId);
        process.stdout.write(`deleted consent ${consentId}\n`);
      });
    });
  addRenewalCommands(command);
  return command;
}
