// Shared by the CSV splitter tests (quote-free-lines, quoted-lines): a file cut into chunks of
// bytes or of text anywhere, and what the reader makes of them in a comparable form.
import { readCsv, type CsvReadOptions } from '../../../src/formats/csv-profile/read-csv.js';
import type { CsvProfile } from '../../../src/formats/csv-profile/profile.js';

export const HEADER =
  'debtor_iban,debtor_name,requested_execution_date,end_to_end_id,amount,currency,creditor_iban,creditor_name';

/**
 * What a reader gave, comparable: each line's number and values (and own issues), each issue's
 * code; `whole`: each value's location and each issue whole (row and message too).
 */
export async function read(
  chunks: readonly (string | Buffer)[],
  profile: CsvProfile,
  options: CsvReadOptions,
  whole = false,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const batch of readCsv(chunks, profile, options))
    for (const item of batch) {
      if (item.kind === 'line')
        out.push({
          line: item.line.lineNumber,
          values: Object.entries(item.line.fields)
            .filter(([, f]) => f !== undefined)
            .map(([k, f]) => `${k}=${f.value}${whole ? `@${f.location.row}:${f.location.column}` : ''}`),
          issues: (item.line.issues ?? []).map((i) => `${i.code}@${i.location.row}${whole ? `: ${i.message}` : ''}`),
        });
      else if (item.kind === 'issue') out.push({ issue: whole ? item.issue : item.issue.code });
    }
  return out;
}

/** `bytes` cut at the given positions (any byte: inside a character, between CR and LF). */
export function cut(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    if (c > from) out.push(bytes.subarray(from, c));
    from = c;
  }
  return out;
}

/** `text` cut at the given positions counted in characters (a file decoded from another encoding). */
export function cutText(text: string, cuts: readonly number[]): string[] {
  const chars = [...text];
  const at = [...new Set(cuts.map((c) => c % (chars.length + 1))), chars.length].sort((a, b) => a - b);
  return at.map((c, i) => chars.slice(i === 0 ? 0 : at[i - 1], c).join(''));
}
