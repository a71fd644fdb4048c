import type { Command } from 'commander';

export async function runCli(program: Command, argv: string[]): Promise<void> {
  await program.parseAsync(argv);
}
