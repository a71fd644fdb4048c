// `settle config check` as an operator runs it: every bad configuration is a located error and
// exit 2, never an internal error, and never an "OK" that hides a problem.
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';
import { withTempDir } from '../support/tmp.js';

const regression = fileURLToPath(new URL('../fixtures/regression/config/', import.meta.url));

async function check(yaml: string | Buffer, env: NodeJS.ProcessEnv = {}) {
  return withTempDir(async (dir) => {
    await writeFile(join(dir, 'settle.yaml'), yaml);
    return runSettle(['--config', join(dir, 'settle.yaml'), 'config', 'check'], { cwd: dir, env });
  });
}

describe('settle config check', () => {
  it('refuses a plaintext secret in the file even when its environment variable is also set', async () => {
    const yaml = 'bank:\n  clientSecret: hunter2-literal\nserver:\n  webhookAuthorization: Bearer literal-wh\n';
    const result = await check(yaml, {
      SETTLE_CLIENT_SECRET: 'from-env-secret',
      SETTLE_WEBHOOK_AUTHORIZATION_FILE: '/dev/null',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^settle: ERR_CONFIG_INVALID: /);
    expect(result.stderr).toContain('bank.clientSecret: secrets are not written in the configuration file');
    expect(result.stderr).toContain('server.webhookAuthorization: secrets are not written in the configuration file');
    expect(result.stdout + result.stderr).not.toMatch(/hunter2-literal|literal-wh|from-env-secret/);
  });

  it('refuses a plaintext secret of any scalar type, with or without the variable', async () => {
    const result = await check('database:\n  password: 12345678\n', { SETTLE_DATABASE_PASSWORD: 'from-env' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('database.password:');
    const alone = await check('database:\n  password: 12345678\n');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('database.password:');
  });

  it('lets the environment variable replace a reference written in the file', async () => {
    const result = await check('bank:\n  clientSecret: { env: SOME_UNSET_VARIABLE }\n', {
      SETTLE_CLIENT_SECRET: 'from-env-secret',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('refuses two companies with one organisation number, unless each says it shares it on purpose', async () => {
    const company = (id: string, number: string, shares = '') =>
      `  - { id: ${id}, name: ${id}, organisationNumber: "${number}", root: ./${id}${shares} }\n`;
    const twice = await check(
      `companies:\n${company('acme', '999999999')}${company('acme-sales', '999999999')}${company('beta', '999999998')}`,
    );
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^settle: ERR_CONFIG_INVALID: /);
    expect(twice.stderr).toContain(
      'companies.0.organisationNumber: organisation number "999999999" is also the number of acme-sales',
    );
    expect(twice.stderr).toContain(
      'companies.1.organisationNumber: organisation number "999999999" is also the number of acme;',
    );
    expect(twice.stderr).not.toContain('companies.2.');
    // One of the two saying so is not enough: the other may be a copy-paste mistake.
    const one = await check(
      `companies:\n${company('acme', '999999999', ', sharesOrganisationNumber: true')}${company('acme-sales', '999999999')}`,
    );
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('companies.1.organisationNumber:');
    expect(one.stderr).not.toContain('companies.0.organisationNumber');
    const both = await check(
      `companies:\n${company('acme', '999999999', ', sharesOrganisationNumber: true')}${company('acme-sales', '999999999', ', sharesOrganisationNumber: true')}`,
    );
    expect(both.stderr).toBe('');
    expect(both.code).toBe(0);
  });

  it('answers a YAML alias without its anchor with a located error and exit 2', async () => {
    const result = await check('timeZone: *nowhere\nlog:\n  level: info\n');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^settle: ERR_CONFIG_INVALID: /);
    expect(result.stderr).toMatch(/\(line 1\): .*alias/i);
  });

  it.each(readdirSync(regression).filter((f) => f.endsWith('.yaml')))(
    'answers regression input %s with a located error and exit 2',
    async (file) => {
      const result = await check(readFileSync(join(regression, file)));
      expect(result.stderr).not.toContain('ERR_INTERNAL');
      expect([0, 2]).toContain(result.code);
      if (result.code === 2) expect(result.stderr).toMatch(/^settle: ERR_CONFIG_INVALID: /);
    },
  );
});
