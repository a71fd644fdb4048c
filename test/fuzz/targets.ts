// The readers settle exposes to untrusted input, each wrapped so the fuzzer can feed it bytes
// and check the one promise every reader makes: no crash, no hang, and a bad input is answered
// with issues that say where (a row, a column, an XPath, a key path) — never a stack trace.
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readEventDelivery } from '../../src/bank/cloud-events.js';
import { loadConfig } from '../../src/config/index.js';
import { isSettleError } from '../../src/domain/errors.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import { loadProfile, type CsvProfile } from '../../src/formats/csv-profile/index.js';
import { validateFile } from '../../src/formats/intake/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Located {
  code?: string;
  severity?: string;
  message: string;
  /** Where: any of row, column, path, key. */
  where: unknown;
}

/** What a reader said about one input: whether it accepted it, and its located problems. */
export interface Verdict {
  accepted: boolean;
  problems: Located[];
}

export interface FuzzTarget {
  name: string;
  ext: string;
  seeds: Buffer[];
  /** Runs the reader on one input in `dir` (a scratch folder). Throws only on a real crash. */
  run(input: Buffer, dir: string): Promise<Verdict>;
}

const files = (dir: string, pattern: RegExp): Buffer[] =>
  readdirSync(join(root, dir))
    .filter((f) => pattern.test(f))
    .sort()
    .map((f) => readFileSync(join(root, dir, f)));

async function intake(input: Buffer, dir: string, ext: string, profile: CsvProfile): Promise<Verdict> {
  const file = join(dir, `case${ext}`);
  await writeFile(file, input);
  const result = await validateFile(file, { profile, validation: { asOf: toLocalDate('2026-01-05') } });
  return {
    accepted: result.valid,
    problems: result.issues.map((i) => ({ code: i.code, severity: i.severity, message: i.message, where: i.location })),
  };
}

export async function fuzzTargets(): Promise<FuzzTarget[]> {
  const profiles = [join(root, 'config/profiles')];
  const generic = await loadProfile('generic', profiles);
  const nordic = await loadProfile('nordic', profiles);
  const event = (data: object, extra: object = {}) =>
    Buffer.from(
      JSON.stringify({
        specversion: '1.0',
        id: 'e1',
        source: 'kx9mp3rw2jf5nt42',
        type: 'banking.payment.status.updated',
        time: '2026-01-05T09:00:00Z',
        subject: '/subscriptions/sandbox/resource-groups/999999999/providers/aritma.openbanking/accounts/a1',
        tid: 't',
        data,
        ...extra,
      }),
    );
  const paymentData = {
    paymentId: 'p1',
    endToEndIdentification: 'E1',
    transactionStatus: 'ACSC',
    tppMessages: [],
    _links: { self: { href: 'https://x/api/payments/credit-transfer/p1', verb: 'get' } },
  };
  const eventSeeds = [
    event(paymentData),
    Buffer.from(
      `[${event(paymentData).toString()},${event({ paymentId: 'p2', transactionStatus: 'rjct', tppMessages: [{ code: 'AC01', message: 'x' }] }, { id: 'e2' }).toString()}]`,
    ),
  ];

  return [
    {
      name: 'csv-generic',
      ext: '.csv',
      seeds: [
        ...files('test/fixtures/intake/valid', /^generic/),
        ...files('test/fixtures/intake/rules', /\.csv$/).slice(0, 12),
      ],
      run: (input, dir) => intake(input, dir, '.csv', generic),
    },
    {
      name: 'csv-nordic',
      ext: '.csv',
      seeds: [...files('test/fixtures/intake/valid', /^nordic/), ...files('test/fixtures/intake/encodings', /^nordic/)],
      run: (input, dir) => intake(input, dir, '.csv', nordic),
    },
    {
      name: 'pain001',
      ext: '.xml',
      seeds: [
        ...files('test/fixtures/intake/valid', /\.xml$/),
        ...files('test/fixtures/intake/rules', /\.xml$/).slice(0, 8),
      ],
      run: (input, dir) => intake(input, dir, '.xml', generic),
    },
    {
      name: 'cloudevents',
      ext: '.json',
      seeds: eventSeeds,
      run: (input) => {
        try {
          const delivery = readEventDelivery({ 'content-type': 'application/cloudevents-batch+json' }, input);
          return Promise.resolve({
            accepted: delivery.rejected.length === 0,
            problems: delivery.rejected.map((r) => ({ message: r.message, where: { index: r.index } })),
          });
        } catch (error) {
          if (isSettleError(error, 'ERR_BANK_EVENT_INVALID'))
            return Promise.resolve({
              accepted: false,
              problems: [{ code: error.code, message: error.message, where: { request: 'body' } }],
            });
          throw error;
        }
      },
    },
    {
      name: 'config',
      ext: '.yaml',
      seeds: [
        readFileSync(join(root, 'config/settle.example.yaml')),
        Buffer.from('companies:\n  - id: acme\n    name: ACME\n    organisationNumber: "1"\n    root: ./x\n'),
      ],
      run: async (input, dir) => {
        const file = join(dir, 'case.yaml');
        await writeFile(file, input);
        try {
          loadConfig({ file, cwd: dir, env: {} });
          return { accepted: true, problems: [] };
        } catch (error) {
          if (!isSettleError(error, 'ERR_CONFIG_INVALID')) throw error;
          const problems = (error.details?.problems ?? []) as { path: string; message: string }[];
          return {
            accepted: false,
            problems: problems.map((p) => ({ code: error.code, message: p.message, where: { key: p.path } })),
          };
        }
      },
    },
  ];
}

/** Why a verdict breaks the readers' promise, or undefined when it keeps it. */
export function brokenPromise(verdict: Verdict): string | undefined {
  if (!verdict.accepted && verdict.problems.length === 0) return 'refused without saying why';
  for (const p of verdict.problems) {
    if (typeof p.message !== 'string' || p.message.trim() === '') return 'a problem without a message';
    if (p.where === undefined || p.where === null || typeof p.where !== 'object')
      return `a problem without a location: ${p.message}`;
    if (/\n\s+at .+:\d+:\d+/.test(p.message)) return `a stack trace in a message: ${p.message.slice(0, 80)}`;
  }
  return undefined;
}
