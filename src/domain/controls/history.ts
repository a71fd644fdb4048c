// What a company paid before, as the account rules compare a line with it: per creditor account
// how often and since when, and per creditor (by name) the accounts it was paid to. Built from
// one grouped read of the company's payments per file (src/store/control-history.ts) and from
// the optional known-accounts file, which stands in for payments made before settle.
import { normalizeIban } from '../account-id.js';

export interface AccountUse {
  /** Payments to the account settle knows of (0: only the known-accounts file names it). */
  count: number;
  /** The day of the first of them, "YYYY-MM-DD"; undefined when only the file names it. */
  first?: string | undefined;
}

/** A creditor named the same however an ERP spells case, spaces and punctuation. */
export function creditorKey(name: string): string {
  return name.toUpperCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

export class PayeeHistory {
  private readonly accounts = new Map<string, AccountUse>();
  private readonly creditors = new Map<string, Map<string, AccountUse>>();

  /** Adds `count` payments (from `first` on) to `account`, of the creditor named `name`. */
  add(account: string, name: string | undefined, count: number, first?: string): void {
    const iban = normalizeIban(account);
    merge(this.accounts, iban, count, first);
    const key = name === undefined ? '' : creditorKey(name);
    if (key === '') return;
    let paid = this.creditors.get(key);
    if (!paid) this.creditors.set(key, (paid = new Map<string, AccountUse>()));
    merge(paid, iban, count, first);
  }

  account(iban: string): AccountUse | undefined {
    return this.accounts.get(normalizeIban(iban));
  }

  /** The accounts the creditor named `name` was paid to, by normalised IBAN. */
  accountsOf(name: string): ReadonlyMap<string, AccountUse> | undefined {
    return this.creditors.get(creditorKey(name));
  }

  get size(): number {
    return this.accounts.size;
  }
}

function merge(map: Map<string, AccountUse>, iban: string, count: number, first: string | undefined): void {
  const use = map.get(iban);
  if (!use) {
    map.set(iban, { count, first });
    return;
  }
  use.count += count;
  if (first !== undefined && (use.first === undefined || first < use.first)) use.first = first;
}

export interface KnownAccount {
  account: string;
  name?: string;
}

export type KnownAccountsResult = { ok: true; accounts: KnownAccount[] } | { ok: false; problems: string[] };

/**
 * The known-creditor-accounts file: one account a line, optionally a comma and the creditor's
 * name ("NO9386011117947,Oslo Trykkeri AS"); blank lines and lines starting with # are skipped.
 * Problems are located by line, so a person can fix the file.
 */
export function parseKnownAccounts(text: string, file: string): KnownAccountsResult {
  const accounts: KnownAccount[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const comma = line.indexOf(',');
    const account = normalizeIban(comma < 0 ? line : line.slice(0, comma));
    const name = comma < 0 ? '' : line.slice(comma + 1).trim();
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(account))
      problems.push(`${file} line ${i + 1}: "${line.slice(0, 40)}" does not start with an IBAN`);
    else accounts.push(name === '' ? { account } : { account, name });
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, accounts };
}
