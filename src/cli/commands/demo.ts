// `settle demo [--dir DIR] [--locale TAG]`: the whole nightly flow against the built-in sandbox bank,
// for a company that reads its reports and notices in the language TAG names (nb-NO, no, en, ...).
import { Command } from 'commander';
import { resolve } from 'node:path';
import { runDemo } from '../../main/demo.js';
import { chooseLocale } from '../../i18n/index.js';

export function demoCommand(): Command {
  return new Command('demo')
    .description('run the whole nightly flow against the built-in sandbox bank and show every file it produces')
    .option('--dir <dir>', 'work folder (emptied if it holds an earlier demo)', 'settle-demo')
    .option('--locale <tag>', "the demo company's language, e.g. nb-NO (a language settle lacks reads English)")
    .action(async (options: { dir: string; locale?: string }) => {
      const started = Date.now();
      const result = await runDemo({
        dir: resolve(options.dir),
        out: (line) => process.stdout.write(line + '\n'),
        ...(options.locale === undefined ? {} : { locale: chooseLocale([options.locale]) }),
      });
      const failed = result.nights.some((n) => n.steps.some((s) => !s.ok));
      process.stdout.write(
        `\ndemo ${failed ? 'finished with failed steps (see settle.log)' : 'finished'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
          `console: ${result.console.url} (after \`${result.console.command}\`; sign in as ${result.console.username} / ${result.console.password})\n`,
      );
      if (failed) process.exitCode = 3;
    });
}
