// The account directory of each company as its banks list it (migration 0200): replaced as a
// whole by each read from the bank, so an account the bank no longer lists disappears with it,
// and kept with the time of that read ("read at most once per run", docs/banks.md).
import { normalizeIban } from '../domain/account-id.js';
import type { Clock } from '../domain/clock.js';
import type { Database } from './database.js';
import { chunks, instant, toDate, toOptBool, toOptInt, toOptStr, toStr, type Row } from './rows.js';

export interface BankAccountInput {
  accountId: string;
  bankId?: string | undefined;
  iban?: string | undefined;
  bban?: string | undefined;
  currency?: string | undefined;
  name?: string | undefined;
  /** As the bank spells it; only `enabled` is usable. */
  status?: string | undefined;
  /** From the account's parameters; undefined when they were not read. */
  preApproval?: boolean | undefined;
  numberOfApprovers?: number | undefined;
}

export interface StoredBankAccount extends BankAccountInput {
  company: string;
  readAt: Date;
}

export interface AccountDirectory {
  company: string;
  readAt: Date;
  accounts: StoredBankAccount[];
}

export class BankAccountRepository {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Replaces the company's directory with what its banks listed at `readAt`. */
  async replace(
    company: string,
    accounts: readonly BankAccountInput[],
    readAt: Date = this.clock.now(),
  ): Promise<void> {
    const at = instant(readAt);
    await this.db.transaction(async (trx) => {
      await trx('bank_accounts').where({ company }).delete();
      const rows = accounts.map((a) => ({
        company,
        account_id: a.accountId,
        bank_id: a.bankId ?? null,
        iban: a.iban === undefined ? null : normalizeIban(a.iban),
        bban: a.bban ?? null,
        currency: a.currency ?? null,
        name: a.name?.slice(0, 140) ?? null,
        status: a.status ?? null,
        pre_approval: a.preApproval ?? null,
        number_of_approvers: a.numberOfApprovers ?? null,
        read_at: at,
      }));
      for (const part of chunks(rows, 100)) await trx('bank_accounts').insert(part);
      const updated = await trx('bank_account_reads').where({ company }).update({ read_at: at });
      if (updated === 0) await trx('bank_account_reads').insert({ company, read_at: at });
    });
  }

  /** The company's directory as last read, or undefined when it was never read. */
  async directory(company: string): Promise<AccountDirectory | undefined> {
    const read = await this.db.knex<Row>('bank_account_reads').where({ company }).first('read_at');
    if (read === undefined) return undefined;
    const rows: Row[] = await this.db.knex<Row>('bank_accounts').where({ company }).orderBy('account_id');
    return { company, readAt: toDate(read.read_at), accounts: rows.map(toBankAccount) };
  }
}

function toBankAccount(r: Row): StoredBankAccount {
  const approvers = r.number_of_approvers;
  return {
    company: toStr(r.company),
    accountId: toStr(r.account_id),
    bankId: toOptStr(r.bank_id),
    iban: toOptStr(r.iban),
    bban: toOptStr(r.bban),
    currency: toOptStr(r.currency),
    name: toOptStr(r.name),
    status: toOptStr(r.status),
    preApproval: toOptBool(r.pre_approval),
    numberOfApprovers: toOptInt(approvers),
    readAt: toDate(r.read_at),
  };
}
