// What a company paid before, as the account rules compare a line with it: per creditor account
// how often and since when, and per creditor the accounts it was paid to, by each key a creditor
// is known by (organisation number, ERP creditor id, name). Built from
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

/** The keys a creditor is known by, most certain first: the changed-account rule tries them in this order. */
export type CreditorKeyKind = 'orgId' | 'creditorId' | 'name';
export const CREDITOR_KEY_KINDS: readonly CreditorKeyKind[] = ['orgId', 'creditorId', 'name'];

/** A creditor as a line or a payment names it: its name, and the ids the ERP gave, if any. */
export interface CreditorKeys {
  name?: string | undefined;
  orgId?: string | undefined;
  creditorId?: string | undefined;
}

/**
 * The key of kind `kind` of a creditor, or '' when it has none: a name compared without case,
 * spaces or punctuation; the ids as written (trimmed), since the ERP writes them.
 */
export function keyOf(kind: CreditorKeyKind, c: CreditorKeys): string {
  if (kind === 'name') return c.name === undefined ? '' : creditorKey(c.name);
  return (kind === 'orgId' ? c.orgId : c.creditorId)?.trim() ?? '';
}

export class PayeeHistory {
  private readonly accounts = new Map<string, AccountUse>();
  private readonly creditors: Record<CreditorKeyKind, Map<string, Map<string, AccountUse>>> = {
    orgId: new Map(),
    creditorId: new Map(),
    name: new Map(),
  };

  /**
   * Adds `count` payments (from `first` on) to `account`, of the creditor `creditor` (a name, or
   * the name and ids a payment carried).
   */
  add(account: string, creditor: string | CreditorKeys | undefined, count: number, first?: string): void {
    const iban = normalizeIban(account);
    merge(this.accounts, iban, count, first);
    const keys = typeof creditor === 'string' ? { name: creditor } : (creditor ?? {});
    for (const kind of CREDITOR_KEY_KINDS) {
      const key = keyOf(kind, keys);
      if (key === '') continue;
      const byKey = this.creditors[kind];
      let paid = byKey.get(key);
      if (!paid) byKey.set(key, (paid = new Map<string, AccountUse>()));
      merge(paid, iban, count, first);
    }
  }

  account(iban: string): AccountUse | undefined {
    return this.accounts.get(normalizeIban(iban));
  }

  /** The accounts the creditor with key `key` of kind `kind` was paid to, by normalised IBAN. */
  accountsBy(kind: CreditorKeyKind, key: string): ReadonlyMap<string, AccountUse> | undefined {
    return this.creditors[kind].get(key);
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
  /** The creditor's organisation number (`org:` in the file). */
  orgId?: string;
  /** The ERP's id of the creditor (`id:` in the file). */
  creditorId?: string;
}

/** The tags of the known-accounts file's creditor ids, and the field each fills. */
const KNOWN_TAGS: Readonly<Record<string, 'orgId' | 'creditorId'>> = { 'org:': 'orgId', 'id:': 'creditorId' };
/** As long as a line's own ids may be (payments.creditor_org_id, payments.creditor_id). */
const MAX_KNOWN_ID = 35;

export type KnownAccountsResult = { ok: true; accounts: KnownAccount[] } | { ok: false; problems: string[] };

/**
 * The known-creditor-accounts file: one account a line, then optionally, after commas, the
 * creditor's name and its ids, each id tagged: `org:` its organisation number, `id:` the ERP's
 * creditor id ("NO9386011117947,Oslo Trykkeri AS,org:999888777,id:K-1001"), so the
 * changed-account rule knows the creditor by the same keys as a payment's. A field without a tag
 * is (part of) the name, which may hold commas. Blank lines and lines starting with # are
 * skipped. Problems are located by line, so a person can fix the file.
 */
export function parseKnownAccounts(text: string, file: string): KnownAccountsResult {
  const accounts: KnownAccount[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const [first = '', ...fields] = line.split(',');
    const account = normalizeIban(first);
    const where = `${file} line ${i + 1}`;
    if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(account)) {
      problems.push(`${where}: "${line.slice(0, 40)}" does not start with an IBAN`);
      return;
    }
    const known: KnownAccount = { account };
    const name: string[] = [];
    for (const field of fields) {
      const tag = Object.keys(KNOWN_TAGS).find((t) => field.trim().toLowerCase().startsWith(t));
      if (tag === undefined) {
        name.push(field);
        continue;
      }
      const value = field.trim().slice(tag.length).trim();
      if (value === '' || value.length > MAX_KNOWN_ID)
        problems.push(
          `${where}: "${field.trim().slice(0, 40)}" needs an id of 1 to ${MAX_KNOWN_ID} characters after ${tag}`,
        );
      else known[KNOWN_TAGS[tag]!] = value;
    }
    const joined = name.join(',').trim();
    if (joined !== '') known.name = joined;
    accounts.push(known);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, accounts };
}
