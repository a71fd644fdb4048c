// The long crash campaign (`npx tsx test/chaos/payments-crash.ts [killPoints] [seed]`, for a
// future `npm run test:chaos`): many SIGKILLs across pickup, submit, approve and status under
// bank faults, then the exactly-once check. Prints the figures; exit 1 on any anomaly.
import { runCrashCampaign } from '../support/crash-harness.js';

const killPoints = Number(process.argv[2] ?? 100);
const seed = Number(process.argv[3] ?? 1);
const figures = await runCrashCampaign({
  killPoints,
  seed,
  files: 8,
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
process.exitCode = figures.anomalies === 0 ? 0 : 1;
