// settle console hash-password: the hash a local console user's configuration needs, from the
// compiled CLI as installed; the password comes from standard input, never the command line.
import { verify } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { runSettle } from '../support/cli.js';

describe('settle console hash-password', () => {
  it('prints an argon2id hash of the password read from standard input, and nothing of the password', async () => {
    const password = 'correct horse battery staple';
    const result = await runSettle(['console', 'hash-password'], { input: `${password}\n` });
    expect(result.code, result.stderr).toBe(0);
    const hash = result.stdout.trim();
    expect(hash).toMatch(/^\$argon2id\$v=19\$/);
    expect(result.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(await verify(hash, password)).toBe(true);
    expect(await verify(hash, `${password}\n`)).toBe(false);
    expect(result.stderr).not.toContain(password);
    expect(result.stderr).toContain('passwordHash: { file:');
  });

  it('takes no password on the command line, and refuses a short one', async () => {
    const argv = await runSettle(['console', 'hash-password', 'hunter2hunter2'], { input: 'x\n' });
    expect(argv.code).toBe(2);
    expect(argv.stderr).toMatch(/^settle: ERR_USAGE: too many arguments/);
    const short = await runSettle(['console', 'hash-password'], { input: 'hunter2\n' });
    expect(short.code).toBe(2);
    expect(short.stdout).toBe('');
    expect(short.stderr).toContain('shorter than 12 characters');
    expect(short.stderr).not.toContain('hunter2');
  });
});
