// The languages people read settle in (docs/i18n.md): catalogues of sentences, the choice of a
// language, and money and dates as each language writes them. Error codes, log lines, JSON and
// the structure of the ERP's files stay language-neutral.
export type { Catalogue } from './catalogue.js';
export type { MessageKey, Translation } from './catalogues/en.js';
export * as format from './format.js';
export {
  describePaymentState,
  paymentStateLabel,
  statusText,
  type BankReason,
  type PaymentStateDescription,
} from './payment-state.js';
export { lineAction, reasonAction } from './reason-action.js';
export {
  acceptedLanguages,
  CATALOGUES,
  chooseLocale,
  FALLBACK_LOCALE,
  isLocale,
  LOCALES,
  type Locale,
} from './locales.js';
export { currentLocale, t, translate, translateParts, withLocale, type MessageValues } from './translate.js';
export { recordedSentence, recordedWords, renderRecorded } from './recorded.js';
export { findingSubjectWords } from './finding-subject.js';
export { evidenceText } from './evidence.js';
export { codeCell, codeWords, historyStateKind, wordsKey, wordsWithCode, type WordKind } from './state-words.js';
export { refusalText, refusalWords, type RefusalWords } from './refusal.js';
