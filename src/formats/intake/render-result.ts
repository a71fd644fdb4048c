// How `settle validate` shows an intake result: JSON for scripts (amounts as decimal strings),
// and a human form that groups issues by CSV row or pain.001 transaction.
import { formatLocation, type Issue } from '../../domain/issue.js';
import { formatAmount } from '../../domain/money.js';
import type { IntakeResult } from './validate-file.js';

export interface IntakeJson {
  file: string;
  format: string;
  sha256: string;
  payments: number;
  totals: { currency: string; amount: string }[];
  issues: { code: string; severity: string; location: Issue['location']; field: string | null; message: string }[];
}

export function toJson(result: IntakeResult): IntakeJson {
  return {
    file: result.file,
    format: result.format,
    sha256: result.sha256,
    payments: result.payments,
    totals: result.totals.map((m) => ({ currency: m.currency, amount: formatAmount(m) })),
    issues: result.issues.map((i) => ({
      code: i.code,
      severity: i.severity,
      location: i.location,
      field: i.field ?? null,
      message: i.message,
    })),
  };
}

/** The heading an issue is listed under: "row 12", the transaction's XPath, or "file". */
function groupOf(issue: Issue): { key: string; order: number } {
  const { row, path } = issue.location;
  if (path) {
    const m = /^\/Document\/CstmrCdtTrfInitn\/(?:GrpHdr|PmtInf\[\d+\](?:\/CdtTrfTxInf\[\d+\])?)/.exec(path);
    return { key: m ? m[0] : 'file', order: Number.MAX_SAFE_INTEGER };
  }
  if (row !== undefined) return { key: `row ${row}`, order: row };
  return { key: 'file', order: 0 };
}

export function toHuman(result: IntakeResult): string {
  const lines: string[] = [];
  const verdict = result.valid ? 'valid' : 'INVALID';
  lines.push(
    `${result.file}: ${verdict} — ${result.format}, ${result.payments} payment(s), ${result.validPayments} valid; ${result.errors} error(s), ${result.warnings} warning(s)`,
  );
  lines.push(`sha256 ${result.sha256}`);
  if (result.totals.length > 0)
    lines.push(`totals ${result.totals.map((m) => `${formatAmount(m)} ${m.currency}`).join(', ')}`);
  const groups = new Map<string, { order: number; seq: number; issues: Issue[] }>();
  for (const issue of result.issues) {
    const { key, order } = groupOf(issue);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { order, seq: groups.size, issues: [] }));
    g.issues.push(issue);
  }
  const sorted = [...groups].sort(([, a], [, b]) => a.order - b.order || a.seq - b.seq);
  for (const [key, group] of sorted) {
    lines.push('', `${key}:`);
    for (const i of group.issues) {
      const { path, column } = i.location;
      const rest = path
        ? path.startsWith(key)
          ? path.slice(key.length).replace(/^\//, '')
          : path
        : column !== undefined
          ? `column ${column}`
          : key === 'file'
            ? formatLocation(i.location).replace(/^file$/, '')
            : '';
      const detail = rest ? ` (${rest})` : '';
      lines.push(
        `  ${i.severity === 'error' ? 'error  ' : 'warning'} ${i.code}${i.field ? ` ${i.field}` : ''}${detail}: ${i.message}`,
      );
    }
  }
  return lines.join('\n') + '\n';
}
