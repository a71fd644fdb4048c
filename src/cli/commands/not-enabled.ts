// The accounts of a company at one bank that are not `enabled` yet (spec §3.1 rule 2, §3.3):
// what `settle consents create|refresh` tell the operator onboarding still waits for.
import type { Account, BankClient } from '../../bank/index.js';

/**
 * What onboarding at a bank still waits for: the company's accounts at that bank that are not
 * `enabled` (spec §3.1 rule 2), as lines for the operator; one line when all are.
 */
export async function notEnabledAtBank(bank: BankClient, org: string, bankId: string): Promise<string[]> {
  const atBank: Account[] = [];
  for await (const a of bank.listAccounts({ resourceGroupName: org })) if (a.bankId === bankId) atBank.push(a);
  const waiting = atBank.filter((a) => a.status !== undefined && a.status !== 'enabled');
  if (atBank.length === 0)
    return [`no accounts of ${org} at ${bankId} yet: the bank provisions them once the consent is Authorized`];
  if (waiting.length === 0) return [`all ${atBank.length} account(s) of ${org} at ${bankId} are enabled`];
  return waiting.map(
    (a) =>
      `not yet enabled at ${bankId}: ${a.iban ?? a.bban ?? a.id} (${a.status}); payments from it are refused at pickup until the bank enables it (docs/runbook.md, "An account is not enabled yet")`,
  );
}
