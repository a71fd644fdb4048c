// Lists printed by the reporting commands: a header row, then one row per item (docs/cli-json.md
// has the same data as JSON for scripts).
import { textTable } from '../formats/report/index.js';

export function printTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  rightAligned?: ReadonlySet<number>,
): void {
  process.stdout.write(textTable(header, rows, rightAligned).join('\n') + '\n');
}
