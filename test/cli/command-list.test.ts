// Every command and subcommand of `settle --help`, walked recursively, is in the README's command
// list, and its --help ends with the exit codes it can return; a command module that sets an exit
// code its commands do not list fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { exitCodesOf } from '../../src/cli/exit-codes.js';
import { buildProgram } from '../../src/cli/program.js';
import { ExitCode } from '../../src/domain/errors.js';

const ROOT = join(import.meta.dirname, '..', '..');

async function commandPaths(): Promise<{ path: string; command: Command }[]> {
  const found: { path: string; command: Command }[] = [];
  const walk = (command: Command, parents: string[]) => {
    const path = [...parents, command.name()];
    if (command.commands.length === 0) found.push({ path: path.join(' '), command });
    for (const sub of command.commands) walk(sub, path);
  };
  const top = await buildProgram(['node', 'settle']);
  for (const placeholder of top.commands) {
    const loaded = await buildProgram(['node', 'settle', placeholder.name()]);
    walk(
      loaded.commands.find((c) => c.name() === placeholder.name())!,
      [],
    );
  }
  return found;
}

/** The README's command block as the command paths it names: `settle a b|c …` names `a b` and `a c`. */
function readmePaths(): Set<string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /## Commands\s+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const paths = new Set<string>();
  for (const line of block.split('\n')) {
    const words = line.split(/\s+/);
    if (words[0] !== 'settle' || words[1] === undefined) continue;
    const second = words[2];
    if (second === undefined || !/^[a-z][a-z|-]*$/.test(second)) paths.add(words[1]);
    else for (const sub of second.split('|')) paths.add(`${words[1]} ${sub}`);
  }
  return paths;
}

function helpOf(command: Command): string {
  let text = '';
  command.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  command.outputHelp();
  return text;
}

describe('the command list', () => {
  it('names every command and subcommand in the README', async () => {
    const listed = readmePaths();
    const missing = (await commandPaths()).map((c) => c.path).filter((p) => !listed.has(p));
    expect(missing).toEqual([]);
  });

  it('names no command the CLI does not have', async () => {
    const real = new Set((await commandPaths()).map((c) => c.path));
    expect([...readmePaths()].filter((p) => !real.has(p))).toEqual([]);
  });

  it("ends every command's --help with the exit codes it can return", async () => {
    for (const { path, command } of await commandPaths()) {
      const help = helpOf(command);
      const section = help.slice(help.indexOf('Exit codes:'));
      expect(help, path).toContain('Exit codes:');
      const shown = [...section.matchAll(/^ {2}(\d) /gm)].map((m) => Number(m[1]));
      expect(shown, path).toEqual(exitCodesOf(path));
    }
  });

  it('lists every exit code a command module sets for the commands it serves', async () => {
    const dir = join(ROOT, 'src', 'cli', 'commands');
    const paths = (await commandPaths()).map((c) => c.path);
    const byName = Object.entries(ExitCode) as [string, number][];
    for (const file of readdirSync(dir)) {
      const source = readFileSync(join(dir, file), 'utf8');
      const set = new Set<number>();
      for (const [name, code] of byName) if (source.includes(`ExitCode.${name}`)) set.add(code);
      for (const m of source.matchAll(/exitCode = (\d)/g)) set.add(Number(m[1]));
      // consents.ts and consent-record.ts serve `settle consents …`; run-payments.ts serves `settle run …`.
      const top = basename(file, '.ts').split('-')[0]!;
      const served = paths.filter((p) => p.split(' ')[0]!.replace(/s$/, '') === top.replace(/s$/, ''));
      for (const path of served)
        for (const code of set) expect(exitCodesOf(path), `${file} sets ${code} for ${path}`).toContain(code);
    }
  });
});
