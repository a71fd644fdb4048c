// Finance report renderers for reconciliation findings: CSV (stable columns) and a self-contained HTML page.
export {
  FINDINGS_CSV_COLUMNS,
  FINDINGS_CSV_WORDS,
  findingCsvCells,
  findingsCsvForPeople,
  findingsCsvForPeopleChunks,
  findingsCsvChunks,
  renderFindingsCsv,
  type FindingSentences,
  type FindingsCsvOptions,
} from './csv.js';
export { renderFindingsHtml, type FindingsHtmlOptions, type ReportMeta } from './html.js';
export { reportFormats, type ReportFormats } from './report-formats.js';
export { spreadsheetCsv, spreadsheetCsvChunks, type CsvWords } from './spreadsheet.js';
export { textTable } from './text-table.js';
export {
  renderRefusedLinesHtml,
  renderRefusedLinesText,
  refusedLinesBody,
  type RefusedLine,
  type RefusedLinesReport,
} from './refused-lines.js';
export {
  renderSignoffCsv,
  renderSignoffHtml,
  signoffCsvForPeople,
  SIGNOFF_CSV_COLUMNS,
  SIGNOFF_NUMERIC_COLUMNS,
  type SignedPeriod,
} from './signoff.js';
export {
  outcomeLine,
  renderRefusedFileHtml,
  renderRefusedFileText,
  type FileOutcome,
  type HeldEntry,
  type ProfileView,
  type RefusedFileReport,
} from './refused-file.js';
