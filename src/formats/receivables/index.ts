// Files of open receivables from the ERP, read with a receivables profile.
export {
  loadReceivablesProfile,
  parseReceivablesProfile,
  RECEIVABLE_FIELDS,
  receivablesProfileSchema,
  type ReceivableField,
  type ReceivablesProfile,
} from './profile.js';
export {
  readReceivables,
  receivableProblemsText,
  type ReadReceivable,
  type ReadReceivablesResult,
  type ReceivableProblem,
} from './read.js';
