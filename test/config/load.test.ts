import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DURATION_KEYS, formatDuration, loadConfig, parseDuration } from '../../src/config/index.js';
import { isSettleError, SettleError } from '../../src/domain/errors.js';
import { DEFAULT_MAX_FILE_BYTES } from '../../src/domain/validation/file-size.js';
import { withTempDir } from '../support/tmp.js';

function problemsOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    if (isSettleError(error, 'ERR_CONFIG_INVALID')) {
      expect(error.exitCode).toBe(2);
      return (error.details?.problems ?? []) as { path: string; message: string }[];
    }
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

const company = (extra = '') => `
companies:
  - id: acme
    name: ACME AS
    organisationNumber: "999999999"
    root: ./acme${extra}
`;

describe('loading the configuration', () => {
  it('uses embedded defaults when there is no file', async () => {
    await withTempDir((dir) => {
      const config = loadConfig({ cwd: dir, env: {} });
      expect(config.source.file).toBeUndefined();
      expect(config.timeZone).toBe('Europe/Oslo');
      expect(config.database.url).toBe(`sqlite:${join(dir, '.settle', 'settle.sqlite')}`);
      expect(config.bank.apiVersion).toBe('1.0');
      expect(config.companies).toEqual([]);
    });
  });

  it('picks config/settle.yaml from the working directory and fills company defaults', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'config'));
      await writeFile(join(dir, 'config/settle.yaml'), company());
      const config = loadConfig({ cwd: dir, env: {} });
      expect(config.source.file).toBe(join(dir, 'config/settle.yaml'));
      const acme = config.companies[0]!;
      expect(acme.root).toBe(join(dir, 'acme'));
      expect(acme.folders.inbox).toBe('inbox');
      expect(acme.payments.maxLinesPerBulk).toBe(500);
      expect(acme.intake.stableFor).toBe(5000);
      expect(acme.intake.maxFileSize).toBe(DEFAULT_MAX_FILE_BYTES);
    });
  });

  it('reads the document-size limit as operators write it, and locates a value that is not a size', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.yaml');
      await writeFile(file, `${company()}    intake:\n      maxFileSize: 512MB\n`);
      expect(loadConfig({ file, cwd: dir, env: {} }).companies[0]!.intake.maxFileSize).toBe(512_000_000);
      await writeFile(file, `${company()}    intake:\n      maxFileSize: 1GiB\n`);
      expect(loadConfig({ file, cwd: dir, env: {} }).companies[0]!.intake.maxFileSize).toBe(1024 ** 3);
      await writeFile(file, `${company()}    intake:\n      maxFileSize: lots\n`);
      expect(problemsOf(() => loadConfig({ file, cwd: dir, env: {} }))).toEqual([
        { path: 'companies.0.intake.maxFileSize', message: '"lots" is not a size (e.g. 512MB, 1GiB)' },
      ]);
      await writeFile(file, `${company()}    intake:\n      maxFileSize: -5MB\n`);
      expect(problemsOf(() => loadConfig({ file, cwd: dir, env: {} }))[0]?.path).toBe('companies.0.intake.maxFileSize');
    });
  });

  it("reads the console's trusted proxies, and locates one that is not an address or a range", async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.yaml');
      await writeFile(file, `console:\n  trustedProxies: [10.0.0.7, 10.1.0.0/16, '::1', loopback]\n${company()}`);
      expect(loadConfig({ file, cwd: dir, env: {} }).console.trustedProxies).toEqual([
        '10.0.0.7',
        '10.1.0.0/16',
        '::1',
        'loopback',
      ]);
      expect(loadConfig({ file: undefined, cwd: dir, env: {} }).console.trustedProxies).toEqual([]);
      await writeFile(file, `console:\n  trustedProxies: [10.0.0.0/33, proxy.example]\n${company()}`);
      const problems = problemsOf(() => loadConfig({ file, cwd: dir, env: {} }));
      expect(problems.map((p) => p.path)).toEqual(['console.trustedProxies.0', 'console.trustedProxies.1']);
      expect(problems[0]?.message).toContain('a CIDR range such as 10.0.0.0/8');
    });
  });

  it('lets SETTLE_* variables override file values', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.yaml');
      await writeFile(file, 'bank:\n  tenantId: from-file\n  subscriptionId: sub-file\n');
      const config = loadConfig({
        file,
        cwd: dir,
        env: { SETTLE_TENANT_ID: 'from-env', SETTLE_BANK_URL: 'https://bank.example/api' },
      });
      expect(config.bank.tenantId).toBe('from-env');
      expect(config.bank.subscriptionId).toBe('sub-file');
      expect(config.bank.baseUrl).toBe('https://bank.example/api');
      expect(config.source.envOverrides).toEqual(['SETTLE_BANK_URL', 'SETTLE_TENANT_ID']);
    });
  });

  it('reports every problem at once, each with its key path', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.yaml');
      await writeFile(
        file,
        `timeZone: Mars/Olympus\nbank:\n  timeout: soon\n  maxRetries: -1\nunknownKey: 1\n${company()}    payments:\n      maxLinesPerBulk: 0\n`,
      );
      const problems = problemsOf(() => loadConfig({ file, cwd: dir, env: {} }));
      const paths = problems.map((p) => p.path).sort();
      expect(paths).toEqual([
        '(root)',
        'bank.maxRetries',
        'bank.timeout',
        'companies.0.payments.maxLinesPerBulk',
        'timeZone',
      ]);
      expect(problems.find((p) => p.path === 'bank.timeout')?.message).toMatch(/not a duration/);
    });
  });

  it('refuses a secret written literally in the file', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.yaml');
      await writeFile(file, 'bank:\n  clientSecret: hunter2-literal\n');
      const problems = problemsOf(() => loadConfig({ file, cwd: dir, env: {} }));
      expect(problems).toHaveLength(1);
      expect(problems[0]!.path).toBe('bank.clientSecret');
      expect(problems[0]!.message).toMatch(/env: NAME/);
      expect(JSON.stringify(problems)).not.toContain('hunter2-literal');
    });
  });

  it('reads secrets from env, from *_FILE and from systemd credentials', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'secret.txt'), 'file-secret-value\n');
      await mkdir(join(dir, 'creds'));
      await writeFile(join(dir, 'creds/db'), 'credential-secret-value');
      const file = join(dir, 's.yaml');
      await writeFile(file, 'database:\n  password: { credential: db }\n');
      const fromFile = loadConfig({
        file,
        cwd: dir,
        env: { SETTLE_CLIENT_SECRET_FILE: join(dir, 'secret.txt'), CREDENTIALS_DIRECTORY: join(dir, 'creds') },
      });
      expect(fromFile.bank.clientSecret?.reveal()).toBe('file-secret-value');
      expect(fromFile.database.password?.reveal()).toBe('credential-secret-value');
      expect(JSON.stringify(fromFile)).not.toContain('secret-value');
      const fromEnv = loadConfig({ cwd: dir, env: { SETTLE_CLIENT_SECRET: 'env-secret-value' } });
      expect(fromEnv.bank.clientSecret?.reveal()).toBe('env-secret-value');
    });
  });

  it('reads a credential loaded with its folder (settle_NAME) and says where a missing one belongs', async () => {
    await withTempDir(async (dir) => {
      await mkdir(join(dir, 'creds'));
      await writeFile(join(dir, 'creds/settle_client-secret'), 'folder-secret-value\n');
      const file = join(dir, 's.yaml');
      await writeFile(file, 'bank:\n  clientSecret: { credential: client-secret }\n');
      const env = { CREDENTIALS_DIRECTORY: join(dir, 'creds') };
      expect(loadConfig({ file, cwd: dir, env }).bank.clientSecret?.reveal()).toBe('folder-secret-value');
      await writeFile(file, 'database:\n  password: { credential: database-password }\n');
      expect(problemsOf(() => loadConfig({ file, cwd: dir, env }))).toEqual([
        {
          path: 'database.password',
          message: expect.stringContaining('put the secret in /etc/settle/credentials/database-password'),
        },
      ]);
    });
  });

  it('names a missing secret source without failing silently', async () => {
    await withTempDir((dir) => {
      const problems = problemsOf(() =>
        loadConfig({ cwd: dir, env: { SETTLE_CLIENT_SECRET_FILE: join(dir, 'nope') } }),
      );
      expect(problems).toEqual([
        { path: 'bank.clientSecret', message: expect.stringMatching(/cannot be read \(ENOENT\)/) },
      ]);
    });
  });

  it('requires a pinned host key and credentials for every SFTP transport, and known transports for companies', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.yaml');
      await writeFile(
        file,
        `transports:\n  erp:\n    type: sftp\n    host: sftp.example\n    username: settle\n${company()}    transport: other\n`,
      );
      const problems = problemsOf(() => loadConfig({ file, cwd: dir, env: {} }));
      expect(problems.map((p) => p.path).sort()).toEqual([
        'companies.0.transport',
        'transports.erp',
        'transports.erp.hostKeySha256',
      ]);
      expect(problems.find((p) => p.path.endsWith('hostKeySha256'))?.message).toContain(
        'settle sftp fingerprint sftp.example:22',
      );
    });
  });

  it('returns a frozen configuration', async () => {
    await withTempDir((dir) => {
      const config = loadConfig({ cwd: dir, env: {} });
      expect(Object.isFrozen(config)).toBe(true);
      expect(Object.isFrozen(config.bank)).toBe(true);
      expect(() => {
        (config.bank as { tenantId: string }).tenantId = 'x';
      }).toThrow(TypeError);
    });
  });

  it('reports a YAML syntax error with its line', async () => {
    await withTempDir(async (dir) => {
      const file = join(dir, 's.yaml');
      await writeFile(file, 'bank:\n  tenantId: [unclosed\n');
      const problems = problemsOf(() => loadConfig({ file, cwd: dir, env: {} }));
      expect(problems[0]!.path).toMatch(/^\(line \d+\)$/);
    });
  });

  it('locates every YAML problem by line instead of throwing or printing a process warning', async () => {
    const warnings: unknown[] = [];
    const onWarning = (w: unknown) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      await withTempDir(async (dir) => {
        const file = join(dir, 's.yaml');
        const cases: [string, RegExp][] = [
          ['log:\n  level: info\ntimeZone: *zone\n', /^\(line 3\)$/],
          ['log:\n  ? [a, b]\n  : info\n', /^\(line 2\)$/],
          [
            `a: &a [x, x, x, x, x, x, x, x, x, x]\n${'bcdefghij'
              .split('')
              .map((k, i) => `${k}: &${k} [${`*${String.fromCharCode(97 + i)}, `.repeat(10)}]`)
              .join('\n')}\n`,
            /^\(file\)$/,
          ],
          ['log: !!binary aGVsbG8=\nx: !unknown 1\n', /^\(line \d\)$/],
        ];
        for (const [yaml, where] of cases) {
          await writeFile(file, yaml);
          const problems = problemsOf(() => loadConfig({ file, cwd: dir, env: {} }));
          expect(problems[0]!.path, yaml).toMatch(where);
        }
      });
      await new Promise((r) => setImmediate(r));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('fails with a SettleError for an unreadable --config file', () => {
    expect(() => loadConfig({ file: '/nonexistent/settle.yaml', env: {} })).toThrow(SettleError);
  });

  it('knows every duration key of the schema, and writes durations back as operators write them', async () => {
    // The installation's sections and a company's are in two files (src/config/schema.ts explains).
    const files = ['schema.ts', 'company-schema.ts'].map((f) => new URL(`../../src/config/${f}`, import.meta.url));
    const schema = (await Promise.all(files.map((f) => readFile(f, 'utf8')))).join('\n');
    const keys = [...schema.matchAll(/(\w+): duration\(/g)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(5);
    expect(keys.filter((k) => !DURATION_KEYS.has(k!))).toEqual([]);
    expect([259_200_000, 5_400_000, 250, 30_000, 0, 90_061_001].map(formatDuration)).toEqual([
      '3d',
      '1h30m',
      '250ms',
      '30s',
      '0s',
      '1d1h1m1s1ms',
    ]);
    for (const ms of [259_200_000, 5_400_000, 90_061_001]) expect(parseDuration(formatDuration(ms))).toBe(ms);
  });
});
