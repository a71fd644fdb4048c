// The command tree. Each command lives in ./commands/ and is registered here.
import { Command } from 'commander';
import { packageInfo } from '../main/package-info.js';
import { accountsCommand } from './commands/accounts.js';
import { approvalsCommand } from './commands/approvals.js';
import { auditCommand } from './commands/audit.js';
import { banksCommand } from './commands/banks.js';
import { configCommand } from './commands/config.js';
import { consentsCommand } from './commands/consents.js';
import { dbCommand } from './commands/db.js';
import { findingsCommand } from './commands/findings.js';
import { paymentsCommand } from './commands/payments.js';
import { demoCommand } from './commands/demo.js';
import { runCommand } from './commands/run.js';
import { sandboxCommand } from './commands/sandbox.js';
import { serveCommand } from './commands/serve.js';
import { sftpCommand } from './commands/sftp-fingerprint.js';
import { validateCommand } from './commands/validate.js';

export function buildProgram(): Command {
  const program = new Command('settle')
    .description('ERP batch payments and reconciliation connector for a corporate banking API')
    .version(packageInfo().version, '-V, --version')
    .option(
      '-c, --config <file>',
      'configuration file (default: config/settle.yaml if present, else embedded defaults)',
    );
  program.addCommand(demoCommand());
  program.addCommand(validateCommand());
  program.addCommand(configCommand());
  program.addCommand(dbCommand());
  program.addCommand(runCommand());
  program.addCommand(sftpCommand());
  program.addCommand(serveCommand());
  program.addCommand(sandboxCommand());
  program.addCommand(banksCommand());
  program.addCommand(consentsCommand());
  program.addCommand(accountsCommand());
  program.addCommand(paymentsCommand());
  program.addCommand(approvalsCommand());
  program.addCommand(findingsCommand());
  program.addCommand(auditCommand());
  return program;
}
