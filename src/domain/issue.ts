// A problem found in input: readers and validators return these, all of them in one pass,
// and never drop a row silently. Locations are "row 12, column 5 (amount)" for CSV and an
// XPath such as "/Document/CstmrCdtTrfInitn/PmtInf[2]/CdtTrfTxInf[7]/Amt/InstdAmt" for XML.
export type Severity = 'error' | 'warning';

export interface IssueLocation {
  /** 1-based line of the file (CSV: the physical row, header = 1). */
  row?: number;
  /** 1-based column (CSV). */
  column?: number;
  /** XPath of the element (XML). */
  path?: string;
}

export interface Issue {
  code: string;
  severity: Severity;
  location: IssueLocation;
  /** The field of our payment model the issue is about, e.g. "creditorIban". */
  field?: string;
  /** The field's value as the file writes it, when the issue is about it (the accountant's report shows it). */
  value?: string;
  message: string;
}

export function formatLocation(location: IssueLocation): string {
  if (location.path) return location.path;
  const parts: string[] = [];
  if (location.row !== undefined) parts.push(`row ${location.row}`);
  if (location.column !== undefined) parts.push(`column ${location.column}`);
  return parts.join(', ') || 'file';
}

export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((i) => i.severity === 'error');
}
