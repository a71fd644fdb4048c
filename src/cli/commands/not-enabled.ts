// The accounts of a company at a bank that are not `enabled` yet (spec §3.1 rule 2, §3.3): one
// wording for `settle accounts list` and for what `settle consents create|refresh` tell the
// operator onboarding still waits for.
import type { Account, BankClient, Consent } from '../../bank/index.js';

/** One account that is not enabled, under the consent of its company at its bank. */
export function notEnabledLine(account: Account, consent: Pick<Consent, 'consentId' | 'status'>): string {
  const which = `account ${account.id}${account.iban ? ` (${account.iban})` : ''}${account.bankId ? ` at ${account.bankId}` : ''}`;
  const under =
    consent.status === 'Authorized'
      ? `although consent ${consent.consentId} is Authorized`
      : `(consent ${consent.consentId} is ${consent.status})`;
  return (
    `${which} is ${account.status ?? 'without status'} ${under}: it cannot be used for statements or payments until the bank enables it ` +
    '(bank order lead time is typically 0–5 business days; docs/runbook.md, "An account is not enabled yet")'
  );
}

/**
 * What onboarding at a bank still waits for: the company's accounts at that bank that are not
 * `enabled` (spec §3.1 rule 2), as lines for the operator; one line when there are none.
 */
export async function notEnabledAtBank(
  bank: BankClient,
  org: string,
  consent: Pick<Consent, 'consentId' | 'status'> & { bankId: string },
): Promise<string[]> {
  const { bankId } = consent;
  const atBank: Account[] = [];
  for await (const a of bank.listAccounts({ resourceGroupName: org })) if (a.bankId === bankId) atBank.push(a);
  // An account the bank lists without a status is taken as usable, as pickup's check takes it.
  const waiting = atBank.filter((a) => a.status !== undefined && a.status !== 'enabled');
  if (atBank.length === 0)
    return [`no accounts of ${org} at ${bankId} yet: the bank provisions them once the consent is Authorized`];
  if (waiting.length === 0) return [`all ${atBank.length} account(s) of ${org} at ${bankId} are enabled`];
  return [
    `${waiting.length} of ${atBank.length} account(s) of ${org} at ${bankId} not enabled yet:`,
    ...waiting.map((a) => `  ${notEnabledLine(a, consent)}`),
  ];
}
