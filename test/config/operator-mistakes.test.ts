// A careless operator is stopped with advice (issue #50 Must 8): a misspelt key names the key
// it most likely meant, a YAML syntax error shows the line and where in it, and the example
// file copied as it is gives one grouped message about its secrets, not a dozen.
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { isSettleError } from '../../src/domain/errors.js';
import { withTempDir } from '../support/tmp.js';

const example = fileURLToPath(new URL('../../config/settle.example.yaml', import.meta.url));

/** The problems loading `yaml` gives, with an empty environment. */
async function problemsOf(yaml: string | { copyOf: string }): Promise<{ path: string; message: string }[]> {
  return withTempDir(async (dir) => {
    const file = join(dir, 'settle.yaml');
    if (typeof yaml === 'string') await writeFile(file, yaml);
    else await copyFile(yaml.copyOf, file);
    try {
      loadConfig({ file, cwd: dir, env: {} });
    } catch (error) {
      if (isSettleError(error, 'ERR_CONFIG_INVALID'))
        return (error.details?.problems ?? []) as { path: string; message: string }[];
      throw error;
    }
    throw new Error('the configuration was accepted');
  });
}

describe('operator mistakes in the configuration', () => {
  it('a misspelt key gets "did you mean", at the top, nested and inside a list', async () => {
    const problems = await problemsOf(
      'bank:\n  clientld: abc\ncompanis: []\nschedule:\n  statement: "0 6 * * *"\ncompanies:\n  - id: acme\n    rooot: /srv\n',
    );
    const messages = Object.fromEntries(problems.map((p) => [p.path, p.message]));
    expect(messages['bank']).toBe('unknown key "clientld"; did you mean "clientId"?');
    expect(messages['(root)']).toBe('unknown key "companis"; did you mean "companies"?');
    expect(messages['companies.0']).toContain('unknown key "rooot"; did you mean "root"?');
  });

  it('a key that is nothing like a known one is named without a guess', async () => {
    const problems = await problemsOf('frobnicate: 1\n');
    expect(problems).toEqual([{ path: '(root)', message: 'unknown key "frobnicate"' }]);
  });

  it('a YAML syntax error shows the line as written and a caret under the column', async () => {
    const problems = await problemsOf('bank:\n  baseUrl: "http://x\n  clientId: abc\n');
    expect(problems).toHaveLength(1);
    const [problem] = problems;
    expect(problem!.path).toMatch(/^\(line \d+\)$/);
    expect(problem!.message).toMatch(/^[^\n]+ \(column \d+\):\n/);
    expect(problem!.message.split('\n')).toHaveLength(3);
    expect(problem!.message).toMatch(/\n\s+\d+ \| .*\n\s+\^$/);
  });

  it('a garbled file with thousands of errors on one long line: the first ones, each line clipped around its caret', async () => {
    // Found by the fuzzer: every error quoted the whole line, and the list outgrew a string.
    const problems = await problemsOf(`companies:\n  - { id: acme, roles: [approver${','.repeat(50_000)}] }\n`);
    expect(problems).toHaveLength(21);
    expect(problems.at(-1)!.message).toMatch(/^and \d+ more syntax problem\(s\) after these/);
    const first = problems[0]!.message.split('\n');
    expect(first[1]!.length).toBeLessThan(160);
    const column = Number(/\(column (\d+)\)/.exec(first[0]!)![1]);
    const [gutter] = /^\s+\d+ \| /.exec(first[1]!)!;
    // The caret stands under the character the column names, in the clipped excerpt.
    const shown = first[1]!.slice(gutter.length);
    const clipped = shown.startsWith('…') ? column - 1 - 60 : 0;
    expect(first[2]!.indexOf('^') - gutter.length).toBe(column - 1 - clipped + (clipped > 0 ? 1 : 0));
  });

  it('a YAML error on a line that sets a secret shows the key, not the value', async () => {
    const problems = await problemsOf('bank:\n  clientSecret: hunter2-secret: [\n');
    expect(problems.length).toBeGreaterThan(0);
    expect(JSON.stringify(problems)).not.toContain('hunter2');
  });

  it('the example file copied as it is gives ONE problem about its secrets, with how to give them', async () => {
    const problems = await problemsOf({ copyOf: example });
    expect(problems).toHaveLength(1);
    const [problem] = problems;
    expect(problem!.path).toBe('secrets');
    expect(problem!.message).toMatch(/^\d+ secrets are not provided:/);
    expect(problem!.message).toContain('bank.clientSecret: environment variable SETTLE_CLIENT_SECRET is not set');
    for (const way of ['{ env: NAME }', '{ file: PATH }', '{ credential: NAME }', 'systemd']) {
      expect(problem!.message).toContain(way);
    }
  });
});
