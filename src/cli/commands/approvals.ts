// `settle approvals list`: the signing baskets that wait for a person (docs/runbook.md, "An
// approval link expired"): which company, how many bulks, whether a link is out and until when.
// The link itself is a single-use approval URL: printed only when asked for (--link), so it does
// not land in a terminal log by accident.
import { Command, InvalidArgumentError } from 'commander';
import { BASKET_STATES, type BasketState } from '../../domain/states.js';
import { createApp } from '../../main/app.js';
import type { StoredBasket } from '../../store/index.js';
import { context } from '../context.js';

const WAITING: readonly BasketState[] = ['pending', 'created', 'link_issued', 'expired', 'failed'];

const state = (value: string): BasketState => {
  if (!(BASKET_STATES as readonly string[]).includes(value))
    throw new InvalidArgumentError(`one of ${BASKET_STATES.join(', ')}`);
  return value as BasketState;
};

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
    .option('--json', 'print JSON')
    .action(
      async (options: { state?: BasketState[]; company?: string; link?: boolean; json?: boolean }, cmd: Command) => {
        const { config, logger } = context(cmd);
        const app = await createApp(config, logger);
        try {
          const now = app.clock.now();
          const shown: (StoredBasket & { bulks: number })[] = [];
          for (const s of options.state ?? WAITING) {
            for (const basket of await app.store.baskets.listByState(s)) {
              if (options.company && basket.company !== options.company) continue;
              const { scaLink, ...rest } = basket;
              shown.push({
                ...rest,
                ...(options.link && scaLink ? { scaLink } : {}),
                bulks: (await app.store.baskets.bulkIds(basket.id)).length,
              });
            }
          }
          if (options.json) return void process.stdout.write(JSON.stringify(shown, null, 2) + '\n');
          if (shown.length === 0) return void process.stdout.write('no baskets in that state\n');
          for (const b of shown) {
            const expiry = b.scaLinkExpiresAt
              ? `  link ${b.scaLinkExpiresAt > now ? 'valid until' : 'expired'} ${b.scaLinkExpiresAt.toISOString()}`
              : '';
            process.stdout.write(
              `${b.id}  ${b.company}  ${b.state}  ${b.bulks} bulk(s)${expiry}${b.scaLink ? `  ${b.scaLink}` : ''}\n`,
            );
          }
        } finally {
          await app.close();
        }
      },
    );
  return command;
}
