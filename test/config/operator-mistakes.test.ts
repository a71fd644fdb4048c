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
