// What a reload applies and whom it signs out, on configurations loaded as settle loads them:
// companies, people, new transports and local users come from the new files; any other change
// waits for a restart (and is named, secrets compared without being shown); a person who loses a
// role or a company, and a removed local login, lose their sessions; gaining a role ends nothing.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config/index.js';
import { whoLostAccess } from '../../src/main/lost-access.js';
import { merged } from '../../src/main/reload.js';
import { withTempDir } from '../support/tmp.js';

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA';
const env = { KEY: 'k'.repeat(40), HASH, SFTP_PASSWORD: 'first', OTHER_PASSWORD: 'x' };

interface Shape {
  companies: { id: string; people: string }[];
  users?: string[];
  schedule?: string;
  sftpPassword?: string;
  transports?: string;
}

function yaml(shape: Shape): string {
  const users = (shape.users ?? ['olga', 'vera']).map(
    (u) => `    - { username: ${u}, email: ${u}@bureau.example, passwordHash: { env: HASH } }`,
  );
  return `console:
  enabled: true
  sessionKey: { env: KEY }
  localUsers:
${users.join('\n')}
${shape.schedule ?? ''}
transports:
  erp: { type: sftp, host: sftp.example, username: s, password: { env: ${shape.sftpPassword ?? 'SFTP_PASSWORD'} }, allowUnpinnedHostKey: true }
${shape.transports ?? ''}
people:
  - { person: olga, name: Olga, email: olga@bureau.example }
  - { person: vera, name: Vera, email: vera@bureau.example }
companies:
${shape.companies
  .map(
    (c, i) =>
      `  - { id: ${c.id}, name: ${c.id}, organisationNumber: "90000000${i}", root: ./${c.id}, people: [${c.people}] }`,
  )
  .join('\n')}
`;
}

async function load(dir: string, shape: Shape): Promise<Readonly<Config>> {
  const file = join(dir, 'settle.yaml');
  await writeFile(file, yaml(shape));
  return loadConfig({ file, cwd: dir, env });
}

const OLGA = '{ person: olga, roles: [operator] }';
const VERA = '{ person: vera, roles: [viewer] }';

describe('a reload', () => {
  it('takes companies, people, new transports and local users from the new files, and names what waits for a restart', async () => {
    await withTempDir(async (dir) => {
      const running = await load(dir, { companies: [{ id: 'acme', people: OLGA }] });
      const next = await load(dir, {
        companies: [
          { id: 'acme', people: OLGA },
          { id: 'beta', people: VERA },
        ],
        users: ['olga'],
        schedule: 'schedule: { nightly: "0 3 * * *" }',
        sftpPassword: 'OTHER_PASSWORD',
        transports:
          '  erp2: { type: sftp, host: two.example, username: s, password: { env: SFTP_PASSWORD }, allowUnpinnedHostKey: true }',
      });
      const { config, restartNeeded } = merged(running, next);
      expect(config.companies.map((c) => c.id)).toEqual(['acme', 'beta']);
      expect(config.console.localUsers.map((u) => u.username)).toEqual(['olga']);
      expect(Object.keys(config.transports)).toEqual(['erp', 'erp2']);
      // The changed transport and schedule stay as they run until a restart.
      expect(config.transports.erp!.password?.reveal()).toBe('first');
      expect(config.schedule.nightly).toBe('0 2 * * *');
      expect(restartNeeded.sort()).toEqual(['schedule', 'transports.erp']);
      expect(JSON.stringify(restartNeeded)).not.toContain('first');
    });
  });

  it('signs out whoever lost a role, a company or a login, and nobody who only gained', async () => {
    await withTempDir(async (dir) => {
      const before = await load(dir, {
        companies: [
          { id: 'acme', people: `${OLGA}, ${VERA}` },
          { id: 'beta', people: OLGA },
        ],
      });
      const gained = await load(dir, {
        companies: [
          { id: 'acme', people: `{ person: olga, roles: [operator, approver] }, ${VERA}` },
          { id: 'beta', people: OLGA },
          { id: 'gamma', people: VERA },
        ],
      });
      expect(whoLostAccess(before, gained)).toEqual({ persons: [], logins: [] });
      const roleRemoved = await load(dir, {
        companies: [
          { id: 'acme', people: OLGA },
          { id: 'beta', people: OLGA },
        ],
      });
      expect(whoLostAccess(before, roleRemoved)).toEqual({ persons: ['vera'], logins: [] });
      const companyRemoved = await load(dir, {
        companies: [{ id: 'acme', people: `${OLGA}, ${VERA}` }],
        users: ['vera'],
      });
      expect(whoLostAccess(before, companyRemoved)).toEqual({ persons: ['olga'], logins: ['local:olga'] });
    });
  });
});
