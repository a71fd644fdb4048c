// What must hold after the chaos campaign's clean run, read back from the company's folders as
// the ERP and finance would read them (the SFTP server's files, on this machine's disk):
//   (b) every transaction the bank booked on the company's accounts for a closed day is in the
//       exported statements exactly once per format, and nothing else is; no two statement files
//       of an account and format carry the same electronic sequence number;
//   (c) every dropped input file is in archive/ or in error/ with NAME.errors.txt and
//       NAME.errors.json beside it, and the inbox is empty;
//   (d) no temporary or partial file anywhere, and every file settle wrote parses (XML
//       well-formed, CSV rows complete);
//   (e) the reconciliation report (CSV and HTML) exists.
// Each violation is one anomaly with a sentence saying what is wrong.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'csv-parse/sync';
import { SaxesParser } from 'saxes';
import { isTemporaryName } from '../../../src/transport/index.js';

export interface DroppedFile {
  name: string;
  sha256: string;
  /** Where pickup must have put it. */
  expect: 'archive' | 'error';
}

export interface BookedAtBank {
  entryReference: string;
  accountId: string;
  bookingDate: string;
}

export interface FolderNames {
  inbox: string;
  archive: string;
  error: string;
  status: string;
  statements: string;
  reports: string;
}

export interface CheckInput {
  /** The company's root on local disk. */
  root: string;
  folders: FolderNames;
  dropped: readonly DroppedFile[];
  /** The bank's booked transactions on the company's accounts with a booking day before today. */
  booked: readonly BookedAtBank[];
  /** File name suffixes of the configured statement formats, e.g. "camt.053.001.02.xml", "csv". */
  statementSuffixes: readonly string[];
}

export interface CheckFigures {
  filesArchived: number;
  filesInError: number;
  transactionsBooked: number;
  /** Entries read back from the statement files, per format suffix. */
  transactionsExported: Record<string, number>;
  statementFiles: number;
  statusFiles: number;
  /** Complete CSV + HTML pairs. */
  reconciliationReports: number;
  /** Reports of killed runs with only one half written. */
  reconciliationLoneHalves: number;
  anomalies: string[];
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await walk(full)));
    else out.push(full);
  }
  return out;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Parses XML strictly; returns the text of every element named `leaf` (directly inside `parent` when given), or throws on malformed XML. */
export function xmlLeaves(text: string, leaf: string, parent?: string): string[] {
  const parser = new SaxesParser();
  const found: string[] = [];
  const open: string[] = [];
  let inLeaf = false;
  let current = '';
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    if (tag.name === leaf && (parent === undefined || open.at(-1) === parent)) {
      inLeaf = true;
      current = '';
    }
    open.push(tag.name);
  });
  parser.on('text', (t) => {
    if (inLeaf) current += t;
  });
  parser.on('closetag', (tag) => {
    open.pop();
    if (tag.name === leaf && inLeaf) {
      inLeaf = false;
      found.push(current);
    }
  });
  parser.write(text).close();
  return found;
}

/** Parses a CSV file strictly: a header, every row as wide as it, a final line break. */
export function csvRows(text: string): Record<string, string>[] {
  const body = text.replace(/^\uFEFF/, '');
  if (!/\r?\n$/.test(body)) throw new Error('the last row is not terminated (file cut short?)');
  const header = body.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = [';', ',', '\t', '|'].reduce(
    (best, d) => (header.split(d).length > header.split(best).length ? d : best),
    ',',
  );
  return parse<Record<string, string>>(body, {
    delimiter,
    columns: true,
    relax_column_count: false,
    skip_empty_lines: false,
  });
}

export async function finalChecks(input: CheckInput): Promise<CheckFigures> {
  const { root, folders } = input;
  const anomalies: string[] = [];
  const bad = (text: string) => anomalies.push(text);
  const all = await walk(root);
  const rel = (p: string) => relative(root, p);
  const inFolder = (folder: string) => all.filter((p) => rel(p).startsWith(`${folder}/`));

  // (d) nothing temporary or partial anywhere under the company's root.
  for (const p of all) {
    const name = p.slice(p.lastIndexOf('/') + 1);
    if (isTemporaryName(name)) bad(`temporary or partial file left behind: ${rel(p)}`);
  }

  // (c) the inbox is empty; each dropped file is in exactly one place, the expected one.
  for (const p of inFolder(folders.inbox)) bad(`file left in the inbox: ${rel(p)}`);
  const archived = inFolder(folders.archive);
  const errored = inFolder(folders.error).filter((p) => !/\.errors\.(txt|json|html)$/.test(p));
  const hashes = new Map<string, string[]>();
  for (const p of [...archived, ...errored]) {
    const h = sha256(await readFile(p));
    hashes.set(h, [...(hashes.get(h) ?? []), p]);
  }
  for (const d of input.dropped) {
    const places = hashes.get(d.sha256) ?? [];
    const byDrop = input.dropped.filter((x) => x.sha256 === d.sha256);
    if (byDrop.length > 1) {
      // Byte-identical files (the duplicate): together they must fill exactly one archive and one error place.
      if (byDrop[0] !== d) continue;
      const a = places.filter((p) => archived.includes(p)).length;
      const e = places.filter((p) => errored.includes(p)).length;
      if (a !== 1 || e !== byDrop.length - 1)
        bad(
          `the ${byDrop.length} byte-identical files ${byDrop.map((x) => x.name).join(', ')} are ${a}× in archive and ${e}× in error (expected 1 and ${byDrop.length - 1})`,
        );
      continue;
    }
    if (places.length !== 1) {
      bad(
        `dropped file ${d.name} is in ${places.length} places (${places.map(rel).join(', ') || 'nowhere'}), expected exactly one`,
      );
      continue;
    }
    const where = archived.includes(places[0]!) ? 'archive' : 'error';
    if (where !== d.expect) bad(`dropped file ${d.name} went to ${where}, expected ${d.expect}`);
  }
  for (const p of errored) {
    for (const suffix of ['.errors.txt', '.errors.json']) {
      const report = await readFile(`${p}${suffix}`, 'utf8').catch(() => undefined);
      if (report === undefined || report.trim() === '') bad(`${rel(p)} is in error/ without its ${suffix} report`);
      else if (suffix === '.errors.json') {
        try {
          JSON.parse(report);
        } catch {
          bad(`${rel(p)}${suffix} is not valid JSON`);
        }
      }
    }
  }
  for (const p of inFolder(folders.error).filter((x) => /\.errors\.(txt|json|html)$/.test(x))) {
    if (!errored.includes(p.replace(/\.errors\.(txt|json|html)$/, ''))) bad(`error report without its file: ${rel(p)}`);
  }

  // (b) + (d) statements: each file parses; each booked transaction of a closed day exactly once
  // per format; no two files of an account and format carry one ElctrncSeqNb.
  const statementFiles = inFolder(folders.statements);
  const exported: Record<string, number> = {};
  for (const suffix of input.statementSuffixes) {
    const seen = new Map<string, number>();
    const numbered = new Map<string, string>();
    for (const p of statementFiles.filter((f) => f.endsWith(`.${suffix}`))) {
      const text = await readFile(p, 'utf8');
      let refs: string[];
      try {
        refs = suffix.endsWith('.xml')
          ? xmlLeaves(text, 'AcctSvcrRef', 'Ntry')
          : csvRows(text).map((r) => r.account_servicer_ref ?? '');
        for (const n of suffix.endsWith('.xml') ? xmlLeaves(text, 'ElctrncSeqNb') : []) {
          // <company>-<IBAN>-<day or FROM_TO>.<kind and suffix>: the account and kind without the period.
          const key = `${rel(p).replace(/-\d{4}-\d{2}-\d{2}(_\d{4}-\d{2}-\d{2})?\./, ' ')} ${n}`;
          const other = numbered.get(key);
          if (other !== undefined) bad(`${suffix}: ElctrncSeqNb ${n} is in both ${other} and ${rel(p)}`);
          numbered.set(key, rel(p));
        }
      } catch (error) {
        bad(`statement ${rel(p)} does not parse: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      for (const r of refs) seen.set(r, (seen.get(r) ?? 0) + 1);
    }
    exported[suffix] = [...seen.values()].reduce((a, b) => a + b, 0);
    const expected = new Set(input.booked.map((b) => b.entryReference));
    for (const b of input.booked) {
      const n = seen.get(b.entryReference) ?? 0;
      if (n !== 1)
        bad(
          `${suffix}: transaction ${b.entryReference} (account ${b.accountId}, booked ${b.bookingDate}) is in the exported statements ${n} times`,
        );
    }
    for (const [ref, n] of seen)
      if (!expected.has(ref))
        bad(
          `${suffix}: statement entry ${ref || '(no reference)'} (${n}×) is not a transaction the bank booked for a closed day`,
        );
  }

  // (d) status files for the ERP parse too.
  const statusFiles = inFolder(folders.status);
  for (const p of statusFiles) {
    const text = await readFile(p, 'utf8');
    try {
      if (p.endsWith('.xml')) xmlLeaves(text, 'MsgId');
      else if (p.endsWith('.csv')) csvRows(text);
    } catch (error) {
      bad(`status file ${rel(p)} does not parse: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  // (e) the reconciliation report of the last run exists, both halves, and every report file is
  // complete. A run killed between writing the CSV and the HTML leaves one complete half (each file
  // is written atomically; the next run writes a new pair): counted, not an anomaly.
  const reports = inFolder(folders.reports);
  const csvReports = reports.filter((p) => /\/reconciliation-[^/]+\.csv$/.test(p));
  const htmlReports = reports.filter((p) => /\/reconciliation-[^/]+\.html$/.test(p));
  const bases = [...new Set([...csvReports, ...htmlReports].map((p) => p.replace(/\.(csv|html)$/, '')))].sort();
  const newest = bases.at(-1);
  if (newest === undefined) bad(`no reconciliation report in ${folders.reports}/`);
  else if (!csvReports.includes(`${newest}.csv`) || !htmlReports.includes(`${newest}.html`))
    bad(`the last reconciliation report ${rel(newest)} lacks its CSV or HTML half`);
  const loneHalves = bases.filter((b) => !csvReports.includes(`${b}.csv`) || !htmlReports.includes(`${b}.html`)).length;
  for (const p of csvReports) {
    try {
      csvRows(await readFile(p, 'utf8'));
    } catch (error) {
      bad(`reconciliation report ${rel(p)} does not parse: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  for (const p of htmlReports) {
    const text = await readFile(p, 'utf8');
    if (!/<\/html>\s*$/i.test(text)) bad(`reconciliation report ${rel(p)} is cut short`);
  }

  return {
    filesArchived: archived.length,
    filesInError: errored.length,
    transactionsBooked: input.booked.length,
    transactionsExported: exported,
    statementFiles: statementFiles.length,
    statusFiles: statusFiles.length,
    reconciliationReports: bases.length - loneHalves,
    reconciliationLoneHalves: loneHalves,
    anomalies,
  };
}
