// The settle CLI with the onboarding commands registered, for the CLI tests: until (and after)
// src/cli/program.ts registers banks/consents/accounts itself, this entry adds them if missing.
import { accountsCommand } from '../../src/cli/commands/accounts.js';
import { banksCommand } from '../../src/cli/commands/banks.js';
import { consentsCommand } from '../../src/cli/commands/consents.js';
import { buildProgram } from '../../src/cli/program.js';
import { runCli } from '../../src/cli/run.js';

const program = buildProgram();
for (const make of [banksCommand, consentsCommand, accountsCommand]) {
  const command = make();
  if (!program.commands.some((c) => c.name() === command.name())) program.addCommand(command);
}
await runCli(program, process.argv);
