// Where a line of a payment file is, found again after the file was read: the held lines are
// known only once the whole file is in the ledger, and keeping a location for every line would
// make memory grow with the file. A CSV line is its row; a pain.001 transaction is found from
// the start of its payment block (one entry per PmtInf, not per line), since a block's
// transactions are numbered one after the other.
import type { IssueLocation } from '../../domain/issue.js';

/** A pain.001 payment block: its XPath and the file-wide number of its first transaction. */
export interface BlockStart {
  path: string;
  firstLine: number;
}

export class LinePlaces {
  private readonly blocks: BlockStart[] = [];

  /** Called by intake with every line's block as it comes (file order); a new block is kept once. */
  noteBlock(path: string, lineNumber: number): void {
    const last = this.blocks[this.blocks.length - 1];
    if (last?.path !== path) this.blocks.push({ path, firstLine: lineNumber });
  }

  /**
   * The location of line `lineNumber` in a file of `format`: { row } for CSV, the XPath of the
   * transaction (`/Document/CstmrCdtTrfInitn/PmtInf[2]/CdtTrfTxInf[3]`) for pain.001, {} when unknown.
   */
  locate(format: string, lineNumber: number): IssueLocation {
    if (format.startsWith('csv')) return { row: lineNumber };
    // The last block that starts at or before the line (binary search: blocks are in file order).
    let low = 0;
    let high = this.blocks.length - 1;
    let found: BlockStart | undefined;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const block = this.blocks[mid]!;
      if (block.firstLine <= lineNumber) {
        found = block;
        low = mid + 1;
      } else high = mid - 1;
    }
    if (!found || found.path === '') return {};
    return { path: `${found.path}/CdtTrfTxInf[${lineNumber - found.firstLine + 1}]` };
  }
}
