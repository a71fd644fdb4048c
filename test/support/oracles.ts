// Independent oracles for the output writers (shared/iso20022/ORACLES.md): xmllint checks XML
// against the official XSDs, aqbanking-cli imports camt.053 as a ledger program would, hledger
// reads CSV with a rules file. In CI (process.env.CI set) a missing tool fails the test; outside
// CI the test is skipped with a loud warning, so a developer without the apt packages can still
// run the rest (apt-get install -y libxml2-utils aqbanking-tools hledger).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';

export type OracleTool = 'xmllint' | 'aqbanking-cli' | 'hledger' | 'ofxstatement' | 'faketime';

const APT_PACKAGE: Record<OracleTool, string> = {
  xmllint: 'libxml2-utils',
  'aqbanking-cli': 'aqbanking-tools',
  hledger: 'hledger',
  ofxstatement: 'ofxstatement ofxstatement-plugins',
  // Not an oracle: runs settle's CLI at the sandbox's dates (runSettleAt in cli.ts).
  faketime: 'faketime',
};
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The official XSDs: SETTLE_XSD_DIR, else the shared folder beside the repository. */
export const XSD_DIR = process.env.SETTLE_XSD_DIR ?? resolve(REPO, '../shared/iso20022/xsd');

const available = new Map<OracleTool, boolean>();
export function hasTool(tool: OracleTool): boolean {
  let found = available.get(tool);
  if (found === undefined) {
    found = spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
    available.set(tool, found);
  }
  return found;
}

/**
 * `it` for a test that needs `tool`: runs it when installed; in CI fails it when not; elsewhere
 * skips it and says so on stderr.
 */
export function itWith(tool: OracleTool): (name: string, fn: () => Promise<void> | void, timeout?: number) => void {
  if (hasTool(tool)) return (name, fn, timeout) => it(name, fn, timeout);
  if (process.env.CI) {
    return (name) =>
      it(name, () => {
        throw new Error(`${tool} is required in CI: apt-get install -y ${APT_PACKAGE[tool]}`);
      });
  }
  return (name) => {
    process.stderr.write(`\n*** SKIPPED (no ${tool}; apt-get install -y ${APT_PACKAGE[tool]}): ${name}\n`);
    it.skip(name, () => undefined);
  };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], cwd?: string): Promise<Run> {
  return new Promise((done) => {
    execFile(command, args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, stdout, stderr });
    });
  });
}

async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'settle-oracle-'));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Validates an XML text against shared/iso20022/xsd/<schema>.xsd. */
export async function xmllintValidate(
  xml: string | Buffer,
  schema: string,
): Promise<{ valid: boolean; output: string }> {
  return withTempDir(async (dir) => {
    const file = join(dir, 'doc.xml');
    await writeFile(file, xml);
    const result = await run('xmllint', ['--noout', '--schema', join(XSD_DIR, `${schema}.xsd`), file]);
    return { valid: result.code === 0, output: result.stderr.split(file).join('doc.xml') };
  });
}

export interface AqTransaction {
  date: string;
  valueDate: string;
  /** Amount in minor units of `currency`, from aqbanking's rational "-75425/100:EUR". */
  minor: bigint;
  currency: string;
  localIban: string;
  endToEndId: string;
  transactionKey: string;
}

/**
 * Imports a camt.053 document with aqbanking-cli's xml importer (profile camt_053_001_04, the
 * only camt.053 one) and lists what it read. `exponent` turns the rational amounts into minor units.
 */
export async function aqbankingImportCamt053(
  xml: string | Buffer,
  exponent: number,
): Promise<{ transactions: AqTransaction[]; closing: string }> {
  return withTempDir(async (dir) => {
    const { imported, cfg, ctx } = await aqbankingImport(dir, xml, 'camt_053_001_04');
    if (imported.code !== 0)
      throw new Error(`aqbanking-cli import failed (${imported.code}): ${imported.stderr.slice(-500)}`);
    const template = [
      '$(dateAsString)',
      '$(valutaDateAsString)',
      '$(value)',
      '$(localIban)',
      '$(endToEndReference)',
      '$(transactionKey)',
    ].join('\t');
    const listed = await run('aqbanking-cli', ['-D', cfg, 'listtrans', '-c', ctx, '-T', template]);
    if (listed.code !== 0)
      throw new Error(`aqbanking-cli listtrans failed (${listed.code}): ${listed.stderr.slice(-500)}`);
    const balances = await run('aqbanking-cli', ['-D', cfg, 'listbal', '-c', ctx]);
    const transactions = listed.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const [date = '', valueDate = '', value = '', localIban = '', endToEndId = '', transactionKey = ''] =
          line.split('\t');
        const { minor, currency } = parseRational(value, exponent);
        return { date, valueDate, minor, currency, localIban, endToEndId, transactionKey };
      });
    return { transactions, closing: balances.stdout.trim() };
  });
}

/** "-75425/100:EUR" → -75425n minor units at exponent 2 (exact; throws when not representable). */
export function parseRational(value: string, exponent: number): { minor: bigint; currency: string } {
  const match = /^(-?\d+)(?:\/(\d+))?:([A-Z]{3})$/.exec(value.trim());
  if (!match) throw new Error(`unexpected aqbanking amount "${value}"`);
  const numerator = BigInt(match[1]!) * 10n ** BigInt(exponent);
  const denominator = BigInt(match[2] ?? '1');
  if (numerator % denominator !== 0n) throw new Error(`"${value}" has more decimals than ${exponent}`);
  return { minor: numerator / denominator, currency: match[3]! };
}

/** Runs hledger on a CSV file with a rules file; returns stdout (throws on a non-zero exit). */
export async function hledgerCsv(csv: string | Buffer, rulesFile: string, args: readonly string[]): Promise<string> {
  return withTempDir(async (dir) => {
    const file = join(dir, 'statement.csv');
    await writeFile(file, csv);
    // A private HOME/LEDGER_FILE would be cleaner; hledger reads neither when -f is given.
    const result = await run('hledger', ['-f', `csv:${file}`, '--rules-file', rulesFile, ...args]);
    if (result.code !== 0) throw new Error(`hledger failed (${result.code}): ${result.stderr.slice(-500)}`);
    return result.stdout;
  });
}

/** What ofxstatement's ISO 20022 plugin made of a camt.053: the OFX transactions and the ledger balance. */
export interface OfxStatement {
  amounts: string[];
  ids: string[];
  ledgerBalance: string | undefined;
}

/** Converts a camt.053 with `ofxstatement convert -t iso20022` and reads the OFX it writes. */
export async function ofxstatementIso20022(xml: string | Buffer): Promise<OfxStatement> {
  return withTempDir(async (dir) => {
    await writeFile(join(dir, 'in.xml'), xml);
    const r = await run('ofxstatement', ['convert', '-t', 'iso20022', 'in.xml', 'out.ofx'], dir);
    if (r.code !== 0) throw new Error(`ofxstatement failed (${r.code}): ${r.stderr || r.stdout}`);
    const ofx = await readFile(join(dir, 'out.ofx'), 'utf8');
    const all = (tag: string, within = ofx) =>
      [...within.matchAll(new RegExp(`<${tag}>([^<\\r\\n]*)`, 'g'))].map((m) => m[1]!.trim());
    const ledger = /<LEDGERBAL>([\s\S]*?)<\/LEDGERBAL>/.exec(ofx)?.[1];
    return {
      amounts: all('TRNAMT'),
      ids: all('FITID'),
      ledgerBalance: ledger === undefined ? undefined : all('BALAMT', ledger)[0],
    };
  });
}

/**
 * Evaluates an XPath 1.0 expression with xmllint (a reader independent of our writers): counts,
 * sums and texts of a written document, to compare with the database. Elements are addressed by
 * local-name() so one expression serves every version's namespace.
 */
export async function xmllintXpath(xml: string | Buffer, expression: string): Promise<string> {
  return withTempDir(async (dir) => {
    const file = join(dir, 'doc.xml');
    await writeFile(file, xml);
    const result = await run('xmllint', ['--xpath', expression, file]);
    if (result.code !== 0 && result.code !== 10)
      throw new Error(`xmllint --xpath failed (${result.code}): ${result.stderr.slice(-500)}`);
    return result.stdout.trim();
  });
}

/**
 * Imports any document with aqbanking-cli's xml importer and a given profile and counts the
 * transactions it read; -1 when the import itself fails.
 */
export async function aqbankingCount(xml: string | Buffer, profile: string): Promise<number> {
  return withTempDir(async (dir) => {
    const { imported, cfg, ctx } = await aqbankingImport(dir, xml, profile);
    if (imported.code !== 0) return -1;
    const listed = await run('aqbanking-cli', ['-D', cfg, 'listtrans', '-c', ctx, '-T', '$(value)']);
    return listed.stdout.split('\n').filter((line) => line.trim() !== '').length;
  });
}

/** aqbanking-cli's xml importer with a throw-away config folder in `dir`. */
async function aqbankingImport(
  dir: string,
  xml: string | Buffer,
  profile: string,
): Promise<{ imported: Run; cfg: string; ctx: string }> {
  const file = join(dir, 'in.xml');
  const cfg = join(dir, 'aqcfg');
  const ctx = join(dir, 'out.ctx');
  await writeFile(file, xml);
  const args = ['-D', cfg, '-n', 'import', '--importer=xml', `--profile=${profile}`, '-f', file, '-c', ctx];
  return { imported: await run('aqbanking-cli', args), cfg, ctx };
}
