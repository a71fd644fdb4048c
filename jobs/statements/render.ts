// A statement rendered in one of the configured formats, as the exact bytes to write. A day's
// statement is small, so the writers' streams are collected; the SHA-256 goes into the export
// record, so an operator can tell whether a file was changed after it was written.
import { createHash } from 'node:crypto';
import type { CompanyConfig } from '../../src/config/index.js';
import type { Issue } from '../../src/domain/issue.js';
import type { Statement } from '../../src/domain/statement.js';
import { writeCamt053 } from '../../src/formats/camt053/index.js';
import { writeStatementCsv } from '../../src/formats/statement-csv/index.js';

export type StatementFormat = CompanyConfig['statements']['formats'][number];

export interface Rendered {
  bytes: Buffer;
  sha256: string;
  entryCount: number;
  issues: Issue[];
}

/** The exports table's format key and the file name suffix of each configured format. */
export const FORMAT_FILES: Readonly<Record<StatementFormat, { exportFormat: string; suffix: string }>> = {
  'camt.053.001.02': { exportFormat: 'camt.053.001.02', suffix: 'camt.053.001.02.xml' },
  'camt.053.001.08': { exportFormat: 'camt.053.001.08', suffix: 'camt.053.001.08.xml' },
  csv: { exportFormat: 'csv-statement', suffix: 'csv' },
};

export async function renderStatement(
  statement: Statement,
  format: StatementFormat,
  csv: CompanyConfig['statements']['csv'],
): Promise<Rendered> {
  const parts: Buffer[] = [];
  let issues: Issue[];
  let entryCount: number;
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
  }
  const bytes = Buffer.concat(parts);
  return { bytes, sha256: createHash('sha256').update(bytes).digest('hex'), entryCount, issues };
}
