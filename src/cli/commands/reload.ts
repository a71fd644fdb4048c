// `settle reload`: checks the configuration (with every file it includes) as `config check`
// does, and only when it is valid asks the running `settle serve` to reload it, by SIGHUP to the
// pid in <dataDir>/serve.pid. Signals need no open port and reach only a process of the same
// user (or root), which is the access control (docs/onboarding.md). The serve validates again
// itself and keeps its running configuration if the files changed meanwhile and are invalid.
import { Command } from 'commander';
import { SettleError } from '../../domain/errors.js';
import { readServePid, servePidFile } from '../../main/serve-pid.js';
import { context } from '../context.js';

export function reloadCommand(): Command {
  return new Command('reload')
    .description(
      'check the configuration, then have the running settle serve apply it (SIGHUP; companies, people, new transports, local users)',
    )
    .action((_opts, cmd: Command) => {
      // An invalid configuration ends here with its located problems (exit 2); nothing is signalled.
      const { config } = context(cmd);
      const pid = readServePid(config.dataDir);
      const file = servePidFile(config.dataDir);
      if (pid === undefined)
        throw new SettleError(
          'ERR_SERVE_NOT_RUNNING',
          `no settle serve to reload: ${file} names none (start it, or under systemd run \`systemctl reload settle\`)`,
        );
      try {
        process.kill(pid, 'SIGHUP');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'error';
        throw new SettleError(
          'ERR_SERVE_NOT_RUNNING',
          `cannot signal settle serve (pid ${pid} from ${file}): ${code === 'ESRCH' ? 'no such process; it stopped without removing its pid file' : code}`,
        );
      }
      process.stdout.write(
        `configuration OK (${config.companies.length} company(ies)); settle serve (pid ${pid}) asked to reload: its log says "configuration reloaded", and /healthz shows configuration.lastReload\n`,
      );
    });
}
