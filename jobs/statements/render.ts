// A statement rendered in one of the configured formats, as the exact bytes to write. A day's
// statement is small, so the writers' streams are collected; the SHA-256 goes into the export
// record, so an operator can tell whether a file was changed after it was written.
import { createHash } from 'node:crypto';
import type { CompanyConfig } from '../../src/config/index.js';
import type { Issue } from '../../src/domain/issue.js';
import type { ShortIdentifier } from '../../src/domain/iso-identifier.js';
import type { Notification, NotificationKind } from '../../src/domain/notification.js';
import type { Statement } from '../../src/domain/statement.js';
import { writeCamt053 } from '../../src/formats/camt053/index.js';
import { writeCamt054, type Camt054Version } from '../../src/formats/camt054/index.js';
import { writeStatementCsv } from '../../src/formats/statement-csv/index.js';

export type StatementFormat = CompanyConfig['statements']['formats'][number];

export interface Rendered {
  bytes: Buffer;
  sha256: string;
  entryCount: number;
  issues: Issue[];
  /** Stand-ins written for ids longer than their field, to be stored with the file. */
  shortIdentifiers: ShortIdentifier[];
}

/** The exports table's format key and the file name suffix of each configured format. */
export const FORMAT_FILES: Readonly<Record<StatementOnlyFormat, { exportFormat: string; suffix: string }>> = {
  'camt.053.001.02': { exportFormat: 'camt.053.001.02', suffix: 'camt.053.001.02.xml' },
  'camt.053.001.08': { exportFormat: 'camt.053.001.08', suffix: 'camt.053.001.08.xml' },
  csv: { exportFormat: 'csv-statement', suffix: 'csv' },
};

/** The camt.053/CSV formats, rendered from a Statement. */
export type StatementOnlyFormat = Exclude<StatementFormat, `camt.054.${string}`>;

/**
 * What the export job writes and records separately: a statement format, or one kind of
 * camt.054 notification in one version (each kind has its own files, exports and sequence).
 */
export interface ExportUnit {
  exportFormat: string;
  suffix: string;
  statement?: StatementOnlyFormat;
  notification?: { kind: NotificationKind; version: Camt054Version };
}

/** The units a company's `statements` configuration asks for, in its order. */
export function exportUnits(config: CompanyConfig['statements']): ExportUnit[] {
  return config.formats.flatMap((format): ExportUnit[] => {
    if (format === 'camt.054.001.02' || format === 'camt.054.001.08') {
      const version = format === 'camt.054.001.08' ? '001.08' : '001.02';
      const kinds = (['debit', 'credit'] as const).filter((kind) => config.camt054[kind]);
      return kinds.map((kind) => ({
        exportFormat: `${format}-${kind}`,
        suffix: `${kind}.${format}.xml`,
        notification: { kind, version },
      }));
    }
    return [{ ...FORMAT_FILES[format], statement: format }];
  });
}

/** A notification in camt.054, as the exact bytes to write. */
export function renderNotification(notification: Notification, version: Camt054Version): Rendered {
  const out = writeCamt054(notification, { version });
  const bytes = Buffer.from(out.text, 'utf8');
  return {
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    entryCount: out.entryCount,
    issues: out.issues,
    shortIdentifiers: out.shortIdentifiers,
  };
}

export async function renderStatement(
  statement: Statement,
  format: StatementOnlyFormat,
  csv: CompanyConfig['statements']['csv'],
): Promise<Rendered> {
  const parts: Buffer[] = [];
  let issues: Issue[];
  let entryCount: number;
  let shortIdentifiers: ShortIdentifier[] = [];
  if (format === 'csv') {
    const out = writeStatementCsv(statement, {
      delimiter: csv.delimiter,
      decimalSeparator: csv.decimalSeparator,
      encoding: csv.encoding,
    });
    for await (const chunk of out.chunks) parts.push(chunk);
    issues = out.issues;
    entryCount = out.entryCount;
  } else {
    const out = writeCamt053(statement, { version: format === 'camt.053.001.08' ? '001.08' : '001.02' });
    for await (const chunk of out.chunks) parts.push(Buffer.from(chunk, 'utf8'));
    issues = out.issues;
    entryCount = out.entryCount;
    shortIdentifiers = out.shortIdentifiers;
  }
  const bytes = Buffer.concat(parts);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), entryCount, issues, shortIdentifiers };
}
