// The settle command line. Subcommands are registered by their own modules.
import { buildProgram } from './program.js';
import { runCli } from './run.js';

await runCli(buildProgram(), process.argv);
