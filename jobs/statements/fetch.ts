// The fetch job: for every account of every company (data access by Subscription-Id +
// Resource-Group-Name), the balances and the booked and pending transactions since the
// account's watermark minus the overlap window, every page; stored idempotently (unique per
// account + transaction id), pending entries the bank has since booked resolved, and the
// continuity of each complete day checked and stored. An account that is not `enabled` is
// reported, not fatal; one account failing does not stop the others. See docs/statements.md.
import type { Account, BankClient, DataContext } from '../../src/bank/index.js';
import { soleBankId, type CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import { isSettleError, type ErrorCode } from '../../src/domain/errors.js';
import { addDays, dateInZone, today, type LocalDate } from '../../src/domain/local-date.js';
import type { Logger } from '../../src/log/index.js';
import type {
  AccountStatusRepository,
  StatementDay,
  StatementDayRepository,
  UnitClaims,
  BalanceInput,
  BankTransactionInput,
  FetchedAccount,
  FetchStart,
  StatementRepository,
  StoredFetch,
} from '../../src/store/index.js';
import { toBalanceInput, toTransactionInput } from './bank-mapping.js';
import { underAccountClaim, withAccountClaims } from './account-units.js';
import { checkAccountsDays, type AccountDays } from './check-days.js';

export interface FetchStatementsDeps {
  bank: BankClient;
  statements: StatementRepository;
  days: StatementDayRepository;
  clock: Clock;
  logger: Logger;
  /** The time zone booking days are counted in (config.timeZone). */
  timeZone: string;
  /** How far back the first fetch of an account reaches, in days (default 31). */
  initialDays?: number;
  /** Claims per account (job `fetch`), so processes running at once share the accounts; accounts another process has claimed are skipped. */
  units?: UnitClaims;
  /** Where the bank's status of each account read is kept (which accounts are usable). */
  accountStatus?: Pick<AccountStatusRepository, 'record'>;
  /**
   * How many transactions read from the bank are kept before they are written (default 5,000):
   * the accounts read so far are written together once they hold this many, so a company of a
   * few accounts is written once, and one of hundreds with a month of history in a few goes.
   */
  writeAfterTransactions?: number;
}

export interface FetchScope {
  /** Only these account ids (a transaction event's account); absent: every account. */
  accounts?: ReadonlySet<string>;
}

/**
 * `not-yet-enabled`: an account settle never fetched that the bank has not enabled yet (its
 * onboarding waits for the bank, docs/runbook.md); `not-enabled`: one that was fetched before
 * and is no longer enabled — that needs a person.
 */
export type AccountFetchOutcome = 'fetched' | 'not-enabled' | 'not-yet-enabled' | 'failed';

export interface AccountFetch {
  company: string;
  /** Empty when the company's account list itself could not be read. */
  accountId: string;
  iban?: string;
  /** The bank that holds the account (the company's only bank when the list names none). */
  bankId?: string;
  outcome: AccountFetchOutcome;
  /** The account status as the bank reported it (for not-enabled accounts). */
  status?: string;
  from?: LocalDate;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Pending entries that left the bank's pending list (booked or dropped) and were removed. */
  pendingResolved: number;
  balances: number;
  /** Complete days checked in this run, with their continuity verdicts. */
  days: StatementDay[];
  error?: { code: ErrorCode; message: string };
}

export async function runFetchStatements(
  deps: FetchStatementsDeps,
  companies: readonly CompanyConfig[],
  scope: FetchScope = {},
): Promise<AccountFetch[]> {
  const results: AccountFetch[] = [];
  for (const company of companies) {
    const context: DataContext = { resourceGroupName: company.organisationNumber };
    const accounts: Account[] = [];
    // When the bank said what it says of the accounts: their statuses are as of then.
    const listedAt = deps.clock.now();
    try {
      for await (const account of deps.bank.listAccounts(context)) accounts.push(account);
    } catch (error) {
      // One company the bank refuses (consent revoked, 403) must not stop the others.
      const failed: AccountFetch = {
        ...empty(company, { id: '', balances: [], raw: {} }, 'failed'),
        error: describeError(error),
      };
      logResult(deps.logger, failed);
      results.push(failed);
      continue;
    }
    const servicers = new Map<string, Promise<Servicer>>();
    const wanted = accounts.filter((a) => scope.accounts === undefined || scope.accounts.has(a.id));
    await withAccountClaims(
      deps.units,
      'fetch',
      company.id,
      wanted.map((a) => a.id),
      async () => {
        // Where each account's fetch starts, for all of them in one read.
        const starts = await deps.statements.fetchStarts(wanted.map((a) => a.id));
        const accounts = wanted.map((account) => ({ account, start: starts.get(account.id) ?? {}, listedAt }));
        for (const result of await fetchTogether(deps, company, context, accounts, servicers)) {
          logResult(deps.logger, result);
          results.push(result);
        }
      },
    );
  }
  return results;
}

const WRITE_AFTER_TRANSACTIONS = 5_000;

/**
 * An account as the bank listed it, where its fetch starts, and when the list was read: its
 * status is the bank's as of then (an account-status event dated later stays; the accounts of a
 * company, listed together, write their statuses together).
 */
interface ListedAccount {
  account: Account;
  start: FetchStart;
  listedAt: Date;
}

/** An account read from the bank, with what is to be written of it (nothing for one not enabled). */
interface ReadAccount {
  result: AccountFetch;
  /** Without its watermark: the accounts written together share theirs (fetchTogether). */
  fetched?: Omit<FetchedAccount, 'fetchedTo'>;
  currency?: string;
}

/**
 * Reads the accounts from the bank one by one, each under its claim, and writes what was read
 * of them together (StatementRepository.storeFetchedAll): a company's accounts cost one
 * transaction and a statement per kind, not one of each per account. The claims are nested, so
 * every account's claim is kept until what was read of it is written and its days checked, and
 * an account another process has claimed is skipped, as before. A failed read fails its account alone;
 * a failed write, the accounts written with it.
 */
async function fetchTogether(
  deps: FetchStatementsDeps,
  company: CompanyConfig,
  context: DataContext,
  accounts: readonly ListedAccount[],
  servicers: Map<string, Promise<Servicer>>,
): Promise<AccountFetch[]> {
  const done: AccountFetch[] = [];
  let unwritten: ReadAccount[] = [];
  let startedAt: Date | undefined;
  const write = async (): Promise<void> => {
    const batch = unwritten;
    unwritten = [];
    if (startedAt !== undefined) await writeRead(deps, batch, startedAt);
    startedAt = undefined;
    done.push(...batch.map((r) => r.result));
  };
  const step = async (i: number): Promise<void> => {
    const kept = unwritten.reduce((n, r) => n + (r.fetched?.transactions.length ?? 0), 0);
    if (kept >= (deps.writeAfterTransactions ?? WRITE_AFTER_TRANSACTIONS)) await write();
    const next = accounts[i];
    if (next === undefined) return write();
    const { account } = next;
    const bankId = account.bankId ?? soleBankId(company);
    if (bankId !== undefined && !servicers.has(bankId)) servicers.set(bankId, servicerOf(deps, bankId));
    const servicer = bankId === undefined ? {} : await servicers.get(bankId)!;
    let claimed = false;
    await underAccountClaim(deps.units, { job: 'fetch', company: company.id, account: account.id }, async () => {
      claimed = true;
      // The watermark of accounts written together is when the first of them was read: each
      // was read from then on or later, so the next fetch's window covers all of them.
      startedAt ??= deps.clock.now();
      unwritten.push(await readAccount(deps, company, context, next, servicer));
      await step(i + 1);
    });
    if (!claimed) await step(i + 1);
  };
  await step(0);
  return done;
}

type Servicer = { servicerBic?: string; servicerName?: string };

/**
 * The servicing bank's BIC and name from the bank directory, read at fetch time so exports never
 * need the bank. A directory that does not answer leaves them out; the statement is still written.
 */
async function servicerOf(deps: FetchStatementsDeps, bankId: string): Promise<Servicer> {
  try {
    const bank = await deps.bank.getBank(bankId);
    return {
      ...(bank.bic === undefined ? {} : { servicerBic: bank.bic }),
      ...(bank.name === undefined ? {} : { servicerName: bank.name }),
    };
  } catch (error) {
    deps.logger.warn('bank directory did not answer; statements name no servicer', {
      bankId,
      error: describeError(error),
    });
    return {};
  }
}

function empty(company: CompanyConfig, account: Account, outcome: AccountFetchOutcome): AccountFetch {
  const base: AccountFetch = {
    company: company.id,
    accountId: account.id,
    outcome,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    pendingResolved: 0,
    balances: 0,
    days: [],
  };
  if (account.iban !== undefined) base.iban = account.iban;
  const bankId = account.bankId ?? soleBankId(company);
  if (bankId !== undefined) base.bankId = bankId;
  return base;
}

/** How many accounts were fetched, and how many at each bank: "3 fetched (testbank 2, nordbank 1)". */
export function fetchedPerBank(results: readonly AccountFetch[]): string {
  const fetched = results.filter((r) => r.outcome === 'fetched');
  const perBank = new Map<string, number>();
  for (const r of fetched) perBank.set(r.bankId ?? 'bank unknown', (perBank.get(r.bankId ?? 'bank unknown') ?? 0) + 1);
  const banks = [...perBank].map(([bank, n]) => `${bank} ${n}`).join(', ');
  return `${fetched.length} fetched${banks ? ` (${banks})` : ''}`;
}

/** Reads an account's transactions and balances from the bank; nothing is written yet. */
async function readAccount(
  deps: FetchStatementsDeps,
  company: CompanyConfig,
  context: DataContext,
  { account, start, listedAt }: ListedAccount,
  servicer: Servicer,
): Promise<ReadAccount> {
  const watermark = start.fetchedTo;
  // Spec §3.3 shows only `enabled`; an account without a status is taken as enabled.
  if (account.status !== undefined && account.status !== 'enabled') {
    await deps.accountStatus?.record(account.id, account.status, listedAt);
    return {
      result: {
        ...empty(company, account, watermark !== undefined ? 'not-enabled' : 'not-yet-enabled'),
        status: account.status,
      },
    };
  }
  const result = empty(company, account, 'fetched');
  try {
    const startedAt = deps.clock.now();
    // The first fetch reaches back whole calendar days, not 24-hour spans: 31 × 24 h from late
    // evening across the autumn clock change lands on the next day, and a day went missing.
    const initialDays = deps.initialDays ?? 31;
    const windowStart =
      watermark === undefined
        ? addDays(dateInZone(startedAt, deps.timeZone), -initialDays)
        : dateInZone(new Date(watermark.getTime() - company.statements.overlap), deps.timeZone);
    const from = earliest(windowStart, start.firstUnsettled, ...uncheckedWindow(start, initialDays, deps.timeZone));
    result.from = from;

    // Everything is read from the bank before anything is written, so a failure half-way
    // leaves the store and the watermark as they were.
    const transactions: BankTransactionInput[] = [];
    const pendingIds = new Set<string>();
    for await (const tx of deps.bank.listTransactions(context, account.id, { dateFrom: from, bookingStatus: 'both' })) {
      const input = toTransactionInput(account, tx);
      if (input === undefined) continue;
      transactions.push(input);
      if (input.status === 'pending') pendingIds.add(input.bankTransactionId);
    }
    // One day more than the transactions: the closing balance of the day before the window is
    // the opening balance of its first day.
    const balances: BalanceInput[] = [];
    for await (const balance of deps.bank.listBalances(context, account.id, { dateFrom: addDays(from, -1) })) {
      const input = toBalanceInput(account, balance);
      if (input !== undefined) balances.push(input);
    }
    const currency = account.currency ?? transactions[0]?.amount.currency ?? balances[0]?.amount.currency;
    return {
      result,
      fetched: {
        account: {
          id: account.id,
          company: company.id,
          ...(account.iban === undefined ? {} : { iban: account.iban }),
          ...(account.bban === undefined ? {} : { bban: account.bban }),
          ...(account.currency === undefined ? {} : { currency: account.currency }),
          ...(account.name === undefined ? {} : { name: account.name }),
          ...servicer,
          ...(account.bic === undefined ? {} : { servicerBic: account.bic }),
        },
        ...(account.status === undefined || deps.accountStatus === undefined
          ? {}
          : { status: { status: account.status, at: listedAt } }),
        transactions,
        stillPending: pendingIds,
        balances,
      },
      ...(currency === undefined ? {} : { currency }),
    };
  } catch (error) {
    result.outcome = 'failed';
    result.error = describeError(error);
    return { result };
  }
}

/**
 * Writes the accounts read, all in one transaction with `fetchedTo` as their watermark, then
 * checks their complete days together (check-days.ts). A failed write or check fails every
 * account in it; the next fetch reads and checks them again.
 */
async function writeRead(deps: FetchStatementsDeps, read: readonly ReadAccount[], fetchedTo: Date): Promise<void> {
  const toWrite = read.filter(
    (r): r is ReadAccount & { fetched: Omit<FetchedAccount, 'fetchedTo'> } => r.fetched !== undefined,
  );
  if (toWrite.length === 0) return;
  let stored: StoredFetch[];
  try {
    stored = await deps.statements.storeFetchedAll(toWrite.map((r) => ({ ...r.fetched, fetchedTo })));
  } catch (error) {
    for (const { result } of toWrite) {
      result.outcome = 'failed';
      result.error = describeError(error);
    }
    return;
  }
  const checks: (AccountDays & { result: AccountFetch })[] = [];
  for (const [i, { result, fetched, currency }] of toWrite.entries()) {
    const s = stored[i]!;
    result.inserted = s.inserted;
    result.updated = s.updated;
    result.unchanged = s.unchanged;
    result.pendingResolved = s.pendingResolved.length;
    result.balances = fetched.balances.length;
    if (currency !== undefined && result.from !== undefined)
      checks.push({ accountId: fetched.account.id, currency, start: result.from, result });
  }
  if (checks.length === 0) return;
  try {
    const days = await checkAccountsDays(deps, checks, addDays(today(deps.clock, deps.timeZone), -1));
    for (const [i, { result }] of checks.entries()) result.days = days[i]!;
  } catch (error) {
    for (const { result } of checks) {
      result.outcome = 'failed';
      result.error = describeError(error);
    }
  }
}

/**
 * Where the window of a fetch whose write committed but whose continuity check did not began:
 * the watermark is set with the write, the days only by the check, so a fetch killed between the
 * two (or whose check failed) leaves a watermark and no day checked. The next fetch must not
 * start at that watermark minus the overlap — every earlier day of the window, with its lines,
 * would never be checked nor exported — but where that window did: `initialDays` before the
 * watermark's day, or the day after the first closing balance stored (the balances are read from
 * the day before the window, so this still holds after several such fetches on different days).
 * Nothing while a day is checked: then the day after the last one checked bounds the window.
 */
function uncheckedWindow(start: FetchStart, initialDays: number, timeZone: string): (LocalDate | undefined)[] {
  if (start.fetchedTo === undefined || start.firstUnsettled !== undefined) return [];
  return [
    addDays(dateInZone(start.fetchedTo, timeZone), -initialDays),
    start.firstClosing === undefined ? undefined : addDays(start.firstClosing, 1),
  ];
}

function earliest(first: LocalDate, ...others: (LocalDate | undefined)[]): LocalDate {
  return others.reduce<LocalDate>((min, d) => (d !== undefined && d < min ? d : min), first);
}

function describeError(error: unknown): { code: ErrorCode; message: string } {
  const code = isSettleError(error) ? error.code : 'ERR_INTERNAL';
  return { code, message: error instanceof Error ? error.message : String(error) };
}

function logResult(logger: Logger, r: AccountFetch): void {
  const meta = { company: r.company, accountId: r.accountId };
  if (r.outcome === 'not-enabled' || r.outcome === 'not-yet-enabled') {
    logger.warn(
      r.outcome === 'not-enabled'
        ? 'account is no longer enabled at the bank: not fetched'
        : 'account is not enabled at the bank yet: not fetched',
      { ...meta, status: r.status },
    );
    return;
  }
  if (r.outcome === 'failed') {
    logger.error('statement fetch failed for the account', { ...meta, ...r.error });
    return;
  }
  logger.info('statements fetched', {
    ...meta,
    from: r.from,
    inserted: r.inserted,
    updated: r.updated,
    unchanged: r.unchanged,
    pendingResolved: r.pendingResolved,
    balances: r.balances,
    daysChecked: r.days.length,
  });
  for (const d of r.days) {
    if (d.continuity === 'gap' || d.continuity === 'mismatch')
      logger.error(`statement continuity ${d.continuity}`, { ...meta, day: d.day, finding: d.finding });
  }
}

/** True when a person must look at something: a break in continuity or an account the bank does not serve. */
export function fetchNeedsAttention(results: readonly AccountFetch[]): boolean {
  return results.some(
    (r) => r.outcome === 'not-enabled' || r.days.some((d) => d.continuity === 'gap' || d.continuity === 'mismatch'),
  );
}
