// Statements are fetched and exported per account: one company of a bureau may hold dozens of
// accounts, and the unit (job, company, account) lets several instances share even one
// company's accounts while never fetching or exporting one account twice at once. Without
// claims (a library caller, a test) every account is simply done.
import type { UnitClaims } from '../../src/store/index.js';

/**
 * Runs `fn` with the claims (job, company, account) of all the accounts taken together — one
 * statement when they are free — so the per-account claims within it cost nothing more.
 */
export async function withAccountClaims<T>(
  units: UnitClaims | undefined,
  job: 'fetch' | 'export',
  company: string,
  accounts: readonly string[],
  fn: () => Promise<T>,
): Promise<T> {
  if (units === undefined) return fn();
  return units.together(
    accounts.map((account) => ({ job, company, account })),
    fn,
  );
}

/** Runs `fn` under the claim (job, company, account); undefined when another process has claimed it. */
export async function underAccountClaim<T>(
  units: UnitClaims | undefined,
  unit: { job: 'fetch' | 'export'; company: string; account: string },
  fn: () => Promise<T>,
): Promise<T | undefined> {
  if (units === undefined) return fn();
  const run = await units.run(unit, fn);
  return run.ran ? run.result : undefined;
}

/**
 * Runs `fn` once with the ids of those `accounts` whose claims (job, company, account) this
 * process has, every one of them kept until `fn` ends (each claim taken inside the one before
 * it), so their work can be read and written together; another holder's accounts are left out.
 */
export async function underAccountClaims<T>(
  units: UnitClaims | undefined,
  unit: { job: 'fetch' | 'export'; company: string },
  accounts: readonly string[],
  fn: (claimed: readonly string[]) => Promise<T>,
): Promise<T> {
  const claimed: string[] = [];
  const step = async (i: number): Promise<T> => {
    const account = accounts[i];
    if (account === undefined) return fn(claimed);
    let result: { value: T } | undefined;
    await underAccountClaim(units, { ...unit, account }, async () => {
      claimed.push(account);
      result = { value: await step(i + 1) };
    });
    return result === undefined ? step(i + 1) : result.value;
  };
  return step(0);
}
