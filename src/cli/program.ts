import { Command } from 'commander';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url).pathname.replace('/dist/../', '/'), 'utf8')) as { version: string };

export function buildProgram(): Command {
  const program = new Command('settle')
    .description('ERP batch payments and reconciliation connector for a corporate banking API')
    .version(pkg.version, '-V, --version');
  return program;
}
