// The command tree. Each command lives in ./commands/ and is loaded only when it is the one being
// run: `settle --version`, `--help` and `validate` then load neither the database, the HTTP
// client and server, SSH nor metrics (docs/performance.md, start-up). The table gives each
// command's one-line summary for `settle --help` without loading it.
import { Command } from 'commander';
import { packageInfo } from '../main/package-info.js';
import { documentExitCodes } from './exit-codes.js';

interface Entry {
  name: string;
  summary: string;
  load: () => Promise<Command>;
}

const COMMANDS: readonly Entry[] = [
  {
    name: 'demo',
    summary: 'the whole nightly flow against the built-in sandbox bank',
    load: async () => (await import('./commands/demo.js')).demoCommand(),
  },
  {
    name: 'validate',
    summary: 'check a payment file and list every issue',
    load: async () => (await import('./commands/validate.js')).validateCommand(),
  },
  {
    name: 'config',
    summary: 'check or show the effective configuration',
    load: async () => (await import('./commands/config.js')).configCommand(),
  },
  {
    name: 'db',
    summary: 'database maintenance',
    load: async () => (await import('./commands/db.js')).dbCommand(),
  },
  {
    name: 'run',
    summary: 'run one job of the nightly chain now',
    load: async () => (await import('./commands/run.js')).runCommand(),
  },
  {
    name: 'sftp',
    summary: 'SFTP helpers',
    load: async () => (await import('./commands/sftp-fingerprint.js')).sftpCommand(),
  },
  {
    name: 'serve',
    summary: 'the scheduler, the webhook receiver, /healthz and /metrics',
    load: async () => (await import('./commands/serve.js')).serveCommand(),
  },
  {
    name: 'reload',
    summary: 'check the configuration, then have the running settle serve apply it without a restart',
    load: async () => (await import('./commands/reload.js')).reloadCommand(),
  },
  {
    name: 'health',
    summary: "each company onboarded or not, each job's last success and the deadlines (alerts when one was missed)",
    load: async () => (await import('./commands/health.js')).healthCommand(),
  },
  {
    name: 'company',
    summary: 'set up a configured company: init creates its folders',
    load: async () => (await import('./commands/company.js')).companyCommand(),
  },
  {
    name: 'sandbox',
    summary: 'the bank simulator',
    load: async () => (await import('./commands/sandbox.js')).sandboxCommand(),
  },
  {
    name: 'banks',
    summary: 'the bank directory',
    load: async () => (await import('./commands/banks.js')).banksCommand(),
  },
  {
    name: 'consents',
    summary: 'onboard companies at banks',
    load: async () => (await import('./commands/consents.js')).consentsCommand(),
  },
  {
    name: 'accounts',
    summary: 'the onboarded bank accounts and their status',
    load: async () => (await import('./commands/accounts.js')).accountsCommand(),
  },
  {
    name: 'controls',
    summary: 'test which lines of a payment file the payment controls would hold, and why',
    load: async () => (await import('./commands/controls.js')).controlsCommand(),
  },
  {
    name: 'payments',
    summary: 'inspect payments and resolve unknown outcomes',
    load: async () => (await import('./commands/payments.js')).paymentsCommand(),
  },
  {
    name: 'approvals',
    summary: 'signing baskets waiting for approvers',
    load: async () => (await import('./commands/approvals.js')).approvalsCommand(),
  },
  {
    name: 'findings',
    summary: 'reconciliation findings: list, acknowledge, reopen',
    load: async () => (await import('./commands/findings.js')).findingsCommand(),
  },
  {
    name: 'reconcile',
    summary: 'period sign-off: sign a period off, list and export the signed periods',
    load: async () => (await import('./commands/reconcile.js')).reconcileCommand(),
  },
  {
    name: 'console',
    summary: "web console helpers: hash a local user's password",
    load: async () => (await import('./commands/console.js')).consoleCommand(),
  },
  {
    name: 'audit',
    summary: 'the audit trail of manual decisions: list and verify',
    load: async () => (await import('./commands/audit.js')).auditCommand(),
  },
];

/**
 * The program for these arguments: the command they name is loaded in full, every other one is a
 * placeholder with its summary (enough for `settle --help` and for "unknown command").
 */
export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command('settle')
    .description('ERP batch payments and reconciliation connector for a corporate banking API')
    .version(packageInfo().version, '-V, --version')
    .option(
      '-c, --config <file>',
      'configuration file (default: config/settle.yaml if present, else embedded defaults)',
    );
  const wanted = commandName(argv.slice(2));
  for (const entry of COMMANDS) {
    if (entry.name !== wanted) {
      program.addCommand(new Command(entry.name).summary(entry.summary));
      continue;
    }
    const command = (await entry.load()).summary(entry.summary);
    documentExitCodes(command);
    program.addCommand(command);
  }
  return program;
}

/** The command the arguments name: the first word after the global options (`help X` names X). */
function commandName(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-c' || arg === '--config') i++;
    else if (!arg.startsWith('-')) return arg === 'help' ? args[i + 1] : arg;
  }
  return undefined;
}
