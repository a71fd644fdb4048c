// All sandbox state in one object, so a reset is "make a new one" and nothing leaks between runs.
import { randomUUID } from 'node:crypto';
import type {
  Account,
  Bank,
  BulkPayment,
  Client,
  Consent,
  PaymentLine,
  Rejection,
  ScaLink,
  SigningBasket,
  Transaction,
} from './model.js';

export interface TokenRecord {
  clientId: string;
  tenant: string;
  expiresAt: number;
  scopes: string[];
}

export class SandboxState {
  readonly clients = new Map<string, Client>();
  readonly banks = new Map<string, Bank>();
  readonly accounts = new Map<string, Account>();
  /**
   * Booked entries per account, in booking order: every read names its account, and a bureau's
   * sandbox holds thousands of accounts (one list of all would make each balance or statement
   * read walk every account's entries).
   */
  private readonly transactionsByAccount = new Map<string, Transaction[]>();
  readonly consents = new Map<string, Consent>();
  readonly bulks = new Map<string, BulkPayment>();
  /** The random part of a bulk's line ids → the bulk (newLineIds): one entry a bulk, not one a line. */
  private readonly lineIdPrefixes = new Map<string, string>();
  readonly baskets = new Map<string, SigningBasket>();
  readonly scaLinks = new Map<string, ScaLink>();
  readonly tokens = new Map<string, TokenRecord>();
  /** Creditor IBAN → the rejection its payments get. */
  readonly rejections = new Map<string, Rejection>();
  private counter = 0;

  /** A short unique sequence for entry references. */
  nextSeq(): number {
    return ++this.counter;
  }

  accountsIn(subscriptionId: string, resourceGroupName: string): Account[] {
    return [...this.accounts.values()].filter(
      (a) => a.subscriptionId === subscriptionId && a.resourceGroupName === resourceGroupName,
    );
  }

  /** The account's booked entries, in the order they were booked. */
  transactionsOf(accountId: string): readonly Transaction[] {
    return this.transactionsByAccount.get(accountId) ?? [];
  }

  addTransaction(tx: Transaction): void {
    const list = this.transactionsByAccount.get(tx.accountId);
    if (list === undefined) this.transactionsByAccount.set(tx.accountId, [tx]);
    else list.push(tx);
  }

  /**
   * Ids for the lines of a new bulk, in the bank's observed form ("p1p" and 32 hex digits, facts
   * §8.3): a random part drawn once for the bulk, then the line's position. One random draw a bulk
   * instead of a line, and a line is found from its id without a map entry per line.
   */
  newLineIds(bulkId: string, count: number): string[] {
    const prefix = randomUUID().replaceAll('-', '').slice(0, LINE_PREFIX_LENGTH);
    this.lineIdPrefixes.set(prefix, bulkId);
    return Array.from({ length: count }, (_, i) => `p1p${prefix}${i.toString(16).padStart(LINE_INDEX_LENGTH, '0')}`);
  }

  /** The bulk and line a line's paymentId names, if it names one. */
  lineById(lineId: string): { bulk: BulkPayment; line: PaymentLine } | undefined {
    const prefix = lineId.slice(3, 3 + LINE_PREFIX_LENGTH);
    const bulk = this.bulks.get(this.lineIdPrefixes.get(prefix) ?? '');
    const line = bulk?.lines[Number.parseInt(lineId.slice(3 + LINE_PREFIX_LENGTH), 16)];
    return bulk !== undefined && line?.paymentId === lineId ? { bulk, line } : undefined;
  }
}

/** A line id's random part (of its 32 hex digits) and its position in the bulk. */
const LINE_PREFIX_LENGTH = 26;
const LINE_INDEX_LENGTH = 6;

/** A bulk's payment id in the bank's observed form, "p1b…" (facts §8.3); its lines' ids: newLineIds. */
export function newBulkPaymentId(): string {
  return 'p1b' + randomUUID().replaceAll('-', '');
}

export function newUuid(): string {
  return randomUUID();
}
