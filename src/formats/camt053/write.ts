// camt.053 writer: a statement in, an async stream of UTF-8 text chunks out. Entries are
// consumed once, as they come, and nothing is kept per entry, so memory does not grow with the
// entry count. Writing the chunks to a file atomically is the export job's business.
import type { Issue } from '../../domain/issue.js';
import type { ShortIdentifier } from '../../domain/iso-identifier.js';
import { formatAmount } from '../../domain/money.js';
import {
  summarizeEntries,
  type Statement,
  type StatementEntry,
  type TransactionsSummary,
} from '../../domain/statement.js';
import { XmlChunkWriter } from '../xml/chunk-writer.js';
import { distinctPairs, type StandIn } from '../xml/identifier.js';
import { issueCollector, type IssueListener } from '../xml/issues.js';
import { composeHead, composeTail, type ComposeContext } from './compose.js';
import { renderEntry } from './render-entry.js';
import { CAMT053_DIALECTS, type Camt053Version } from './versions.js';

export interface Camt053Options {
  /** Default '001.02'. */
  version?: Camt053Version;
  /** Chunk size in UTF-16 units (default 64 KiB). */
  chunkSize?: number;
  /** Receives each issue as it arises instead of collecting them in `issues`. */
  onIssue?: IssueListener;
}

export interface Camt053Output {
  /** The document, in order; iterate it once. */
  chunks: AsyncIterable<string>;
  /** Filled while `chunks` is consumed; complete once it is drained. Empty when onIssue is given. */
  issues: Issue[];
  /** Entries written so far (complete once `chunks` is drained). */
  readonly entryCount: number;
  /** Stand-ins written for ids longer than their field, for the caller to store (complete once drained). */
  readonly shortIdentifiers: ShortIdentifier[];
}

export function writeCamt053(statement: Statement, options: Camt053Options = {}): Camt053Output {
  const { issues, report } = issueCollector(options.onIssue);
  const standIns: StandIn[] = [];
  const ctx: ComposeContext = {
    dialect: CAMT053_DIALECTS[options.version ?? '001.02'],
    report,
    entryIndex: 0,
    standIns,
  };
  let entryCount = 0;
  async function* generate(): AsyncGenerator<string> {
    const writer = new XmlChunkWriter({ chunkSize: options.chunkSize });
    const currency = statement.account.currency;
    // The entries in another currency than the account's, summed apart: the balance check's sum
    // is the written credits less debits less these, one addition an entry fewer (a BigInt each).
    let foreign = 0n;
    const written = summarizeEntries([]);
    composeHead(writer, statement, ctx);
    const add = (entry: StatementEntry): void => {
      entryCount++;
      // Counted as summarizeEntries counts, without a list and a summary per entry.
      const minor = entry.amount.minor;
      written.count++;
      if (minor < 0n) {
        written.debitCount++;
        written.debitSum -= minor;
      } else {
        written.creditCount++;
        written.creditSum += minor;
      }
      ctx.entryIndex = entryCount;
      writer.raw(renderEntry(entry, ctx));
      if (entry.amount.currency !== currency) {
        report({
          code: 'CURRENCY_MISMATCH',
          severity: 'error',
          location: { path: `/Document/BkToCstmrStmt/Stmt/Ntry[${entryCount}]/Amt` },
          field: 'amount',
          message: `entry in ${entry.amount.currency} on a ${currency} account`,
        });
        foreign += minor;
      }
    };
    const source = statement.entries;
    // A synchronous source is iterated synchronously: an await per entry would cost more than
    // writing the entry does.
    if (Symbol.asyncIterator in source) {
      for await (const entry of source) {
        add(entry);
        if (writer.ready) yield writer.take();
      }
    } else {
      for (const entry of source) {
        add(entry);
        if (writer.ready) yield writer.take();
      }
    }
    composeTail(writer);
    yield writer.finish();
    checkBalances(statement, written.creditSum - written.debitSum - foreign, report);
    checkSummary(statement, written, report);
  }
  return {
    chunks: generate(),
    issues,
    get entryCount() {
      return entryCount;
    },
    get shortIdentifiers() {
      return distinctPairs(standIns);
    },
  };
}

/** TxsSummry is written before the entries; it must describe the entries that followed. */
function checkSummary(statement: Statement, written: TransactionsSummary, report: IssueListener): void {
  const given = statement.summary;
  if (given === undefined) return;
  const differs = (Object.keys(written) as (keyof TransactionsSummary)[]).filter((k) => given[k] !== written[k]);
  if (differs.length === 0) return;
  report({
    code: 'SUMMARY_MISMATCH',
    severity: 'error',
    location: { path: '/Document/BkToCstmrStmt/Stmt/TxsSummry' },
    field: 'summary',
    message: `TxsSummry does not describe the entries written (${differs.map((k) => `${k} ${String(given[k])} ≠ ${String(written[k])}`).join(', ')})`,
  });
}

/** Opening balance plus the entries must give the closing balance; reported after the fact. */
function checkBalances(statement: Statement, sum: bigint, report: IssueListener): void {
  const { openingBalance: opening, closingBalance: closing } = statement;
  if (opening.amount.currency !== closing.amount.currency) {
    report({
      code: 'CURRENCY_MISMATCH',
      severity: 'error',
      location: { path: '/Document/BkToCstmrStmt/Stmt/Bal' },
      field: 'closingBalance',
      message: 'opening and closing balances are in different currencies',
    });
    return;
  }
  const expected = opening.amount.minor + sum;
  if (expected !== closing.amount.minor) {
    const show = (minor: bigint): string => formatAmount({ minor, currency: closing.amount.currency });
    report({
      code: 'BALANCE_MISMATCH',
      severity: 'error',
      location: { path: '/Document/BkToCstmrStmt/Stmt/Bal' },
      field: 'closingBalance',
      message: `opening balance ${show(opening.amount.minor)} plus entries ${show(sum)} is ${show(expected)}, but the closing balance is ${show(closing.amount.minor)}`,
    });
  }
}
