// A plain-text table for people (terminals, e-mails, notices): a header row and columns as wide
// as their widest cell, numbers right-aligned. Lines have no trailing blanks.
export function textTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned: ReadonlySet<number> = new Set(),
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    header
      .map((_, i) => {
        const cell = cells[i] ?? '';
        return rightAligned.has(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!);
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}
