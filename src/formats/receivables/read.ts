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
import type { ReceivableField, ReceivablesProfile } from './profile.js';
import { REQUIRED_RECEIVABLE_FIELDS } from './profile.js';

/** A receivable read from the file (its line number included). */
export type ReadReceivable = ReceivableLine;

export interface ReceivableProblem {
  /** 1-based line of the file; 1 is the header. */
  line: number;
  /** The header of the column, when the problem is in one. */
  column?: string;
  message: string;
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
          message: `the file is not readable as CSV with the profile "${profile.name}" (${String(e.message ?? error)}); check the delimiter and quotes`,
        },
      ],
    };
  }
  const [head, ...rows] = records;
  if (!head) return { receivables: [], problems: [{ line: 1, message: 'the file is empty: it has no header line' }] };
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
        {
          line: 1,
          message: `the header lacks the column(s) ${missing.join(', ')} that profile "${profile.name}" expects; export the file with these columns or adjust the profile`,
        },
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
    const problem = (field: ReceivableField, message: string) =>
      problems.push({ line, column: profile.columns[field] ?? field, message });
    const before = problems.length;
    if (record.length !== head.record.length)
      problems.push({
        line,
        message: `the line has ${record.length} fields where the header has ${head.record.length}; a delimiter inside an unquoted value?`,
      });
    const invoice = cell('invoice');
    if (invoice === '') problem('invoice', 'the invoice number is empty; every receivable needs its invoice number');
    else if (invoice.length > 64) problem('invoice', 'the invoice number is longer than 64 characters');
    else if (seen.has(invoice))
      problem('invoice', `invoice ${invoice} is listed twice (also on line ${seen.get(invoice)}); list it once`);
    else seen.set(invoice, line);
    const customer = cell('customer');
    if (customer === '')
      problem('customer', "the customer's name is empty; it is needed to match payments without a reference");
    else if (customer.length > 140) problem('customer', "the customer's name is longer than 140 characters");
    const currency = (cell('currency') || profile.currency || '').toUpperCase();
    let amount: Money | undefined;
    if (currencyExponent(currency) === undefined)
      problem('currency', `"${currency}" is not a currency code such as NOK or EUR`);
    else {
      const parsed = parseAmount(cell('amount'), currency, format);
      if (!parsed.ok) problem('amount', `${parsed.message}`);
      else if (parsed.money.minor <= 0n)
        problem('amount', `the amount ${cell('amount')} is not positive; a receivable is what the customer owes`);
      else amount = parsed.money;
    }
    const dueDate = parseDate(cell('dueDate'), profile.dateFormat);
    if (!dueDate) problem('dueDate', `"${cell('dueDate')}" is not a date written as ${profile.dateFormat}`);
    const text = cell('reference');
    let reference: string | undefined;
    if (text !== '') {
      const ref = parseCreditorReference(text);
      if (!ref)
        problem(
          'reference',
          `"${text}" is neither a KID (digits) nor an RF reference; leave it empty if the invoice has none`,
        );
      else if (!ref.valid)
        problem('reference', `the check digits of ${ref.kind} "${text}" do not hold; correct the reference in the ERP`);
      else reference = ref.value;
    }
    if (problems.length === before && amount && dueDate)
      receivables.push({ invoice, customer, amount, dueDate, line, ...(reference ? { reference } : {}) });
  }
  if (rows.length === 0) problems.push({ line: 1, message: 'the file lists no receivables (only a header)' });
  return { receivables, problems };
}

function decode(bytes: Uint8Array, encoding: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder(encoding).decode(bytes);
}

/** The problems as a text report for the error folder: one line per problem. */
export function receivableProblemsText(fileName: string, problems: readonly ReceivableProblem[]): string {
  const lines = problems.map((p) =>
    p.line > 0 ? `line ${p.line}${p.column ? `, column "${p.column}"` : ''}: ${p.message}` : p.message,
  );
  return `${fileName}: not imported; correct these lines and drop the file again.\n${lines.join('\n')}\n`;
}
