// Payment validation: raw reader lines in, PaymentInstructions and located issues out.
export { compileAmountParser, type AmountParser } from './amount-parser.js';
export {
  charactersOutside,
  charsetRule,
  EPC_CHARACTERS,
  transliterate,
  type CharsetRule,
  type CharsetResult,
} from './charset.js';
export { IssueCode } from './codes.js';
export {
  addDecimal,
  checkControl,
  ControlTotals,
  equalDecimal,
  formatDecimal,
  parseDecimal,
  type ComputedControl,
  type ControlDeclaration,
  type Decimal,
} from './control-totals.js';
export { EndToEndIdSet, type ByteHash, type EndToEndIdSetOptions } from './end-to-end-id-set.js';
export { DEFAULT_MAX_FILE_BYTES, FILE_SIZE_SETTING, fileTooLargeMessage, formatBytes } from './file-size.js';
export {
  compileLineRules,
  validCreditorReference,
  type DebtorAccountProblem,
  type LineFormat,
  type LineResult,
  type LineRuleOptions,
  type LineRules,
  type NonBusinessDayPolicy,
} from './line-rules.js';
export { PaymentValidator, type ValidationOptions } from './payment-validator.js';
export type { ReaderItem } from './reader-item.js';
export {
  emptyFields,
  PAYMENT_FIELDS,
  REQUIRED_FIELDS,
  type PaymentField,
  type RawField,
  type RawFields,
  type RawPaymentLine,
} from './raw-line.js';
