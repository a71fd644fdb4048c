// The findings CSV: one row per finding, columns stable and documented in docs/reconciliation.md
// ("CSV columns"). New columns are only ever added at the end. Cells pass through the shared
// formula-injection rule (../csv-safety.ts); amount columns stay plain numbers.
import { stringify } from 'csv-stringify/sync';
import { formatAmount, type Money } from '../../domain/money.js';
import type { Finding } from '../../domain/reconcile/findings.js';
import type { RecordedText } from '../../domain/recorded-text.js';
import { recordedSentence, type Locale, type MessageKey } from '../../i18n/index.js';
import { neutraliseFormula, neutraliseNumericCell } from '../csv-safety.js';
import { spreadsheetCsv, spreadsheetCsvChunks, type CsvWords } from './spreadsheet.js';

interface Column {
  name: string;
  numeric: boolean;
  value: (finding: Finding, decimal: '.' | ',') => string | undefined;
}

const amountOf = (money: Money | undefined, decimal: '.' | ','): string | undefined =>
  money ? formatAmount(money, decimal) : undefined;

const COLUMNS: readonly Column[] = [
  { name: 'finding_type', numeric: false, value: (f) => f.type },
  { name: 'severity', numeric: false, value: (f) => f.severity },
  { name: 'needs_person', numeric: false, value: (f) => (f.needsPerson ? 'yes' : 'no') },
  { name: 'company', numeric: false, value: (f) => f.company },
  { name: 'account_iban', numeric: false, value: (f) => f.accountIban },
  { name: 'payment_ids', numeric: false, value: (f) => f.paymentIds.join(' ') },
  { name: 'end_to_end_id', numeric: false, value: (f) => f.endToEndId },
  { name: 'bulk_id', numeric: false, value: (f) => f.bulkId },
  { name: 'transaction_id', numeric: false, value: (f) => f.transactionId },
  { name: 'rule', numeric: false, value: (f) => f.rule },
  { name: 'currency', numeric: false, value: (f) => (f.amount ?? f.bookedAmount ?? f.amountDifference)?.currency },
  { name: 'amount', numeric: true, value: (f, d) => amountOf(f.amount, d) },
  { name: 'booked_amount', numeric: true, value: (f, d) => amountOf(f.bookedAmount, d) },
  { name: 'amount_difference', numeric: true, value: (f, d) => amountOf(f.amountDifference, d) },
  { name: 'execution_date', numeric: false, value: (f) => f.executionDate },
  { name: 'booking_date', numeric: false, value: (f) => f.bookingDate },
  { name: 'date_difference_days', numeric: true, value: (f) => f.dateDifferenceDays?.toString() },
  { name: 'counterparty', numeric: false, value: (f) => f.counterparty },
  { name: 'reference', numeric: false, value: (f) => f.reference },
  { name: 'due', numeric: false, value: (f) => f.due },
  { name: 'message', numeric: false, value: (f) => f.message },
  { name: 'finding_id', numeric: false, value: (f) => f.id },
  { name: 'acknowledged_by', numeric: false, value: (f) => f.acknowledged?.by },
  { name: 'acknowledged_at', numeric: false, value: (f) => f.acknowledged?.at.toISOString() },
  { name: 'acknowledged_reason', numeric: false, value: (f) => f.acknowledged?.reason },
  { name: 'decision', numeric: false, value: (f) => f.acknowledged?.kind },
  { name: 'invoice', numeric: false, value: (f) => f.invoice },
  { name: 'creditor_reference', numeric: false, value: (f) => f.creditorReference },
  { name: 'remittance', numeric: false, value: (f) => f.remittance },
  { name: 'match_score', numeric: true, value: (f) => f.score?.toString() },
  { name: 'evidence', numeric: false, value: (f) => f.evidence },
  { name: 'exception', numeric: false, value: (f) => f.exception },
];

/** The column names, in file order. */
export const FINDINGS_CSV_COLUMNS: readonly string[] = COLUMNS.map((c) => c.name);

/** The heads in words and the number columns, for the CSV a person opens (spreadsheet.ts). */
export const FINDINGS_CSV_WORDS: CsvWords = {
  head: (column) => `reportReconciliation.csv.${column}` as MessageKey,
  numeric: new Set(COLUMNS.filter((c) => c.numeric).map((c) => c.name)),
};

/** A finding's English sentence and its recorded text, as the store keeps them (by finding id). */
export type FindingSentences = ReadonlyMap<string, { summary: string; summaryText?: RecordedText }>;

/**
 * The findings CSV as a person opens it in a spreadsheet in `locale` (the machine CSV in English).
 * A finding's sentence is in `locale` when `sentences` has its recorded text and the same English
 * as the CSV's row (a later run may have said something else about it; then the row's English).
 */
export function findingsCsvForPeople(machine: string, locale: Locale, sentences: FindingSentences = new Map()): string {
  return spreadsheetCsv(machine, locale, { ...FINDINGS_CSV_WORDS, text: messageInWords(locale, sentences) });
}

/**
 * findingsCsvForPeople made as the machine CSV is read (a recorded report's parts, as they are
 * sent): the same text, a chunk of rows at a time, each chunk's sentences asked of `sentencesOf`
 * for its rows' finding ids alone. English asks for none.
 */
export function findingsCsvForPeopleChunks(
  machine: AsyncIterable<string>,
  locale: Locale,
  sentencesOf: (findingIds: string[]) => Promise<FindingSentences>,
  rowsPerChunk?: number,
): AsyncGenerator<string> {
  return spreadsheetCsvChunks(machine, locale, FINDINGS_CSV_WORDS, {
    ...(rowsPerChunk === undefined ? {} : { rowsPerChunk }),
    textOf: async (rows, head) => messageInWords(locale, await sentencesOf(findingIdsOf(rows, head))),
  });
}

/** The message column in `locale`, as findingsCsvForPeople says; every other cell as it is. */
function messageInWords(locale: Locale, sentences: FindingSentences): CsvWords['text'] {
  return (column, cell, cellOf) => {
    if (column !== 'message') return cell;
    const stored = sentences.get(cellOf('finding_id'));
    if (stored === undefined || oneLine(stored.summary) !== cell) return cell;
    return oneLine(recordedSentence(locale, stored.summary, stored.summaryText));
  };
}

/** The finding ids of a findings CSV's rows, to look their sentences up. */
function findingIdsOf(rows: readonly string[][], head: readonly string[]): string[] {
  const at = head.indexOf('finding_id');
  return at === -1 ? [] : rows.map((row) => row[at] ?? '').filter((id) => id !== '');
}

/** Line breaks inside text become spaces so one finding is one line. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

export interface FindingsCsvOptions {
  /** Default ",". */
  delimiter?: string;
  /** Default ".". */
  decimalSeparator?: '.' | ',';
  /** Default "\r\n" (RFC 4180; what spreadsheets expect). */
  lineEnding?: '\r\n' | '\n';
}

/** One cell per column; line breaks inside text become spaces so one finding is one line. */
export function findingCsvCells(finding: Finding, decimalSeparator: '.' | ',' = '.'): string[] {
  return COLUMNS.map((column) => {
    const raw = oneLine(column.value(finding, decimalSeparator) ?? '');
    return column.numeric ? neutraliseNumericCell(raw, decimalSeparator) : neutraliseFormula(raw);
  });
}

/**
 * The CSV in chunks of `rowsPerChunk` rows (default 1000), header first: the reconcile job
 * writes a million-row report without holding it in memory twice.
 */
export function* findingsCsvChunks(
  findings: Iterable<Finding>,
  options: FindingsCsvOptions & { rowsPerChunk?: number } = {},
): Generator<string> {
  const delimiter = options.delimiter ?? ',';
  const decimal = options.decimalSeparator ?? '.';
  if (delimiter.length === 0 || /["\r\n]/.test(delimiter) || delimiter === decimal) {
    throw new RangeError(`delimiter ${JSON.stringify(delimiter)} cannot be used with decimal separator "${decimal}"`);
  }
  const format = { delimiter, record_delimiter: options.lineEnding ?? '\r\n', eof: true };
  const size = options.rowsPerChunk ?? 1000;
  let rows: string[][] = [[...FINDINGS_CSV_COLUMNS]];
  for (const finding of findings) {
    rows.push(findingCsvCells(finding, decimal));
    if (rows.length >= size) {
      yield stringify(rows, format);
      rows = [];
    }
  }
  if (rows.length > 0) yield stringify(rows, format);
}

export function renderFindingsCsv(findings: Iterable<Finding>, options: FindingsCsvOptions = {}): string {
  return [...findingsCsvChunks(findings, options)].join('');
}
