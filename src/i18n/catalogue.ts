// What a language brings: its tag, its name in itself, how it writes a date, how a spreadsheet in
// that language expects a CSV, and every sentence a person reads (ICU MessageFormat). English is
// the reference: its keys are the message keys, and every other catalogue has exactly those keys
// (MessageKey and Translation in catalogues/en.ts; test/i18n/catalogue.test.ts checks the
// placeholders inside each sentence).
export interface Catalogue {
  /** BCP 47 language tag, e.g. "nb". */
  tag: string;
  name: string;
  /** The locale numbers and dates are written in ("en-GB": day before month, 24-hour clock). */
  formatLocale: string;
  dateFormat: Intl.DateTimeFormatOptions;
  /**
   * How an amount names its currency: as the language writes it ("1 975,20 kr"), or its ISO code
   * after the number ("1,975.20 NOK"), as Nordic banks write statements in English.
   */
  currencyStyle: 'language' | 'code-after';
  /** A CSV a person opens in a spreadsheet (not the ERP's machine CSV, which keeps its format). */
  spreadsheetCsv: { delimiter: ',' | ';' | '\t'; decimalMark: '.' | ','; bom: boolean };
  messages: Readonly<Record<string, string>>;
}
