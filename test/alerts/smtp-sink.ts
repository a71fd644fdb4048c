// A minimal SMTP server for the tests (RFC 5321 subset: EHLO/HELO, AUTH PLAIN/LOGIN, MAIL,
// RCPT, DATA, RSET, NOOP, QUIT) on a loopback port of its own. It keeps every message it
// receives; `failWith` makes it refuse MAIL FROM with a given reply.
import { createServer, type Server, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
  auth?: { user: string; pass: string };
}

export interface SmtpSink {
  port: number;
  messages: ReceivedMail[];
  failWith: string | undefined;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const sockets = new Set<Socket>();
  const sink: SmtpSink = { port: 0, messages: [], failWith: undefined, close: () => Promise.resolve() };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffer = '';
    let mode: 'command' | 'data' | 'auth-user' | 'auth-pass' = 'command';
    let current: ReceivedMail = { from: '', to: [], data: '' };
    let auth: { user: string; pass: string } | undefined;
    let pendingUser = '';
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink.test ESMTP');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (mode === 'data') {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end).replace(/^\.\./gm, '.');
          buffer = buffer.slice(end + 5);
          sink.messages.push({ ...current, ...(auth ? { auth } : {}) });
          current = { from: '', to: [], data: '' };
          mode = 'command';
          reply('250 2.0.0 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        if (mode === 'auth-user') {
          pendingUser = Buffer.from(line, 'base64').toString('utf8');
          mode = 'auth-pass';
          reply('334 UGFzc3dvcmQ6');
          continue;
        }
        if (mode === 'auth-pass') {
          auth = { user: pendingUser, pass: Buffer.from(line, 'base64').toString('utf8') };
          mode = 'command';
          reply('235 2.7.0 authenticated');
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          socket.write('250-sink.test\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n');
        } else if (verb === 'HELO') reply('250 sink.test');
        else if (verb === 'AUTH') {
          const [, mech, initial] = line.split(' ');
          if (mech?.toUpperCase() === 'PLAIN' && initial) {
            const [, user = '', pass = ''] = Buffer.from(initial, 'base64').toString('utf8').split('\0');
            auth = { user, pass };
            reply('235 2.7.0 authenticated');
          } else if (mech?.toUpperCase() === 'LOGIN') {
            mode = 'auth-user';
            reply('334 VXNlcm5hbWU6');
          } else reply('504 unsupported');
        } else if (verb === 'MAIL') {
          if (sink.failWith) reply(sink.failWith);
          else {
            current.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
            reply('250 2.1.0 ok');
          }
        } else if (verb === 'RCPT') {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          mode = 'data';
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'RSET') {
          current = { from: '', to: [], data: '' };
          reply('250 ok');
        } else if (verb === 'NOOP') reply('250 ok');
        else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('502 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  sink.port = typeof address === 'object' && address ? address.port : 0;
  sink.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return sink;
}

/**
 * A received mail as a person's mail program shows it: headers unfolded with their encoded words
 * (RFC 2047, Q or B) decoded, and a quoted-printable body decoded as UTF-8.
 */
export function readableMail(data: string): string {
  const split = data.search(/\r?\n\r?\n/);
  const head = data.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = data.slice(split);
  const word = (charset: string, how: string, text: string): string =>
    how.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString(charset.toLowerCase() === 'utf-8' ? 'utf8' : 'latin1')
      : qp(text.replace(/_/g, ' '));
  const headers = head.replace(
    /=\?([^?]+)\?([QqBb])\?([^?]*)\?=(?:[ \t]+(?==\?))?/g,
    (_m, c: string, h: string, t: string) => word(c, h, t),
  );
  const quoted = /^Content-Transfer-Encoding:\s*quoted-printable/im.test(head);
  return headers + (quoted ? qp(body.replace(/=\r?\n/g, '')) : body);
}

function qp(text: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? /^[0-9A-F]{2}/i.exec(text.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}
