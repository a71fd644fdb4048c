// `settle console hash-password`: the argon2id hash of a local console user's password, for
// console.localUsers[].passwordHash. The password is read from the terminal (not echoed, asked
// twice) or from standard input, never from the command line, where `ps` and the shell's history
// would keep it. The hash goes to standard output, alone, so it can be redirected into the file
// the configuration names; nothing else of the password is printed or logged.
import { hash } from '@node-rs/argon2';
import { Command } from 'commander';
import { SettleError } from '../../domain/errors.js';

/** Shorter passwords are refused: the console faces people's browsers, and sign-in is rate-limited only per window. */
export const MIN_PASSWORD_LENGTH = 12;

export function consoleCommand(): Command {
  const command = new Command('console').description('web console helpers');
  command
    .command('hash-password')
    .description(
      "print the argon2id hash of a local user's password (console.localUsers[].passwordHash); reads it from the terminal, or from standard input, never from the command line",
    )
    .action(async () => {
      const password = process.stdin.isTTY ? await askTwice() : await readStdin();
      if ([...password].length < MIN_PASSWORD_LENGTH)
        throw new SettleError(
          'ERR_USAGE',
          `the password is shorter than ${MIN_PASSWORD_LENGTH} characters; choose a longer one (a few words make a good one)`,
        );
      // argon2id is the library's default (its own parameters: m=19456, t=2, p=1); the test checks the prefix.
      process.stdout.write(`${await hash(password)}\n`);
      process.stderr.write(
        'Store the line above in a file readable by settle alone and name it: passwordHash: { file: /etc/settle/console-<user>.argon2 }\n',
      );
    });
  return command;
}

/** Standard input as the password: one line, its line ending taken off. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const password = text.replace(/\r?\n$/, '');
  if (password.includes('\n'))
    throw new SettleError('ERR_USAGE', 'standard input holds more than one line; give the password alone');
  return password;
}

async function askTwice(): Promise<string> {
  const first = await ask('Password: ');
  const second = await ask('Again: ');
  if (first !== second) throw new SettleError('ERR_USAGE', 'the two passwords differ; nothing was hashed');
  return first;
}

/** One line from the terminal with echo off (raw mode): the password never shows on the screen. */
function ask(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let typed = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new SettleError('ERR_USAGE', 'interrupted; nothing was hashed'));
        if (ch === '\u007f' || ch === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}
