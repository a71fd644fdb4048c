// Account provisioning when a consent becomes Authorized: the accounts named in the consent's
// accountNumbers property (Norwegian 11-digit account numbers) appear as enabled accounts in
// the consent's resource group. Without accountNumbers one new account is opened.
import { composeIBAN } from 'ibantools';
import { randomInt } from 'node:crypto';
import type { Account, Consent } from './model.js';
import type { Sandbox } from './sandbox.js';

export function provisionConsentAccounts(sb: Sandbox, consent: Consent, at?: number): void {
  const numbers = (consent.properties.accountNumbers ?? '')
    .split(',')
    .map((n) => n.replace(/[\s.]/g, ''))
    .filter((n) => n.length > 0);
  if (numbers.length === 0) numbers.push(newNorwegianBban());
  const numberOfApprovers = Number.parseInt(consent.properties.numberOfApprovers ?? '0', 10) || 0;
  for (const bban of numbers) {
    const iban = composeIBAN({ countryCode: 'NO', bban });
    if (!iban) continue; // not a Norwegian account number; the bank would not onboard it
    const exists = sb.state
      .accountsIn(consent.subscriptionId, consent.resourceGroupName)
      .some((a) => a.iban === iban && a.status !== 'deleted');
    if (exists) continue;
    const account: Account = {
      id: sb.newUuid().replace(/-/g, ''),
      subscriptionId: consent.subscriptionId,
      resourceGroupName: consent.resourceGroupName,
      bankId: consent.bankId,
      consentId: consent.consentId,
      iban,
      bban,
      bic: sb.state.banks.get(consent.bankId)?.bic ?? 'TESTNOK1',
      currency: 'NOK',
      name: `Konto ${bban}`,
      displayName: `Account ${bban}`,
      ownerName: consent.resourceGroupDisplayName || consent.resourceGroupName,
      status: 'enabled',
      preApproval: numberOfApprovers > 0,
      numberOfApprovers,
      openingMinor: 0n,
      creditLimitMinor: 0n,
    };
    sb.state.accounts.set(account.id, account);
    sb.emit(
      'banking.account.created',
      account,
      {
        id: account.id,
        bic: account.bic,
        iban: account.iban,
        bban: account.bban,
        name: account.name,
        currency: account.currency,
        displayName: account.displayName,
      },
      at,
    );
  }
}

/** A random valid Norwegian BBAN (10 digits + mod-11 check digit). */
export function newNorwegianBban(): string {
  const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
  for (;;) {
    const digits = `1503${randomInt(0, 1_000_000).toString().padStart(6, '0')}`;
    const sum = [...digits].reduce((s, d, i) => s + Number(d) * (weights[i] ?? 0), 0);
    const check = (11 - (sum % 11)) % 11;
    if (check !== 10) return `${digits}${check}`;
  }
}
