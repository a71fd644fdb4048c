// Statement CSV: one row per booked entry, columns documented in docs/formats/statement-csv.md.
// Streams like the camt.053 writer: entries are consumed once, chunks of encoded rows come out.
import type { Issue } from '../../domain/issue.js';
import { formatAmount, type Money } from '../../domain/money.js';
import type { BankTransactionCode, Statement, StatementEntry } from '../../domain/statement.js';
import { creditDebit } from '../../domain/statement.js';
import { CsvEncoder, type CsvColumn, type CsvOutputOptions } from './csv-output.js';

/** The column layout; order and names are a contract with ERP import profiles. */
export const STATEMENT_CSV_COLUMNS: readonly CsvColumn[] = [
  { name: 'statement_id', kind: 'text' },
  { name: 'account_iban', kind: 'text' },
  { name: 'currency', kind: 'text' },
  { name: 'booking_date', kind: 'text' },
  { name: 'value_date', kind: 'text' },
  { name: 'amount', kind: 'number' },
  { name: 'credit_debit', kind: 'text' },
  { name: 'counterparty_name', kind: 'text' },
  { name: 'counterparty_iban', kind: 'text' },
  { name: 'counterparty_bic', kind: 'text' },
  { name: 'end_to_end_id', kind: 'text' },
  { name: 'account_servicer_ref', kind: 'text' },
  { name: 'bank_transaction_code', kind: 'text' },
  { name: 'remittance_information', kind: 'text' },
  { name: 'creditor_reference', kind: 'text' },
  { name: 'additional_info', kind: 'text' },
  // Appended (ERPs read by position): a returned payment's reason code and the bank's words.
  { name: 'return_reason', kind: 'text' },
  { name: 'return_info', kind: 'text' },
  // Appended: the booked balance after the entry, and the statement's opening and closing booked
  // balances (camt.053 OPBD and CLBD), so an ERP can check each row and the day without a camt.053.
  { name: 'balance_after', kind: 'number' },
  { name: 'opening_balance', kind: 'number' },
  { name: 'closing_balance', kind: 'number' },
];

export type StatementCsvOptions = CsvOutputOptions;

export interface StatementCsvOutput {
  chunks: AsyncIterable<Buffer>;
  /** Filled while `chunks` is consumed; complete once it is drained. */
  issues: Issue[];
  readonly entryCount: number;
}

export function writeStatementCsv(statement: Statement, options: StatementCsvOptions = {}): StatementCsvOutput {
  const issues: Issue[] = [];
  const report = options.onIssue ?? ((issue: Issue) => void issues.push(issue));
  const rowsPerChunk = options.rowsPerChunk ?? 1000;
  let entryCount = 0;
  // Built now, so impossible options fail at the call, not at the first read.
  const encoder = new CsvEncoder(STATEMENT_CSV_COLUMNS, options, report);
  async function* generate(): AsyncGenerator<Buffer> {
    // The running balance: the opening booked balance plus each entry, in the order booked.
    let balance = statement.openingBalance.amount.minor;
    for await (const entry of statement.entries) {
      entryCount++;
      balance += entry.amount.minor;
      encoder.add(
        statementRow(statement, entry, {
          decimalSeparator: encoder.decimal,
          balanceAfter: { minor: balance, currency: statement.openingBalance.amount.currency },
        }),
      );
      if (encoder.size >= rowsPerChunk) yield encoder.flush();
    }
    yield encoder.flush();
  }
  return {
    chunks: generate(),
    issues,
    get entryCount() {
      return entryCount;
    },
  };
}

export function statementRow(
  statement: Statement,
  entry: StatementEntry,
  { decimalSeparator, balanceAfter }: { decimalSeparator: '.' | ','; balanceAfter: Money },
): (string | undefined)[] {
  // A payment that came back: the row keeps its original end-to-end id and says why.
  const returned = entry.transactions?.find((t) => t.returnReason !== undefined)?.returnReason;
  return [
    statement.id,
    statement.account.iban.replace(/\s+/g, '').toUpperCase(),
    entry.amount.currency,
    entry.bookingDate,
    entry.valueDate,
    formatAmount(entry.amount, decimalSeparator),
    creditDebit(entry.amount),
    entry.counterparty?.name,
    entry.counterparty?.iban?.replace(/\s+/g, '').toUpperCase(),
    entry.counterparty?.bic?.trim().toUpperCase(),
    entry.endToEndId,
    entry.accountServicerRef,
    formatBankTransactionCode(entry.bankTransactionCode),
    entry.remittance?.unstructured,
    entry.remittance?.creditorReference,
    entry.additionalInfo,
    returned?.code,
    returned?.additionalInfo,
    formatAmount(balanceAfter, decimalSeparator),
    formatAmount(statement.openingBalance.amount, decimalSeparator),
    formatAmount(statement.closingBalance.amount, decimalSeparator),
  ];
}

/** "PMNT-RCDT-ESCT" for an ISO code (as aqbanking shows it), the bank's own code otherwise. */
export function formatBankTransactionCode(code: BankTransactionCode | undefined): string | undefined {
  if (code === undefined) return undefined;
  return 'proprietary' in code ? code.proprietary : `${code.domain}-${code.family}-${code.subFamily}`;
}
