// Payment status CSV writer (feedback to the ERP beside or instead of pain.002).
export {
  formatReason,
  STATUS_CSV_COLUMNS,
  writeStatusCsv,
  type StatusCsvOptions,
  type StatusCsvOutput,
} from './write.js';
