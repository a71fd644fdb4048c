// `npm run test:chaos` (`npx tsx test/chaos/nightly-chaos.ts [killPoints=120] [seed=1] [instances=2]`): the whole
// nightly chain under chaos — SIGKILLs at random points, every sandbox fault kind, SFTP
// connections cut mid-transfer — then the end-to-end checks (test/support/chaos/). Prints the
// figures as JSON on stdout and each anomaly on stderr; exit 1 on any anomaly.
import { runChaosCampaign } from '../support/chaos/nightly-campaign.js';

const killPoints = Number(process.argv[2] ?? 120);
const seed = Number(process.argv[3] ?? 1);
// Two instances run the chain at once unless told otherwise: several `settle serve` or
// `settle run nightly` processes share one database in production.
const instances = process.argv[4] === '1' ? 1 : 2;
const figures = await runChaosCampaign({
  killPoints,
  seed,
  instances,
  files: 8,
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
// Exit now: the sandbox's webhook retries may still hold a timer for a few seconds.
process.exit(figures.anomalies === 0 ? 0 : 1);
