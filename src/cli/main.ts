// The settle command line. Only the command being run is loaded (program.ts).
import { buildProgram } from './program.js';
import { runCli } from './run.js';

await runCli(await buildProgram(process.argv), process.argv);
