// `settle company init <id>`: creates a configured company's folders — its root and every folder
// of `folders` (inbox, archive, error, status, statements, reports, and approvals and receivables
// when configured) — on its transport, local or SFTP. Folders that exist are left as they are,
// so it can run again after a folder is added to the configuration.
import { mkdir } from 'node:fs/promises';
import { basename, dirname, posix } from 'node:path';
import { Command } from 'commander';
import type { CompanyConfig } from '../../config/index.js';
import { CompanyFileStores } from '../../main/file-stores.js';
import { context, selectCompanies } from '../context.js';

export function companyCommand(): Command {
  const command = new Command('company').description('set up a configured company');
  command
    .command('init')
    .description("create the company's folders on its transport (those that exist are left as they are)")
    .argument('<id>', 'the company id, as in companies[].id')
    .option('--json', 'print JSON for scripts')
    .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
      const { config, logger } = context(cmd);
      const company = selectCompanies(config.companies, [id])[0]!;
      const folders = companyFolders(company);
      // A file store works inside a root that exists, never creating it (a missing root is a
      // mistake at run time), so the root is made from its parent: locally every folder on the
      // way; on an SFTP server the parent must exist (the account's own folder, typically).
      const local = company.transport === 'local';
      const path = local ? { dirname, basename } : posix;
      const parent = path.dirname(company.root);
      const base = parent === company.root ? '' : path.basename(company.root);
      if (local) await mkdir(parent, { recursive: true });
      const stores = new CompanyFileStores(config, logger);
      try {
        const store = await stores.fileStore({ ...company, root: parent });
        if (base) await store.ensureDir(base);
        for (const folder of folders) await store.ensureDir(base ? posix.join(base, folder) : folder);
        const where = `${store.description}${base ? `/${base}` : ''}`;
        if (opts.json)
          return void process.stdout.write(`${JSON.stringify({ company: id, where, folders }, null, 2)}\n`);
        process.stdout.write(`${id}: folders ready in ${where}\n`);
        for (const folder of folders) process.stdout.write(`  ${folder}\n`);
      } finally {
        await stores.close();
      }
    });
  return command;
}

/** The company's configured folders, each once, in the order of `folders`. */
export function companyFolders(company: Pick<CompanyConfig, 'folders'>): string[] {
  const named = Object.values(company.folders).filter((f): f is string => typeof f === 'string');
  return [...new Set(named)];
}
