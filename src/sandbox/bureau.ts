// A bureau's organisations in the sandbox: `count` resource groups under the seed subscription,
// each with its consent and `accountsPerOrganisation` enabled accounts, and a booked entry on
// each of the two days before the start and on the start day itself (complete once the clock
// has passed it: what a bureau's next night exports), so an accounting bureau with a thousand
// client companies can be run against one sandbox (bench/bureau.ts). Ids, IBANs and amounts follow from the numbers, so
// settle's configuration and files can be generated for them without asking the sandbox.
import { addDays, dateInZone, type LocalDate } from '../domain/local-date.js';
import type { Account, Transaction } from './model.js';
import { SEED, seedConsent } from './seed.js';
import { BANK_TIME_ZONE } from './time.js';
import type { SandboxState } from './state.js';

export interface BureauOptions {
  /** Organisations (resource groups) besides the seed's. */
  count: number;
  /** Enabled accounts of each (default 3). */
  accountsPerOrganisation?: number;
}

const hex12 = (n: number) => n.toString(16).padStart(12, '0');

/** The resource group name (organisation number) of bureau organisation `i` (0-based). */
export function bureauOrganisation(i: number): string {
  return `8${String(i).padStart(8, '0')}`;
}

export function bureauConsentId(i: number): string {
  return `c0000000-0000-4000-8000-${hex12(i)}`;
}

export function bureauAccountId(i: number, j: number): string {
  return `b0000000-0000-4000-8000-${hex12(i * 100 + j)}`;
}

/**
 * A valid Norwegian IBAN for bureau account (i, j): bank 8601, an account number from the pair
 * with its mod-11 check digit (numbers whose check digit would be 10 are skipped, as banks do),
 * and the mod-97 check digits.
 */
export function bureauIban(i: number, j: number): string {
  for (let n = (i * 100 + j) * 2; ; n++) {
    const body = `8601${String(n).padStart(6, '0')}`;
    const weights = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];
    const sum = [...body].reduce((acc, d, k) => acc + Number(d) * weights[k]!, 0);
    const check = (11 - (sum % 11)) % 11;
    if (check === 10) continue;
    const bban = `${body}${check}`;
    const digits = `${bban}2324` + '00'; // N=23, O=24, check digits 00
    const remainder = [...digits].reduce((r, d) => (r * 10 + Number(d)) % 97, 0);
    return `NO${String(98 - remainder).padStart(2, '0')}${bban}`;
  }
}

export function seedBureau(state: SandboxState, now: Date, options: BureauOptions): void {
  const perOrganisation = options.accountsPerOrganisation ?? 3;
  const today = dateInZone(now, BANK_TIME_ZONE);
  for (let i = 0; i < options.count; i++) {
    const rg = bureauOrganisation(i);
    const consentId = bureauConsentId(i);
    state.consents.set(consentId, seedConsent(now, { consentId, subscriptionId: SEED.subscriptionId, rg }));
    for (let j = 0; j < perOrganisation; j++) {
      const iban = bureauIban(i, j);
      const account: Account = {
        id: bureauAccountId(i, j),
        subscriptionId: SEED.subscriptionId,
        resourceGroupName: rg,
        bankId: 'testbank',
        consentId,
        iban,
        bban: iban.slice(4),
        bic: 'TESTNOK1',
        currency: 'NOK',
        name: `Konto ${j + 1}`,
        displayName: `Account ${j + 1} of ${rg}`,
        ownerName: `Client ${rg} AS`,
        status: 'enabled',
        preApproval: false,
        numberOfApprovers: 0,
        openingMinor: 1_000_000_000n,
        creditLimitMinor: 0n,
      };
      state.accounts.set(account.id, account);
      for (const day of [-2, -1, 0]) state.addTransaction(historyEntry(state, account, addDays(today, day)));
    }
  }
}

function historyEntry(state: SandboxState, account: Account, date: LocalDate): Transaction {
  const seq = state.nextSeq();
  return {
    transactionId: `00000000-0000-4000-9000-${hex12(seq)}`,
    accountId: account.id,
    entryReference: `SBB${seq.toString().padStart(9, '0')}`,
    endToEndId: null,
    bookingDate: date,
    valueDate: date,
    minor: 10_000n + BigInt(seq),
    currency: 'NOK',
    counterpartyName: 'Kunde AS',
    counterpartyIban: 'NO6315061111112',
    remittance: `Faktura ${seq}`,
    transactionType: 'credit',
    paymentId: null,
    bookedAt: `${date}T06:00:00Z`,
  };
}
