// `settle consents expiring` and `settle consents renew`: at bureau scale some consent expires
// every week. `expiring` lists, from the consents table (kept by onboarding, the nightly read of
// the bank's consents and consent events), every company's usable consents that expire within
// the window, with the people who must sign: the company's approvers (people with the approver
// role, and payments.approvers), the same people approval links go to. `renew` gets each one
// signed again, per company (and bank) or as a batch of the expiring ones:
//   - an active consent for the company at that bank (spec §3.1 rule 1: only one) is renewed
//     through a new consent link for it — a second one would be refused;
//   - one being signed right now (Started) is left alone: a new link would cancel the signing;
//   - no active one (expired, revoked): a new consent is created, with the old one's properties.
// Each consent link goes to the signers by e-mail as approval links do (alerts.email's SMTP server);
// without a server or signers it is printed for an operator to pass on.
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { approvers } from '../../../jobs/approve/index.js';
import type { BankClient, Consent, ConsentLink } from '../../bank/index.js';
import type { CompanyConfig } from '../../config/index.js';
import { parseDuration } from '../../config/duration.js';
import { SettleError } from '../../domain/errors.js';
import { formatInZone } from '../../domain/zoned-time.js';
import type { App } from '../../main/app.js';
import { createApp } from '../../main/app.js';
import { approvalMailer } from '../../main/payment-jobs.js';
import type { StoredConsent } from '../../store/index.js';
import { collect, printJson, renderTable, withBank } from './banks.js';
import { recordConsent } from './consent-record.js';
import { INACTIVE_CONSENT as INACTIVE, consentOrganisation } from '../../../jobs/consents/index.js';
import { context, type CliContext } from '../context.js';

const SCA_LINK_DAYS = 7;
const DAY_MS = 86_400_000;

interface Expiring {
  company: CompanyConfig;
  consent: StoredConsent;
}

function within(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0)
    throw new SettleError('ERR_USAGE', `--within takes a duration such as 14d or 36h, not "${text}"`);
  return ms;
}

async function withApp<T>(ctx: CliContext, work: (app: App) => Promise<T>): Promise<T> {
  const app = await createApp(ctx.config, ctx.logger);
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

/** Usable consents of configured companies that expire by now + windowMs, soonest first. */
async function expiring(app: App, windowMs: number): Promise<Expiring[]> {
  const byId = new Map(app.config.companies.map((c) => [c.id, c]));
  const rows = await app.store.consents.expiringBy(new Date(app.clock.now().getTime() + windowMs));
  return rows
    .flatMap((consent) => {
      const company = byId.get(consent.company);
      return company ? [{ company, consent }] : [];
    })
    .sort((a, b) => (a.consent.expiresAt?.getTime() ?? 0) - (b.consent.expiresAt?.getTime() ?? 0));
}

function signersOf(company: CompanyConfig): { name: string; email: string }[] {
  return approvers(company).map((p) => ({ name: p.name, email: p.email }));
}

export function addRenewalCommands(command: Command): void {
  command
    .command('expiring')
    .description("every company's consents that expire soon, with the people who must sign")
    .option('--within <duration>', 'how far ahead to look', '14d')
    .option('--json', 'print JSON for scripts')
    .action(async (opts: { within: string; json?: boolean }, cmd: Command) => {
      const windowMs = within(opts.within);
      const ctx = context(cmd);
      const found = await withApp(ctx, (app) => expiring(app, windowMs));
      const now = Date.now();
      if (opts.json)
        return printJson(
          found.map(({ company, consent }) => ({
            company: company.id,
            bankId: consent.bankId,
            consentId: consent.consentId,
            status: consent.status,
            expiresAt: consent.expiresAt?.toISOString() ?? null,
            daysLeft: consent.expiresAt ? Math.floor((consent.expiresAt.getTime() - now) / DAY_MS) : null,
            signers: signersOf(company),
          })),
        );
      if (found.length === 0) return void process.stdout.write(`no consent expires within ${opts.within}\n`);
      process.stdout.write(
        renderTable(
          ['COMPANY', 'BANK', 'CONSENT ID', 'EXPIRES', 'SIGNERS'],
          found.map(({ company, consent }) => [
            company.id,
            consent.bankId,
            consent.consentId,
            consent.expiresAt ? formatInZone(consent.expiresAt, company.timeZone ?? ctx.config.timeZone) : '-',
            signersOf(company)
              .map((s) => s.email)
              .join(', ') || '(none: add people with the approver role)',
          ]),
        ),
      );
      process.stdout.write(
        `renew: \`settle consents renew --company ID [--bank BANKID]\`, or all of them: \`settle consents renew --expiring --within ${opts.within}\`\n`,
      );
    });

  command
    .command('renew')
    .description('get consents signed again: one company (and bank), or every consent expiring soon')
    .option('--company <id>', 'the company (companies[].id)')
    .option('--bank <bankId>', 'only its consent at this bank')
    .option('--expiring', 'every consent that expires within --within')
    .option('--within <duration>', 'with --expiring: how far ahead to look', '14d')
    .option('--json', 'print JSON for scripts')
    .action(
      async (
        opts: { company?: string; bank?: string; expiring?: boolean; within: string; json?: boolean },
        cmd: Command,
      ) => {
        if ((opts.company === undefined) === (opts.expiring !== true))
          throw new SettleError('ERR_USAGE', 'give either --company ID [--bank BANKID] or --expiring [--within 14d]');
        const ctx = context(cmd);
        const targets = await withApp(ctx, (app) => renewalTargets(app, opts));
        await withBank(cmd, async (bank) => {
          const results: RenewalResult[] = [];
          for (const target of targets) results.push(await renewOne(ctx, bank, target));
          if (opts.json) return printJson(results);
          if (results.length === 0) return void process.stdout.write('nothing to renew\n');
          for (const r of results) process.stdout.write(`${r.company} at ${r.bankId}: ${r.summary}\n`);
        });
      },
    );
}

interface Target {
  company: CompanyConfig;
  bankId: string;
  /** The consent settle knows for the pair, if any. */
  consentId?: string;
}

async function renewalTargets(
  app: App,
  opts: { company?: string; bank?: string; within: string; expiring?: boolean },
): Promise<Target[]> {
  if (opts.expiring)
    return (await expiring(app, within(opts.within))).map(({ company, consent }) => ({
      company,
      bankId: consent.bankId,
      consentId: consent.consentId,
    }));
  const company = app.config.companies.find((c) => c.id === opts.company);
  if (!company)
    throw new SettleError(
      'ERR_USAGE',
      `no company "${opts.company}" in the configuration (companies[].id: ${app.config.companies.map((c) => c.id).join(', ') || 'none'})`,
    );
  const known = (await app.store.consents.list(company.id)).filter(
    (c) => opts.bank === undefined || c.bankId === opts.bank,
  );
  const targets: Target[] = known.map((c) => ({ company, bankId: c.bankId, consentId: c.consentId }));
  const bankId = opts.bank ?? company.bankId;
  if (bankId !== undefined && !targets.some((t) => t.bankId === bankId)) targets.push({ company, bankId });
  if (targets.length === 0)
    throw new SettleError(
      'ERR_USAGE',
      `settle knows no consent of ${company.id} and no bank is named: give --bank BANKID (\`settle banks list\`)`,
    );
  return targets;
}

interface RenewalResult {
  company: string;
  bankId: string;
  consentId: string | null;
  outcome: 'link-sent' | 'link-printed' | 'created' | 'signing-under-way';
  /** Whom the consent link went to by e-mail. */
  sentTo: string[];
  summary: string;
}

async function renewOne(ctx: CliContext, bank: BankClient, target: Target): Promise<RenewalResult> {
  const { company, bankId } = target;
  const org = company.organisationNumber;
  // Rule 1 (spec §3.1): one active consent per company per bank — look before creating.
  const consents = await collect(bank.listConsents());
  const mine = consents.filter((c) => c.bankId === bankId && consentOrganisation(c) === org);
  const active = mine.find((c) => !INACTIVE.has(c.status));
  const base = { company: company.id, bankId };
  if (active?.status === 'Started')
    return {
      ...base,
      consentId: active.consentId,
      outcome: 'signing-under-way',
      sentTo: [],
      summary: `consent ${active.consentId} is being signed right now; no new link (it would cancel the signing). Check again later.`,
    };
  let link: ConsentLink;
  let created = false;
  if (active) {
    link = await bank.refreshConsent(active.consentId);
  } else {
    const previous = mine.find((c) => c.consentId === target.consentId) ?? mine[0];
    link = await bank.createConsent(
      {
        bankId,
        organisationNumber: org,
        displayName: company.name,
        properties: previousProperties(previous),
      },
      { idempotencyKey: randomUUID() },
    );
    created = true;
    if (!link.redirectUrl) link = await bank.refreshConsent(link.consentId);
  }
  await recordConsent(ctx, bank, link.consentId, created ? 'onboarding' : 'refresh');
  const sentTo = await sendLink(ctx, company, { bankId, link });
  const what = created ? `new consent ${link.consentId} created` : `consent ${link.consentId} renewed`;
  if (sentTo.length > 0)
    return {
      ...base,
      consentId: link.consentId,
      outcome: created ? 'created' : 'link-sent',
      sentTo,
      summary: `${what}; the consent link went to ${sentTo.join(', ')}`,
    };
  return {
    ...base,
    consentId: link.consentId,
    outcome: created ? 'created' : 'link-printed',
    sentTo,
    summary: `${what}; no signer received it (no approver e-mail or no alerts.email server). Pass this single-use link to a person with signing authority: ${link.redirectUrl ?? '(the bank returned none)'}`,
  };
}

/** The old consent's bank properties (its account numbers, say), for the new one at the same bank. */
function previousProperties(previous: Consent | undefined): Record<string, string> {
  const props = previous?.raw.properties;
  const out: Record<string, string> = {};
  if (props !== null && typeof props === 'object')
    for (const [k, v] of Object.entries(props as Record<string, unknown>)) if (typeof v === 'string') out[k] = v;
  return out;
}

async function sendLink(
  ctx: CliContext,
  company: CompanyConfig,
  renewal: { bankId: string; link: ConsentLink },
): Promise<string[]> {
  const { bankId, link } = renewal;
  const mail = approvalMailer(ctx.config);
  const to = signersOf(company).map((s) => s.email);
  if (mail === undefined || to.length === 0 || !link.redirectUrl) return [];
  const by = formatInZone(new Date(Date.now() + SCA_LINK_DAYS * DAY_MS), company.timeZone ?? ctx.config.timeZone);
  await mail.send(
    to,
    `Consent to sign: ${company.name} at ${bankId}`,
    [
      `settle's access to ${company.name}'s accounts at ${bankId} must be signed again (consent ${link.consentId}).`,
      '',
      `Sign with your electronic ID here: ${link.redirectUrl}`,
      '',
      `The link works once and expires by ${by}. You need signing authority for ${company.name} and its accounts.`,
      'Until it is signed, payments and statements at this bank stop when the current consent expires.',
    ].join('\n'),
  );
  return to;
}
