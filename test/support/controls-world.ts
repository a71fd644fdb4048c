// The world of the payment controls' tests through the real entry point: the demo's company on
// an in-process sandbox bank, its inbox to drop files in, the settle CLI run as a person would run
// it (SETTLE_ACTOR), and the end-to-end ids the bank received. On SQLite (the configuration's own
// file) or in a throwaway MariaDB database.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { silentLogger } from '../../src/log/index.js';
import { writeDemoConfig } from '../../src/main/demo.js';
import { SEED, startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runSettle, type CliResult } from './cli.js';
import { createThrowawayDatabase } from './mariadb.js';
import { withTempDir } from './tmp.js';

export type Engine = 'SQLite' | 'MariaDB';

/** Who runs the CLI unless a test names someone else. */
export const CONTROLS_ACTOR = 'kari.controller';

export interface ControlsWorld {
  dir: string;
  /** The settle.yaml. */
  file: string;
  sandbox: RunningSandbox;
  /** The environment every settle process of the test gets (bank secret, database, actor). */
  env: NodeJS.ProcessEnv;
  /** The requested execution date of every line: a weekday the bank takes and settle does not move. */
  date: string;
  /** `settle --config FILE …` as CONTROLS_ACTOR. */
  settle: (...args: string[]) => Promise<CliResult>;
  /** The same as another person (SETTLE_ACTOR). */
  settleAs: (actor: string, ...args: string[]) => Promise<CliResult>;
  /** Writes a file into the company's inbox. */
  drop: (name: string, text: string) => Promise<void>;
  /** Writes a CSV of `header` and `lines` into the inbox. */
  dropCsv: (name: string, header: string, ...lines: string[]) => Promise<void>;
  /** Every end-to-end id the sandbox bank ever received, sorted, once per time it was sent. */
  paidAtBank: () => Promise<string[]>;
  /** Every bulk the sandbox bank received, in order: its idempotency key and its lines' end-to-end ids. */
  bulksAtBank: () => Promise<BulkAtBank[]>;
}

export interface BulkAtBank {
  idempotencyKey: string;
  endToEndIds: string[];
}

export interface ControlsWorldOptions {
  /** Lines appended to the company's entry (indented four spaces), e.g. its `controls:`. */
  company?: string;
  /** The console on, for a `settle serve` of the test. */
  console?: boolean;
  /** A last change to the configuration's text. */
  edit?: (yaml: string) => string;
  /** More environment for every settle process (the secrets `edit` names). */
  env?: NodeJS.ProcessEnv;
}

/** A weekday at least two days ahead: the bank takes it and settle does not move it. */
export function executionDate(): string {
  const day = new Date(Date.now() + 2 * 86_400_000);
  while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** `night` with a database of `engine`: no URL for SQLite, a throwaway MariaDB database dropped after. */
export async function onEngine(engine: Engine, night: (databaseUrl: string | undefined) => Promise<void>) {
  if (engine === 'SQLite') return night(undefined);
  const db = await createThrowawayDatabase();
  try {
    await night(db.url);
  } finally {
    await db.drop();
  }
}

export async function withControlsWorld(
  databaseUrl: string | undefined,
  options: ControlsWorldOptions,
  fn: (world: ControlsWorld) => Promise<void>,
): Promise<void> {
  const sandbox = await startSandbox({ port: 0, logger: silentLogger(), start: new Date() });
  try {
    await withTempDir(async (dir) => {
      const file = await writeDemoConfig(dir, sandbox, options.console ? { console: true } : {});
      const yaml = `${await readFile(file, 'utf8')}${options.company ?? ''}`;
      await writeFile(file, options.edit ? options.edit(yaml) : yaml);
      const env = {
        ...options.env,
        SETTLE_CLIENT_SECRET: SEED.clientSecret,
        SETTLE_ACTOR: CONTROLS_ACTOR,
        ...(databaseUrl ? { SETTLE_DATABASE_URL: databaseUrl } : {}),
      };
      const settleAs = (actor: string, ...args: string[]) =>
        runSettle(['--config', file, ...args], { cwd: dir, env: { ...env, SETTLE_ACTOR: actor } });
      const inbox = join(dir, 'acme', 'inbox');
      await mkdir(inbox, { recursive: true });
      const drop = (name: string, text: string) => writeFile(join(inbox, name), text);
      const bulksAtBank = async (): Promise<BulkAtBank[]> => {
        const response = await fetch(`${sandbox.urls.controlUrl}/payments`);
        const body = (await response.json()) as {
          payments: { idempotencyKey: string; paymentLines: { endToEndIdentification: string }[] }[];
        };
        return body.payments.map((b) => ({
          idempotencyKey: b.idempotencyKey,
          endToEndIds: b.paymentLines.map((l) => l.endToEndIdentification),
        }));
      };
      await fn({
        dir,
        file,
        sandbox,
        env,
        date: executionDate(),
        settle: (...args) => settleAs(CONTROLS_ACTOR, ...args),
        settleAs,
        drop,
        dropCsv: (name, header, ...lines) => drop(name, [header, ...lines].join('\n') + '\n'),
        paidAtBank: async () => (await bulksAtBank()).flatMap((b) => b.endToEndIds).sort(),
        bulksAtBank,
      });
    });
  } finally {
    await sandbox.close();
  }
}
