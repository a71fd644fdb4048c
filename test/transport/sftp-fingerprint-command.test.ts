import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseEndpoint, sftpCommand } from '../../src/cli/commands/sftp-fingerprint.js';

describe('settle sftp fingerprint: arguments', () => {
  it('parses HOST, HOST:PORT and bracketed IPv6, with port 22 by default', () => {
    expect(parseEndpoint('sftp.example.com')).toEqual({ host: 'sftp.example.com', port: 22 });
    expect(parseEndpoint('10.0.0.5:2222')).toEqual({ host: '10.0.0.5', port: 2222 });
    expect(parseEndpoint('[::1]:2022')).toEqual({ host: '::1', port: 2022 });
    expect(parseEndpoint('fe80::1')).toEqual({ host: 'fe80::1', port: 22 });
  });

  it.each(['host:0', 'host:70000', 'host:abc', '', 'a b:22'])('refuses %j as a usage error', async (bad) => {
    const command = sftpCommand({ out: () => undefined });
    command.exitOverride();
    command.commands.forEach((sub) => sub.exitOverride().configureOutput({ outputError: () => undefined }));
    await expect(command.parseAsync(['fingerprint', bad], { from: 'user' })).rejects.toBeInstanceOf(CommanderError);
  });
});
