// Which of a company's accounts the bank lets settle use: the bank's account status (spec §3.3:
// only `enabled` serves payments and data), written by the account-status events and by each
// fetch of the account list, on the accounts rows the fetch keeps and in the account directory. A status the bank reported
// earlier than the stored one never overwrites it, so a late event changes nothing.
import type { Knex } from 'knex';
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { instant, toOptStr, toStr, type Row } from './rows.js';
import { addTo } from '../domain/group.js';

export interface AccountStatus {
  accountId: string;
  company: string;
  iban: string | undefined;
  /** The bank's status (enabled, disabled, deleted, …); undefined when the bank never said. */
  status: string | undefined;
  statusAt: Date | undefined;
  /** An account without a reported status counts as usable, as the fetch treats it. */
  usable: boolean;
}

export class AccountStatusRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * The bank's status of a known account as of `at`. 'unknown' when no account row exists yet
   * (the next fetch writes it with the status it reads); 'stale' when a later status is stored.
   */
  async record(accountId: string, status: string, at: Date): Promise<'recorded' | 'stale' | 'unknown'> {
    if (await writeAccountStatus(this.db.knex, instant(this.clock.now()), { accountId, status, at })) return 'recorded';
    return (await this.db.knex('accounts').where({ id: accountId }).first('id')) ? 'stale' : 'unknown';
  }

  /** The company owning an account settle has fetched, if any. */
  async companyOf(accountId: string): Promise<string | undefined> {
    const row = await this.db.knex<Row>('accounts').where({ id: accountId }).first('company');
    return row ? toStr(row.company) : undefined;
  }

  /**
   * The companies (all, or the one given) with at least one usable account: one the fetch reads
   * (status enabled, or never reported, as the fetch treats it) or one the account directory
   * lists as enabled. Whether each is onboarded; one distinct query per table.
   */
  async companiesWithUsableAccount(company?: string): Promise<Set<string>> {
    const fetched = this.db
      .knex<Row>('accounts')
      .where((q) => void q.whereNull('account_status').orWhere('account_status', 'enabled'))
      .distinct('company');
    const listed = this.db.knex<Row>('bank_accounts').where('status', 'enabled').distinct('company');
    if (company !== undefined) for (const q of [fetched, listed]) void q.where({ company });
    const rows = [...(await fetched), ...(await listed)] as Row[];
    return new Set(rows.map((r) => toStr(r.company)));
  }

  /** The company's accounts with the bank's status, by id. */
  async list(company: string): Promise<AccountStatus[]> {
    const rows: Row[] = await this.db.knex<Row>('accounts').where({ company }).orderBy('id');
    return rows.map((r) => {
      const status = toOptStr(r.account_status);
      const at = toOptStr(r.account_status_at);
      return {
        accountId: toStr(r.id),
        company: toStr(r.company),
        iban: toOptStr(r.iban),
        status,
        statusAt: at === undefined ? undefined : new Date(at),
        usable: status === undefined || status === 'enabled',
      };
    });
  }
}

/** The bank's status of an account as of `at`; `company`: the company whose fetch read it. */
export interface ReadAccountStatus {
  accountId: string;
  company?: string;
  status: string;
  at: Date;
}

/**
 * Writes the bank's status of an account as of `at` on its accounts row and in the account
 * directory, each unless a later status is stored there; true when either took it. `company`:
 * the company whose fetch read it, whose directory takes it; without it (an event names only the
 * account), every directory that lists the account.
 */
export async function writeAccountStatus(
  q: Knex | Knex.Transaction,
  now: string,
  read: ReadAccountStatus,
): Promise<boolean> {
  return writeAccountStatuses(q, now, [read]);
}

/**
 * `writeAccountStatus` for several accounts: those read with the same status at the same time
 * (a fetch's of a company's accounts) are one write of the accounts rows and one of each
 * directory. True when any took its status.
 */
export async function writeAccountStatuses(
  q: Knex | Knex.Transaction,
  now: string,
  reads: readonly ReadAccountStatus[],
): Promise<boolean> {
  const groups = new Map<string, { company?: string; status: string; when: string; ids: string[] }>();
  for (const { accountId, company, status, at } of reads) {
    const when = instant(at);
    const key = JSON.stringify([company ?? null, normalise(status), when]);
    const group = groups.get(key);
    if (group === undefined)
      groups.set(key, {
        ...(company === undefined ? {} : { company }),
        status: normalise(status),
        when,
        ids: [accountId],
      });
    else group.ids.push(accountId);
  }
  let took = false;
  for (const { company, status, when, ids } of groups.values()) {
    const updated = await q('accounts')
      .whereIn('id', ids)
      .andWhere((w) => void w.whereNull('account_status_at').orWhere('account_status_at', '<=', when))
      .update({ account_status: status, account_status_at: when, updated_at: now });
    // The directory keeps no time of its own for a status, so it takes none older than one its
    // account's row holds (an event that came after the list this status was read from); when
    // every row took it, none holds a newer one.
    const newer =
      updated === ids.length
        ? new Set<string>()
        : new Set(
            (await q<Row>('accounts').whereIn('id', ids).where('account_status_at', '>', when).select('id')).map((r) =>
              toStr(r.id),
            ),
          );
    const listed = await writeDirectoryStatus(q, {
      company,
      status,
      when,
      ids: ids.filter((id) => !newer.has(id)),
    });
    took ||= updated > 0 || listed > 0;
  }
  return took;
}

/**
 * The company's account directory (bank-accounts.ts), which pickup checks debtor accounts
 * against, takes the status too, unless it was read from the bank after the status. Its rows are
 * written by their key (company, account_id): found by the account alone, an UPDATE on MariaDB
 * locks the account index's entries and gaps, in the opposite order to the directory's
 * replacement by company, and holds them to the end of the fetch's transaction. Without a
 * company (an event), the owners are found first by a plain read, which locks nothing (migration
 * 0580's index). How many directory rows took it.
 */
async function writeDirectoryStatus(
  q: Knex | Knex.Transaction,
  { company, status, when, ids }: { company: string | undefined; status: string; when: string; ids: readonly string[] },
): Promise<number> {
  if (ids.length === 0) return 0;
  const owners = new Map<string, string[]>();
  if (company !== undefined) owners.set(company, [...ids]);
  else
    for (const r of await q<Row>('bank_accounts')
      .whereIn('account_id', [...ids])
      .select('company', 'account_id')) {
      const owner = toStr(r.company);
      addTo(owners, owner, toStr(r.account_id));
    }
  let listed = 0;
  for (const [owner, accounts] of owners)
    listed += await q('bank_accounts')
      .where({ company: owner })
      .whereIn('account_id', accounts)
      .andWhere('read_at', '<=', when)
      .update({ status });
  return listed;
}

/** Spec §3.3 spells statuses in lower case; the event example says "Active". */
function normalise(status: string): string {
  const s = status.trim().toLowerCase();
  return s === 'active' ? 'enabled' : s;
}
