// Status CSV for the ERP: one row per payment of a status report (file, line, endToEndId,
// status, reason, bank paymentId, time, the PmtInfId the pain.002 names, then whether and how the
// bank booked it back, amount, currency and the ERP's instruction id), with the same encoding and formula-injection rules as
// the statement CSV. Layout: docs/formats/pain002.md "Status CSV".
import type { Issue } from '../../domain/issue.js';
import { formatAmount } from '../../domain/money.js';
import type { PaymentStatusLine, PaymentStatusReport } from '../../domain/payment-status.js';
import { CsvEncoder, type CsvColumn, type CsvOutputOptions } from '../statement-csv/csv-output.js';

export const STATUS_CSV_COLUMNS: readonly CsvColumn[] = [
  { name: 'file', kind: 'text' },
  { name: 'line', kind: 'number' },
  { name: 'end_to_end_id', kind: 'text' },
  { name: 'status', kind: 'text' },
  { name: 'reason', kind: 'text' },
  { name: 'bank_payment_id', kind: 'text' },
  { name: 'time', kind: 'text' },
  { name: 'payment_information_id', kind: 'text' },
  // Appended, never reordered: ERPs read these files by position.
  { name: 'returned_on', kind: 'text' },
  { name: 'return_bank_transaction_code', kind: 'text' },
  { name: 'amount', kind: 'number' },
  { name: 'currency', kind: 'text' },
  { name: 'instruction_id', kind: 'text' },
];

export type StatusCsvOptions = Omit<CsvOutputOptions, 'rowsPerChunk' | 'decimalSeparator'>;

export interface StatusCsvOutput {
  bytes: Buffer;
  issues: Issue[];
}

/** Status reports are one file's lines, small enough to render in one piece. */
export function writeStatusCsv(report: PaymentStatusReport, options: StatusCsvOptions = {}): StatusCsvOutput {
  const issues: Issue[] = [];
  const encoder = new CsvEncoder(STATUS_CSV_COLUMNS, options, options.onIssue ?? ((issue) => void issues.push(issue)));
  const file = report.originalFileName ?? report.originalMessageId;
  for (const group of report.groups) {
    for (const line of group.lines) {
      encoder.add([
        file,
        String(line.lineNumber),
        line.endToEndId,
        line.status,
        formatReason(line),
        line.bankPaymentId,
        line.time.toISOString(),
        group.originalPaymentInformationId,
        line.returned?.bookingDate,
        line.returned?.bankTransactionCode,
        // The instructed amount, "." as decimal separator and the currency's decimals, as in the pain.002.
        line.amount === undefined ? undefined : formatAmount(line.amount),
        line.amount?.currency,
        line.originalInstructionId,
      ]);
    }
  }
  return { bytes: encoder.flush(), issues };
}

/** "AC01,AM04: text" — the codes, then the text, either may be absent. */
export function formatReason(line: PaymentStatusLine): string | undefined {
  const codes = (line.reasonCodes ?? []).join(',');
  const text = line.reasonText?.trim() ?? '';
  if (codes === '' && text === '') return undefined;
  return codes === '' ? text : text === '' ? codes : `${codes}: ${text}`;
}
