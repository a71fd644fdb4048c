// `settle banks list|show`: the bank directory, for onboarding. bankIds are shown exactly as
// the bank lists them (they are case-sensitive); `show` includes the bank-specific consent
// property requirements.
import { Command, Option } from 'commander';
import { isBankError, type Bank, type BankClient } from '../../bank/index.js';
import { SettleError } from '../../domain/errors.js';
import { createLogger } from '../../log/index.js';
import { createBankClient } from '../../main/bank.js';
import { context } from '../context.js';

/** A plain text table: columns padded to their widest cell. */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n') + '\n';
}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/**
 * Runs `work` with a bank client built from the command's configuration, closing it after. The
 * client logs to stderr: stdout carries the table or the --json document a script reads.
 */
export async function withBank<T>(
  cmd: Command,
  work: (bank: BankClient, ctx: ReturnType<typeof context>) => Promise<T>,
): Promise<T> {
  const ctx = context(cmd);
  const format = ctx.config.log.format === 'auto' ? undefined : ctx.config.log.format;
  const logger = createLogger({ level: ctx.config.log.level, stream: process.stderr, ...(format ? { format } : {}) });
  const bank = createBankClient(ctx.config, logger);
  try {
    return await work(bank, ctx);
  } catch (error) {
    // An id a person typed that the bank does not know is a finding (exit 1), not a failure.
    if (isBankError(error) && error.status === 404)
      throw new SettleError(
        'ERR_BANK_ID_NOT_FOUND',
        `the bank does not know that id (${error.title ?? 'not found'}); check it against \`settle consents list\`, \`settle accounts list\` or \`settle banks list\``,
        { cause: error },
      );
    throw error;
  } finally {
    await bank.close();
  }
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/**
 * The bank exactly as listed. A bankId in another casing (or unknown) is refused with the ids
 * that do exist, never silently corrected: the bank treats ids as case-sensitive (spec §2.2, §7).
 */
export async function findListedBank(bank: BankClient, bankId: string): Promise<Bank> {
  const banks = await collect(bank.listBanks({ includeAdditionalInformation: true }));
  const exact = banks.find((b) => b.bankId === bankId);
  if (exact) return exact;
  const near = banks.find((b) => b.bankId.toLowerCase() === bankId.toLowerCase());
  const advice = near
    ? `bankIds are case-sensitive: use "${near.bankId}" exactly as \`settle banks list\` shows it`
    : 'see `settle banks list` for the bankIds the bank offers';
  throw new SettleError('ERR_BANK_ID_UNKNOWN', `the bank does not list a bank "${bankId}"; ${advice}`);
}

function bankJson(b: Bank): Record<string, unknown> {
  const { raw: _raw, ...rest } = b;
  return rest;
}

export function banksCommand(): Command {
  const command = new Command('banks').description(
    'the bank directory: which banks can be onboarded and what they require',
  );

  command
    .command('list')
    .description('list the banks the API offers')
    .option('--country <CC>', 'only banks in this country (ISO 3166-1 alpha-2, e.g. NO)')
    .addOption(
      new Option('--channel <name>', 'only banks offering this channel').choices([
        'openBanking',
        'psd2',
        'unspecified',
      ]),
    )
    .option('--json', 'print JSON for scripts')
    .action(async (opts: { country?: string; channel?: string; json?: boolean }, cmd: Command) => {
      if (opts.country !== undefined && !/^[A-Za-z]{2}$/.test(opts.country)) {
        throw new SettleError(
          'ERR_USAGE',
          `--country must be a two-letter country code such as NO, not "${opts.country}"`,
        );
      }
      await withBank(cmd, async (bank) => {
        const query: { countryCode?: string; channels?: string[] } = {};
        if (opts.country) query.countryCode = opts.country.toUpperCase();
        if (opts.channel) query.channels = [opts.channel];
        const banks = await collect(bank.listBanks(query));
        if (opts.json) return printJson(banks.map(bankJson));
        if (banks.length === 0) return void process.stdout.write('no banks match\n');
        process.stdout.write(
          renderTable(
            ['BANK ID', 'NAME', 'COUNTRY', 'CHANNELS', 'BANK ORDER'],
            banks.map((b) => [
              b.bankId,
              b.name ?? '',
              b.countryCode ?? '',
              b.channels.join(','),
              b.bankOrder?.required ? `required (${b.bankOrder.leadTimeBusinessDays ?? '?'} business days)` : 'no',
            ]),
          ),
        );
      });
    });

  command
    .command('show')
    .description('show one bank with its onboarding information and consent property requirements')
    .argument('<bankId>', 'the bankId exactly as `settle banks list` shows it')
    .option('--json', 'print JSON for scripts')
    .action(async (bankId: string, opts: { json?: boolean }, cmd: Command) => {
      await withBank(cmd, async (bank) => {
        let found: Bank;
        try {
          found = await bank.getBank(bankId, { includeAdditionalInformation: true });
        } catch (error) {
          // The bank answers 400 or 404 "Bank not found"; say which ids do exist.
          if (isBankError(error) && (error.status === 404 || error.status === 400)) await findListedBank(bank, bankId);
          throw error;
        }
        if (opts.json) return printJson(bankJson(found));
        const lines = [
          `bank:        ${found.bankId}${found.name ? ` (${found.name})` : ''}`,
          `country:     ${found.countryCode ?? '-'}`,
          `BIC:         ${found.bic ?? '-'}`,
          `channels:    ${found.channels.join(', ') || '-'}`,
          `bank order:  ${found.bankOrder ? `${found.bankOrder.required ? 'required' : 'not required'}${found.bankOrder.description ? ` — ${found.bankOrder.description}` : ''}${found.bankOrder.leadTimeBusinessDays !== undefined ? ` (lead time ${found.bankOrder.leadTimeBusinessDays} business days)` : ''}` : '-'}`,
        ];
        for (const link of found.onboardingLinks)
          lines.push(`onboarding:  ${link.title ? `${link.title}: ` : ''}${link.href}`);
        process.stdout.write(lines.join('\n') + '\n\n');
        if (found.propertyRequirements.length === 0) {
          process.stdout.write('consent properties: the bank lists no specific requirements\n');
          return;
        }
        process.stdout.write('consent properties:\n');
        process.stdout.write(
          renderTable(
            ['PROPERTY', 'REQUIRED', 'MEANING'],
            found.propertyRequirements.map((r) => [r.key, r.required ? 'yes' : 'no', r.description ?? '']),
          ),
        );
      });
    });
  return command;
}
