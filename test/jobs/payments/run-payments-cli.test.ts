import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addPaymentJobs } from '../../../src/cli/commands/run-payments.js';

describe('settle run submit|approve|status', () => {
  it('adds the three payment jobs to the run command, each with --company and --json', () => {
    const run = new Command('run');
    addPaymentJobs(run);
    expect(run.commands.map((c) => c.name())).toEqual(['submit', 'approve', 'status']);
    for (const c of run.commands) {
      expect(c.options.map((o) => o.long)).toEqual(['--company', '--json']);
      expect(c.description()).not.toBe('');
    }
  });
});
