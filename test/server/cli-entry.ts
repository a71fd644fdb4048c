// The settle CLI with `serve` registered, for the tests: program.ts is the lead's to edit, so
// until it registers serveCommand() this entry adds it.
import { serveCommand } from '../../src/cli/commands/serve.js';
import { buildProgram } from '../../src/cli/program.js';
import { runCli } from '../../src/cli/run.js';

const program = buildProgram();
if (!program.commands.some((c) => c.name() === 'serve')) program.addCommand(serveCommand());
await runCli(program, process.argv);
