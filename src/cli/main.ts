// The settle command line. Only the command being run is loaded (program.ts). `settle --version`
// alone is answered before commander and the command table load: the same line commander prints,
// at close to the cost of Node itself (docs/decisions/0020).
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { packageInfo } = await import('../main/package-info.js');
  process.stdout.write(`${packageInfo().version}\n`);
} else {
  const { buildProgram } = await import('./program.js');
  const { runCli } = await import('./run.js');
  await runCli(await buildProgram(process.argv), process.argv);
}
