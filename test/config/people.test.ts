// Four eyes means two people, so `config check` refuses two logins that are one person without
// saying so: local users whose addresses differ only in case or spaces, unless both name the
// same person id on purpose; and a person id that contradicts the people list.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, personDirectory } from '../../src/config/index.js';
import { isSettleError } from '../../src/domain/errors.js';
import { personOf } from '../../src/domain/person.js';
import { withTempDir } from '../support/tmp.js';

const env = { KEY: 'k'.repeat(40), HASH: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA' };

function yaml(users: string, people = '      - { name: Kari, email: kari@acme.example, roles: [operator] }'): string {
  return `console:
  enabled: true
  sessionKey: { env: KEY }
  localUsers:
${users}
companies:
  - id: acme
    name: ACME AS
    organisationNumber: "999999999"
    root: ./acme
    people:
${people}
`;
}

async function check(text: string): Promise<{ path: string; message: string }[]> {
  return withTempDir(async (dir) => {
    const file = join(dir, 'settle.yaml');
    await writeFile(file, text);
    try {
      loadConfig({ file, cwd: dir, env });
      return [];
    } catch (error) {
      if (isSettleError(error, 'ERR_CONFIG_INVALID'))
        return (error.details?.problems ?? []) as { path: string; message: string }[];
      throw error;
    }
  });
}

describe('config check and who is who', () => {
  it('refuses kari and kari2 whose addresses differ only in case', async () => {
    const problems = await check(
      yaml(`    - { username: kari, email: kari@acme.example, passwordHash: { env: HASH } }
    - { username: kari2, email: KARI@Acme.example, passwordHash: { env: HASH } }`),
    );
    expect(problems).toEqual([
      {
        path: 'console.localUsers.1.email',
        message: expect.stringContaining('"kari2" and "kari" are one person (kari@acme.example)') as string,
      },
    ]);
  });

  it('lets one person have two logins when both name the same person id, and maps both to it', async () => {
    const text = yaml(
      `    - { username: kari, email: kari@acme.example, person: kari, passwordHash: { env: HASH } }
    - { username: kari-laptop, email: KARI@acme.example, person: kari, passwordHash: { env: HASH } }`,
      '      - { name: Kari, email: kari@acme.example, person: kari, roles: [operator] }',
    );
    expect(await check(text)).toEqual([]);
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 's.yaml'), text);
      const directory = personDirectory(loadConfig({ file: join(dir, 's.yaml'), cwd: dir, env }));
      expect(personOf({ id: 'local:kari-laptop' }, directory)).toBe('kari');
      // An OIDC login with her address is her too.
      expect(personOf({ id: 'oidc:https://idp#1', email: 'Kari@acme.example' }, directory)).toBe('kari');
    });
  });

  it('refuses a person id that contradicts the people list, and one that looks like an address', async () => {
    const problems = await check(
      yaml(
        '    - { username: kari, email: kari@acme.example, person: kari-a, passwordHash: { env: HASH } }',
        '      - { name: Kari, email: kari@acme.example, person: kari-b, roles: [operator] }',
      ),
    );
    expect(problems.map((p) => p.path)).toEqual(['console.localUsers.0.email']);
    expect(problems[0]!.message).toContain('names person "kari-a", but companies[].people gives');
    const bad = await check(
      yaml('    - { username: kari, email: kari@acme.example, person: Kari@x, passwordHash: { env: HASH } }'),
    );
    expect(bad.map((p) => p.path)).toEqual(['console.localUsers.0.person']);
  });
});
