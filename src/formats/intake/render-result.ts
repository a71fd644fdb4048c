// How `settle validate` shows an intake result: JSON for scripts (amounts as decimal strings),
// and a human form that groups issues by CSV row or pain.001 payment (CdtTrfTxInf).
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
    issues: result.issues.map(issueJson),
  };
}

/** One issue as the JSON lists it. */
export function issueJson(i: Issue): IntakeJson['issues'][number] {
  return { code: i.code, severity: i.severity, location: i.location, field: i.field ?? null, message: i.message };
}

/** The heading an issue is listed under: "row 12", the payment's XPath, or "file". */
function groupOf(issue: Issue): { key: string; order: number } {
  const { row, path } = issue.location;
  if (path) {
    const m = /^\/Document\/CstmrCdtTrfInitn\/(?:GrpHdr|PmtInf\[\d+\](?:\/CdtTrfTxInf\[\d+\])?)/.exec(path);
    return { key: m ? m[0] : 'file', order: Number.MAX_SAFE_INTEGER };
  }
  if (row !== undefined) return { key: `row ${row}`, order: row };
  return { key: 'file', order: 0 };
}

/** Where in its group an issue is: "(column 5)", "(Amt/InstdAmt)", or nothing. */
function placeIn(issue: Issue, key: string): string {
  const { path, column } = issue.location;
  const rest = path
    ? path.startsWith(key)
      ? path.slice(key.length).replace(/^\//, '')
      : path
    : column !== undefined
      ? `column ${column}`
      : key === 'file'
        ? formatLocation(issue.location).replace(/^file$/, '')
        : '';
  return rest ? ` (${rest})` : '';
}

function issueLine(i: Issue, key: string): string {
  return `  ${i.severity === 'error' ? 'error  ' : 'warning'} ${i.code}${i.field ? ` ${i.field}` : ''}${placeIn(i, key)}: ${i.message}`;
}

/** "rows 2–5, 9" or "3 places: PmtInf[1]/CdtTrfTxInf[1], …" for the groups an issue repeats in. */
function headingOf(keys: readonly string[]): string {
  if (keys.every((k) => k.startsWith('row '))) {
    const rows = keys.map((k) => Number(k.slice(4)));
    const parts: string[] = [];
    for (let i = 0; i < rows.length;) {
      let j = i;
      while (j + 1 < rows.length && rows[j + 1] === (rows[j] ?? 0) + 1) j++;
      parts.push(j > i ? `${rows[i]}–${rows[j]}` : String(rows[i]));
      i = j + 1;
    }
    const shown = parts.length > 8 ? [...parts.slice(0, 8), '…'] : parts;
    return `rows ${shown.join(', ')}`;
  }
  const shown = keys.slice(0, 3).map((k) => k.replace(/^\/Document\/CstmrCdtTrfInitn\//, ''));
  return `${shown.join(', ')}${keys.length > 3 ? ', …' : ''}`;
}

/** The first line: the verdict, and when every line is valid but the file is not, why. */
function verdictOf(result: IntakeResult): string {
  const counts = `${result.errors} error(s), ${result.warnings} warning(s)`;
  const head = `${result.file}: ${result.valid ? 'valid' : 'INVALID'} — ${result.format}, ${result.payments} payment(s)`;
  if (result.valid || result.payments === 0 || result.validPayments < result.payments)
    return `${head}, ${result.validPayments} valid; ${counts}`;
  const errors = result.issues.filter((i) => i.severity === 'error');
  const controls = errors.every((i) => CONTROL_CODES.has(i.code));
  const why = controls
    ? "the file's control totals (NbOfTxs/CtrlSum) disagree with its payments, so the file is refused as a whole (was a payment lost, added or changed?)"
    : 'the file as a whole has the error(s) below';
  return `${head}, every line valid on its own, but ${why}; ${counts}`;
}

const CONTROL_CODES = new Set(['NBOFTXS_MISMATCH', 'CTRLSUM_MISMATCH', 'CONTROL_VALUE_INVALID']);

export function toHuman(result: IntakeResult): string {
  const lines: string[] = [verdictOf(result)];
  lines.push(`sha256 ${result.sha256}`);
  if (result.totals.length > 0)
    lines.push(`totals ${result.totals.map((m) => `${formatAmount(m)} ${m.currency}`).join(', ')}`);
  // One issue repeated in many rows (the same code, field, place and message) is listed once,
  // under the rows it occurs in, with a count.
  const placed = result.issues.map((issue) => {
    const { key, order } = groupOf(issue);
    const text = issueLine(issue, key);
    return { issue, key, order, text };
  });
  const repeats = new Map<string, string[]>();
  for (const p of placed) {
    const keys = repeats.get(p.text);
    if (keys) keys.push(p.key);
    else repeats.set(p.text, [p.key]);
  }
  const groups = new Map<string, { order: number; seq: number; lines: string[] }>();
  for (const p of placed) {
    const keys = repeats.get(p.text) ?? [p.key];
    const distinct = new Set(keys).size > 1;
    if (distinct && keys[0] !== p.key) continue; // listed with its first occurrence
    const heading = distinct ? `${headingOf(keys)} (${keys.length} times)` : p.key;
    let g = groups.get(heading);
    if (!g) groups.set(heading, (g = { order: p.order, seq: groups.size, lines: [] }));
    if (!distinct || !g.lines.includes(p.text)) g.lines.push(p.text);
  }
  const sorted = [...groups].sort(([, a], [, b]) => a.order - b.order || a.seq - b.seq);
  for (const [heading, group] of sorted) lines.push('', `${heading}:`, ...group.lines);
  return lines.join('\n') + '\n';
}

/**
 * The human form's issues past those a result keeps (toHuman lists those), one at a time in the
 * order found, as `settle validate` lists them after the others: each under the heading of its
 * row or payment, which a run of issues in one place shares. Repeats are not gathered under one
 * heading as toHuman gathers them: that would hold every issue until the end.
 */
export function listingAfter(): (issue: Issue) => string {
  let last: string | undefined;
  return (issue) => {
    const { key } = groupOf(issue);
    const heading = key === last ? '' : `\n${key}:\n`;
    last = key;
    return `${heading}${issueLine(issue, key)}\n`;
  };
}
