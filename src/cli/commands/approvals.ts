// `settle approvals list`: the signing baskets that wait for a person (docs/runbook.md, "An
// approval link expired"): which company, how many payments and how much per debtor account,
// whether a link is out and until when (in the company's time zone). The link itself is a
// single-use approval URL: printed only when asked for (--link), so it does not land in a
// terminal log by accident. `--json` is the shape in docs/cli-json.md.
import { Command, InvalidArgumentError } from 'commander';
import { basketPayments, noticeTotals, type NoticeTotal } from '../../../jobs/approve/index.js';
import { BASKET_STATES, type BasketState } from '../../domain/states.js';
import { formatInZone } from '../../domain/zoned-time.js';
import { createApp } from '../../main/app.js';
import { context } from '../context.js';
import { printTable } from '../table.js';

const WAITING: readonly BasketState[] = ['pending', 'created', 'link_issued', 'expired', 'failed'];

const state = (value: string): BasketState => {
  if (!(BASKET_STATES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`one of ${BASKET_STATES.join(', ')}`);
  return value as BasketState;
};

export interface ApprovalJson {
  basketId: string;
  bankBasketId: string | null;
  company: string;
  state: BasketState;
  bulks: number;
  payments: number;
  totals: NoticeTotal[];
  linkExpiresAt: string | null;
  /** The same instant in the company's time zone, e.g. "2026-01-12 09:00 Europe/Oslo". */
  linkExpiresLocal: string | null;
  linkValid: boolean;
  /** Only with --link: the approval link (the JSON field keeps the bank's word, docs/cli-json.md). */
  scaLink?: string;
}

export function approvalsCommand(): Command {
  const command = new Command('approvals').description(
    'signing baskets: the approvals of sent bulks by the company’s approvers',
  );
  command
    .command('list')
    .description(`baskets by state (default: the ones still waiting: ${WAITING.join(', ')})`)
    .option('--state <state...>', `any of ${BASKET_STATES.join(', ')}`, (v: string, all: BasketState[] = []) => [
      ...all,
      state(v),
    ])
    .option('--company <id>', 'only this company')
    .option('--link', 'also print the single-use approval link of baskets that have one')
    .option('--json', 'print JSON (docs/cli-json.md)')
    .action(
      async (options: { state?: BasketState[]; company?: string; link?: boolean; json?: boolean }, cmd: Command) => {
        const { config, logger } = context(cmd);
        const app = await createApp(config, logger);
        try {
          const now = app.clock.now();
          const shown: ApprovalJson[] = [];
          for (const s of options.state ?? WAITING) {
            for (const basket of await app.store.baskets.listByState(s)) {
              if (options.company && basket.company !== options.company) continue;
              const company = config.companies.find((c) => c.id === basket.company);
              const bulkIds = await app.store.baskets.bulkIds(basket.id);
              const payments = await basketPayments(app.store, company, bulkIds);
              const expires = basket.approvalLinkExpiresAt;
              shown.push({
                basketId: basket.id,
                bankBasketId: basket.bankBasketId ?? null,
                company: basket.company,
                state: basket.state,
                bulks: bulkIds.length,
                payments: payments.length,
                totals: noticeTotals(payments),
                linkExpiresAt: expires?.toISOString() ?? null,
                linkExpiresLocal: expires ? formatInZone(expires, company?.timeZone ?? config.timeZone) : null,
                linkValid: basket.approvalLink !== undefined && expires !== undefined && expires > now,
                ...(options.link && basket.approvalLink ? { scaLink: basket.approvalLink } : {}),
              });
            }
          }
          if (options.json) return void process.stdout.write(JSON.stringify(shown, null, 2) + '\n');
          if (shown.length === 0) return void process.stdout.write('no baskets in that state\n');
          printTable(
            ['Basket', 'Company', 'State', 'Payments', 'Totals', 'Link expires', ...(options.link ? ['Link'] : [])],
            shown.map((b) => [
              b.basketId,
              b.company,
              b.state,
              String(b.payments),
              b.totals.map((t) => `${t.amount} ${t.currency} from ${t.debtorIban}`).join('; '),
              b.linkExpiresLocal
                ? `${b.linkExpiresLocal}${b.linkValid || b.state === 'authorised' ? '' : ' (expired)'}`
                : '-',
              ...(options.link ? [b.scaLink ?? '-'] : []),
            ]),
            new Set([3]),
          );
        } finally {
          await app.close();
        }
      },
    );
  return command;
}
