// `settle sftp fingerprint HOST[:PORT]`: first contact with an SFTP server. Prints the host
// key fingerprint to pin as sftp.hostKeySha256. No credential is sent: the key is refused
// as soon as it is seen. The operator must confirm the value with the server's operator
// through another channel; blindly pinning what the network shows defeats the purpose.
import { Command, InvalidArgumentError } from 'commander';
import { fetchHostKey } from '../../transport/index.js';

export interface Endpoint {
  host: string;
  port: number;
}

/** Parses HOST, HOST:PORT, [IPv6] or [IPv6]:PORT. */
export function parseEndpoint(value: string): Endpoint {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  const plain = /^([^:[\]\s]+)(?::(\d+))?$/.exec(value);
  const match = bracketed ?? plain;
  const host = match?.[1] ?? (value.split(':').length > 2 ? value : undefined); // bare IPv6, default port
  const portText = match?.[2];
  const port = portText === undefined ? 22 : Number.parseInt(portText, 10);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new InvalidArgumentError(`expected HOST or HOST:PORT (port 1-65535), got ${JSON.stringify(value)}`);
  }
  return { host, port };
}

export interface SftpCommandIo {
  out: (text: string) => void;
}

export function sftpCommand(io: SftpCommandIo = { out: (text) => void process.stdout.write(text) }): Command {
  const command = new Command('sftp').description('SFTP helpers');
  command
    .command('fingerprint')
    .description("print an SFTP server's host key fingerprint to pin (sftp.hostKeySha256); sends no credentials")
    .argument('<HOST[:PORT]>', 'server address; port 22 when omitted', parseEndpoint)
    .option(
      '--timeout <ms>',
      'give up after this many milliseconds',
      (v) => {
        const ms = Number.parseInt(v, 10);
        if (!/^\d+$/.test(v) || ms <= 0) throw new InvalidArgumentError('expected a positive number of milliseconds');
        return ms;
      },
      15_000,
    )
    .option('--json', 'print {host, port, fingerprint, keyType} as JSON')
    .action(async (endpoint: Endpoint, options: { timeout: number; json?: boolean }) => {
      const key = await fetchHostKey({ host: endpoint.host, port: endpoint.port, timeoutMs: options.timeout });
      if (options.json) {
        io.out(
          JSON.stringify({
            host: endpoint.host,
            port: endpoint.port,
            fingerprint: key.fingerprint,
            keyType: key.keyType,
          }) + '\n',
        );
        return;
      }
      io.out(
        `${key.fingerprint} (${key.keyType}) ${endpoint.host}:${endpoint.port}\n` +
          'Confirm this value with the server operator (e.g. `ssh-keygen -lf` on its host key) before setting it as sftp.hostKeySha256.\n',
      );
    });
  return command;
}
