// Whether a debtor account of a payment file can pay: an account of the company at one of its
// configured banks whose own status is `enabled` (spec §3.1 rule 2, §3.3). The answer for a line
// that cannot is the reason and what the accountant or operator does about it.
import { companyBanks, type CompanyConfig } from '../../src/config/index.js';
import { normalizeIban } from '../../src/domain/account-id.js';
import type { DebtorAccountProblem } from '../../src/domain/validation/index.js';
import type { AccountDirectory } from '../../src/store/index.js';

/** The problem with paying from `iban` in `currency`, in the user's words; undefined when it can pay. */
export type DebtorAccountCheck = (iban: string, currency: string | undefined) => DebtorAccountProblem | undefined;

export function debtorAccountCheck(company: CompanyConfig, directory: AccountDirectory): DebtorAccountCheck {
  const banks = companyBanks(company).map((b) => b.bankId);
  const byIban = new Map(directory.accounts.flatMap((a) => (a.iban === undefined ? [] : [[a.iban, a] as const])));
  const read = directory.readAt.toISOString().slice(0, 16).replace('T', ' ');
  return (text, currency) => {
    const iban = normalizeIban(text);
    const problem = accountProblem(iban);
    if (problem !== undefined) return { message: problem };
    // The account directory knows the account's currency: a line in another one is refused here,
    // where the file can still be corrected, not by the bank after it was sent (AM03).
    const account = byIban.get(iban);
    if (currency !== undefined && account?.currency !== undefined && account.currency !== currency)
      return {
        currency: true,
        message: `the payment is in ${currency}, but debtor account ${iban} is a ${account.currency} account: the bank would refuse it; pay it in ${account.currency}, or from an account in ${currency}, and drop the file again`,
      };
    return undefined;
  };

  function accountProblem(iban: string): string | undefined {
    const account = byIban.get(iban);
    if (account === undefined)
      return (
        `debtor account ${iban} is not an onboarded account of ${company.name} at ${banks.length === 1 ? 'its bank' : 'any of its banks'} (${banks.join(', ')}; account list read ${read} UTC): ` +
        'check the account number in the ERP, or have the account onboarded (settle consents create --bank BANK --org ' +
        `${company.organisationNumber} --accounts NUMBER) and drop the file again`
      );
    const bankId = account.bankId ?? (banks.length === 1 ? banks[0] : undefined);
    if (bankId !== undefined && !banks.includes(bankId))
      return (
        `debtor account ${iban} is at bank ${bankId}, which the configuration of ${company.name} does not name: ` +
        `add { bankId: ${bankId} } to companies[].banks (docs/banks.md) and drop the file again`
      );
    if (account.status !== undefined && account.status !== 'enabled')
      return (
        `debtor account ${iban}${bankId === undefined ? '' : ` at ${bankId}`} is ${account.status}, not enabled yet: the bank enables it after its onboarding; ` +
        `drop the file again once \`settle accounts list --bank ${bankId ?? 'BANK'}\` shows it enabled (docs/runbook.md, "An account is not enabled yet")`
      );
    return undefined;
  }
}
