// Statement CSV writer and the CSV output rules shared by every CSV settle writes for an ERP.
export { CsvEncoder, type CellKind, type CsvColumn, type CsvEncoding, type CsvOutputOptions } from './csv-output.js';
export {
  formatBankTransactionCode,
  STATEMENT_CSV_COLUMNS,
  statementRow,
  writeStatementCsv,
  type StatementCsvOptions,
  type StatementCsvOutput,
} from './write.js';
