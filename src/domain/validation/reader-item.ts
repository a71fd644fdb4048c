// What a streaming reader yields, in file order: payments, reader-level issues (a broken
// row, a forbidden DTD) and control declarations (pain.001 NbOfTxs/CtrlSum, after their block).
// Readers yield them in batches (one array per input chunk): an async step per item would cost
// more than parsing the item.
import type { Issue } from '../issue.js';
import type { ControlDeclaration } from './control-totals.js';
import type { RawPaymentLine } from './raw-line.js';

export type ReaderItem =
  | { kind: 'line'; line: RawPaymentLine }
  | { kind: 'issue'; issue: Issue }
  | { kind: 'control'; declaration: ControlDeclaration };
