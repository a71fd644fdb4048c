// Reads a file of open receivables with its profile. Every bad line is reported with its line,
// the column, what is wrong and what to do, in the accountant's words; a file with any bad line
// is imported not at all (a receivable missing from the list would make its payment look
// unexpected), so the ERP sends it again corrected.
import { parse } from 'csv-parse/sync';
import { parseCreditorReference } from '../../domain/creditor-reference.js';
import { currencyExponent } from '../../domain/currency.js';
import { parseDate } from '../../domain/local-date.js';
import { parseAmount, type Money } from '../../domain/money.js';
import type { ReceivableLine } from '../../domain/reconcile/index.js';
import { FALLBACK_LOCALE, translate, type Locale, type MessageKey, type MessageValues } from '../../i18n/index.js';
import type { ReceivableField, ReceivablesProfile } from './profile.js';
import { REQUIRED_RECEIVABLE_FIELDS } from './profile.js';

/** A receivable read from the file (its line number included). */
export type ReadReceivable = ReceivableLine;

export interface ReceivableProblem {
  /** 1-based line of the file; 1 is the header. */
  line: number;
  /** The header of the column, when the problem is in one. */
  column?: string;
  /** In English, as `--json` and the log give it. */
  message: string;
  /** The same sentence for the catalogue, for a report in the company's or the CLI's language. */
  words?: { key: MessageKey; values: MessageValues };
}

/** A problem's message in English and its sentence for every language. */
function say(key: MessageKey, values: MessageValues = {}): Pick<ReceivableProblem, 'message' | 'words'> {
  return { message: translate('en', key, values), words: { key, values } };
}

export interface ReadReceivablesResult {
  receivables: ReadReceivable[];
  problems: ReceivableProblem[];
}

const MAX_PROBLEMS = 200;

export function readReceivables(bytes: Uint8Array, profile: ReceivablesProfile): ReadReceivablesResult {
  const problems: ReceivableProblem[] = [];
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(decode(bytes, profile.encoding), {
      delimiter: profile.delimiter,
      quote: profile.quote,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
  } catch (error) {
    const e = error as { lines?: number; message?: string };
    return {
      receivables: [],
      problems: [
        {
          line: e.lines ?? 1,
          ...say('receivables.notCsv', { profile: profile.name, detail: String(e.message ?? error) }),
        },
      ],
    };
  }
  const [head, ...rows] = records;
  if (!head) return { receivables: [], problems: [{ line: 1, ...say('receivables.empty') }] };
  const index = new Map(
    head.record.map((name, i) => [
      name
        .replace(/^\uFEFF/, '')
        .trim()
        .toLowerCase(),
      i,
    ]),
  );
  const columnOf = new Map<ReceivableField, number>();
  const missing: string[] = [];
  for (const [field, name] of Object.entries(profile.columns) as [ReceivableField, string | undefined][]) {
    if (name === undefined) continue;
    const i = index.get(name.trim().toLowerCase());
    if (i !== undefined) columnOf.set(field, i);
    else if (REQUIRED_RECEIVABLE_FIELDS.includes(field) || field === 'currency') missing.push(`"${name}"`);
  }
  if (missing.length > 0)
    return {
      receivables: [],
      problems: [
        { line: 1, ...say('receivables.missingColumns', { columns: missing.join(', '), profile: profile.name }) },
      ],
    };

  const receivables: ReadReceivable[] = [];
  const seen = new Map<string, number>();
  const format = { decimalSeparator: profile.decimalSeparator, thousandsSeparator: profile.thousandsSeparator };
  for (const { record, info } of rows) {
    if (problems.length >= MAX_PROBLEMS) break;
    const line = info.lines;
    const cell = (field: ReceivableField): string => {
      const i = columnOf.get(field);
      return i === undefined ? '' : (record[i] ?? '').trim();
    };
    const problem = (field: ReceivableField, key: MessageKey, values?: MessageValues) =>
      problems.push({ line, column: profile.columns[field] ?? field, ...say(key, values) });
    const before = problems.length;
    if (record.length !== head.record.length)
      problems.push({
        line,
        ...say('receivables.fieldCount', { fields: String(record.length), header: String(head.record.length) }),
      });
    const invoice = cell('invoice');
    if (invoice === '') problem('invoice', 'receivables.invoiceEmpty');
    else if (invoice.length > 64) problem('invoice', 'receivables.invoiceLong');
    else if (seen.has(invoice))
      problem('invoice', 'receivables.invoiceTwice', { invoice, line: String(seen.get(invoice)) });
    else seen.set(invoice, line);
    const customer = cell('customer');
    if (customer === '') problem('customer', 'receivables.customerEmpty');
    else if (customer.length > 140) problem('customer', 'receivables.customerLong');
    const currency = (cell('currency') || profile.currency || '').toUpperCase();
    let amount: Money | undefined;
    const exponent = currencyExponent(currency);
    if (exponent === undefined) problem('currency', 'receivables.currency', { currency });
    else {
      const parsed = parseAmount(cell('amount'), currency, format);
      if (!parsed.ok)
        amountProblem(problems, { line, column: profile.columns.amount ?? 'amount' }, parsed, {
          text: cell('amount'),
          currency,
          exponent,
        });
      else if (parsed.money.minor <= 0n) problem('amount', 'receivables.notPositive', { amount: cell('amount') });
      else amount = parsed.money;
    }
    const dueDate = parseDate(cell('dueDate'), profile.dateFormat);
    if (!dueDate) problem('dueDate', 'receivables.dueDate', { text: cell('dueDate'), format: profile.dateFormat });
    const text = cell('reference');
    let reference: string | undefined;
    if (text !== '') {
      const ref = parseCreditorReference(text);
      if (!ref) problem('reference', 'receivables.reference', { text });
      else if (!ref.valid) problem('reference', 'receivables.checkDigits', { kind: ref.kind, text });
      else reference = ref.value;
    }
    if (problems.length === before && amount && dueDate)
      receivables.push({ invoice, customer, amount, dueDate, line, ...(reference ? { reference } : {}) });
  }
  if (rows.length === 0) problems.push({ line: 1, ...say('receivables.none') });
  return { receivables, problems };
}

function decode(bytes: Uint8Array, encoding: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder(encoding).decode(bytes);
}

/**
 * An amount that does not read: its sentence where the catalogue has one. One that seems written
 * in another format keeps the amount parser's English (it describes both formats in English).
 */
function amountProblem(
  problems: ReceivableProblem[],
  at: { line: number; column: string },
  parsed: Extract<ReturnType<typeof parseAmount>, { ok: false }>,
  { text, currency, exponent }: { text: string; currency: string; exponent: number },
): void {
  const decimals = /has (\d+) decimals?;/.exec(parsed.message)?.[1];
  if (parsed.problem === 'precision' && decimals !== undefined)
    problems.push({
      ...at,
      ...say('receivables.amountPrecision', {
        text,
        decimals: Number(decimals),
        currency,
        exponent: String(exponent),
      }),
    });
  else if (parsed.problem === 'syntax' && parsed.message === `"${text}" is not a decimal amount`)
    problems.push({ ...at, ...say('receivables.amountSyntax', { text }) });
  else problems.push({ ...at, message: parsed.message });
}

/** The problems as a text report: one line per problem, in `locale` (English unless told). */
export function receivableProblemsText(
  fileName: string,
  problems: readonly ReceivableProblem[],
  locale: Locale = FALLBACK_LOCALE,
): string {
  const lines = problems.map((p) => {
    const message = p.words ? translate(locale, p.words.key, p.words.values) : p.message;
    if (p.line <= 0) return message;
    return p.column
      ? translate(locale, 'receivables.report.lineColumn', { line: String(p.line), column: p.column, message })
      : translate(locale, 'receivables.report.line', { line: String(p.line), message });
  });
  return `${translate(locale, 'receivables.report.head', { file: fileName })}\n${lines.join('\n')}\n`;
}
