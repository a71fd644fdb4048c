// All sandbox state in one object, so a reset is "make a new one" and nothing leaks between runs.
import { randomUUID } from 'node:crypto';
import type {
  Account,
  Bank,
  BulkPayment,
  Client,
  Consent,
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
  /** Line paymentId → bulk paymentId. */
  readonly lineToBulk = new Map<string, string>();
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
}

/** Payment ids in the bank's observed form: "p1b…" for bulks, "p1p…" for lines (facts §8.3). */
export function newPaymentId(kind: 'bulk' | 'line'): string {
  // randomUUID draws from a cached entropy pool; randomBytes per line was a system call per line
  // (about 13 ms of every 1,000-line bulk).
  return (kind === 'bulk' ? 'p1b' : 'p1p') + randomUUID().replaceAll('-', '');
}

export function newUuid(): string {
  return randomUUID();
}
