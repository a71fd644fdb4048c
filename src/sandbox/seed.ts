// The default world every sandbox starts with (and returns to on reset). Documented in
// docs/sandbox.md: integrators and tests rely on these exact names and numbers.
import { addDays, dateInZone, type LocalDate } from '../domain/local-date.js';
import type { Account, Bank, Consent, Transaction } from './model.js';
import { SandboxState } from './state.js';
import { BANK_TIME_ZONE } from './time.js';

export const SEED = {
  tenant: 'sandbox',
  clientId: 'sandbox-client',
  clientSecret: 'sandbox-secret',
  subscriptionId: 'sandbox',
  resourceGroupName: '999999999',
  bankId: 'testbank',
  consentId: '1e5efc3b-635e-4973-a605-41d7f0d6d7b3',
  /** Normal account: payments go straight to processing. */
  operatingAccountId: '67e98aeec65145888fefa7cb935c9197',
  operatingIban: 'NO9386011117947',
  /** Pre-approved account: payments wait for an authorised signing basket. */
  approvalAccountId: '3dc3d5b3702348489853f5400a64e81f',
  approvalIban: 'NO7215031234562',
  /** The seeded company's consent at its second bank, nordbank (docs/sandbox.md "Several banks"). */
  nordbankConsentId: '5c0a8e21-9d3f-4b7a-8e55-2f1d6c4b9a10',
  /** At nordbank, enabled: payments go straight to processing. */
  nordbankAccountId: '7b1c2d3e4f5061728394a5b6c7d8e9f0',
  nordbankIban: 'NO7260012345677',
  /** At nordbank, onboarded but not yet `enabled` (POST /__sandbox/accounts/:id/enable enables it). */
  pendingAccountId: '9f8e7d6c5b4a39281706f5e4d3c2b1a0',
  pendingIban: 'NO3860012345707',
  /** A second client and subscription the default client must not see (for 403 tests). */
  otherClientId: 'other-client',
  otherClientSecret: 'other-secret',
  otherSubscriptionId: 'other',
  otherResourceGroupName: '888888888',
  otherAccountId: 'a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0',
  otherIban: 'NO5015031234570',
} as const;

const BANKS: Bank[] = [
  {
    bankId: 'testbank',
    name: 'Test Bank',
    countryCode: 'NO',
    bic: 'TESTNOK1',
    channels: ['openBanking', 'psd2'],
    isTestBank: true,
    onboarding: null,
    bankOrder: { required: false, description: 'No bank order is needed for the test bank.', leadTimeBusinessDays: 0 },
    cutOffTime: '00:00',
    propertyRequirements: [
      { key: 'isHeadless', required: true, description: '"true": the SCA link is obtained through refresh' },
      { key: 'psuCorporateId', required: true, description: 'Organisation number' },
      { key: 'accountNumbers', required: false, description: 'Comma-separated account numbers to onboard' },
      { key: 'combinedServiceIndicator', required: false, description: '"true" for account information and payments' },
      { key: 'numberOfApprovers', required: false, description: 'Required approvers (beta)' },
    ],
  },
  {
    bankId: 'nordbank',
    name: 'Nordbank',
    countryCode: 'NO',
    bic: 'NORDNOKK',
    channels: ['openBanking'],
    isTestBank: false,
    onboarding: { links: [{ title: 'Corporate onboarding form', href: 'https://nordbank.invalid/onboarding' }] },
    bankOrder: {
      required: true,
      description: 'Sign the integration order in the bank portal.',
      leadTimeBusinessDays: 5,
    },
    cutOffTime: '14:00',
    propertyRequirements: [
      { key: 'psuCorporateId', required: true, description: 'Organisation number' },
      { key: 'accountNumbers', required: true, description: 'Comma-separated account numbers to onboard' },
    ],
  },
  {
    bankId: 'svenskbank',
    name: 'Svensk Bank',
    countryCode: 'SE',
    bic: 'SVENSESS',
    channels: ['psd2'],
    isTestBank: false,
    onboarding: null,
    bankOrder: { required: false, description: 'None.', leadTimeBusinessDays: 0 },
    cutOffTime: '12:30',
    propertyRequirements: [],
  },
];

export function seedState(now: Date): SandboxState {
  const s = new SandboxState();
  s.clients.set(SEED.clientId, {
    clientId: SEED.clientId,
    secret: SEED.clientSecret,
    tenant: SEED.tenant,
    subscriptions: [SEED.subscriptionId],
  });
  s.clients.set(SEED.otherClientId, {
    clientId: SEED.otherClientId,
    secret: SEED.otherClientSecret,
    tenant: SEED.tenant,
    subscriptions: [SEED.otherSubscriptionId],
  });
  for (const b of BANKS) s.banks.set(b.bankId, structuredClone(b));

  const consent = (consentId: string, subscriptionId: string, rg: string): Consent =>
    seedConsent(now, { consentId, subscriptionId, rg });
  s.consents.set(SEED.consentId, consent(SEED.consentId, SEED.subscriptionId, SEED.resourceGroupName));
  s.consents.set(SEED.nordbankConsentId, {
    ...consent(SEED.nordbankConsentId, SEED.subscriptionId, SEED.resourceGroupName),
    bankId: 'nordbank',
    properties: {
      psuCorporateId: SEED.resourceGroupName,
      accountNumbers: [SEED.nordbankIban, SEED.pendingIban].map((i) => i.slice(4)).join(','),
    },
  });
  const otherConsentId = '0b1e7c2d-0000-4000-8000-000000000001';
  s.consents.set(otherConsentId, consent(otherConsentId, SEED.otherSubscriptionId, SEED.otherResourceGroupName));

  const base = {
    bankId: 'testbank',
    bic: 'TESTNOK1',
    currency: 'NOK',
    status: 'enabled' as const,
    creditLimitMinor: 0n,
  };
  const accounts: Account[] = [
    {
      ...base,
      id: SEED.operatingAccountId,
      subscriptionId: SEED.subscriptionId,
      resourceGroupName: SEED.resourceGroupName,
      consentId: SEED.consentId,
      iban: SEED.operatingIban,
      bban: SEED.operatingIban.slice(4),
      name: 'Driftskonto',
      displayName: 'Operating account',
      ownerName: 'Sandbox AS',
      preApproval: false,
      numberOfApprovers: 0,
      openingMinor: 250_000_000n,
    },
    {
      ...base,
      id: SEED.approvalAccountId,
      subscriptionId: SEED.subscriptionId,
      resourceGroupName: SEED.resourceGroupName,
      consentId: SEED.consentId,
      iban: SEED.approvalIban,
      bban: SEED.approvalIban.slice(4),
      name: 'Utbetalingskonto',
      displayName: 'Payments account (pre-approved)',
      ownerName: 'Sandbox AS',
      preApproval: true,
      numberOfApprovers: 1,
      openingMinor: 100_000_000n,
    },
    ...[
      { id: SEED.nordbankAccountId, iban: SEED.nordbankIban, status: 'enabled' as const, name: 'Driftskonto Nord' },
      { id: SEED.pendingAccountId, iban: SEED.pendingIban, status: 'disabled' as const, name: 'Lønnskonto Nord' },
    ].map((a): Account => ({
      ...base,
      ...a,
      bankId: 'nordbank',
      bic: 'NORDNOKK',
      subscriptionId: SEED.subscriptionId,
      resourceGroupName: SEED.resourceGroupName,
      consentId: SEED.nordbankConsentId,
      bban: a.iban.slice(4),
      displayName:
        a.id === SEED.nordbankAccountId
          ? 'Operating account at Nordbank'
          : 'Payroll account at Nordbank (not yet enabled)',
      ownerName: 'Sandbox AS',
      preApproval: false,
      numberOfApprovers: 0,
      openingMinor: 40_000_000n,
    })),
    {
      ...base,
      id: SEED.otherAccountId,
      subscriptionId: SEED.otherSubscriptionId,
      resourceGroupName: SEED.otherResourceGroupName,
      consentId: otherConsentId,
      iban: SEED.otherIban,
      bban: SEED.otherIban.slice(4),
      name: 'Konto',
      displayName: 'Other company account',
      ownerName: 'Other AS',
      preApproval: false,
      numberOfApprovers: 0,
      openingMinor: 10_000_000n,
    },
  ];
  for (const a of accounts) s.accounts.set(a.id, a);

  // Five days of booked history before "today", a few entries a day, fixed amounts. The
  // customers' payments carry what Nordic payers send: a KID, an RF reference, a KID with a
  // mistyped check digit, and plain text (docs/sandbox.md).
  const todayDate = dateInZone(now, BANK_TIME_ZONE);
  const kid = (reference: string) => ({ reference, type: 'KID' as const });
  const history: [number, string, bigint, string, string | null, string, Transaction['creditorReference']?][] = [
    [-5, SEED.operatingAccountId, 1_250_000n, 'Kunde Nord AS', 'NO6315061111112', '', kid('10010000015')],
    [-5, SEED.operatingAccountId, -349_900n, 'Kontorrekvisita AS', 'NO9115062222228', 'Ordre 77'],
    [
      -4,
      SEED.operatingAccountId,
      5_000_000n,
      'Kunde Sør AS',
      'NO4997101010108',
      'Faktura 1002',
      { reference: 'RF48FAKTURA1002', type: 'RF' },
    ],
    [-3, SEED.operatingAccountId, -1_500_000n, 'Husleie Eiendom AS', 'NO7112345678903', 'Husleie'],
    [-2, SEED.operatingAccountId, 780_050n, 'Kunde Vest AS', 'NO9015030000010', 'Faktura 1003', kid('10030000036')],
    [-1, SEED.operatingAccountId, -99_000n, 'Strøm AS', 'NO6215030000029', 'KID 0012345678'],
    [-4, SEED.approvalAccountId, 20_000_000n, 'Sandbox AS', SEED.operatingIban, 'Overføring'],
    [-2, SEED.approvalAccountId, -4_200_000n, 'Lønn Ansatt', 'NO4015030000037', 'Lønn'],
    [-3, SEED.nordbankAccountId, 3_000_000n, 'Kunde Øst AS', 'NO7115030000061', 'Faktura 1004'],
    [-3, SEED.otherAccountId, 100_000n, 'Kunde AS', 'NO1815030000045', 'Faktura 9'],
  ];
  for (const [day, accountId, minor, name, iban, text, creditorReference] of history) {
    const date: LocalDate = addDays(todayDate, day);
    const seq = s.nextSeq();
    const tx: Transaction = {
      transactionId: `00000000-0000-4000-8000-${seq.toString().padStart(12, '0')}`,
      accountId,
      entryReference: `SBX${seq.toString().padStart(9, '0')}`,
      endToEndId: minor < 0n ? `SEED-E2E-${seq}` : null,
      bookingDate: date,
      valueDate: date,
      minor,
      currency: 'NOK',
      counterpartyName: name,
      counterpartyIban: iban,
      remittance: text,
      transactionType: minor < 0n ? 'debit' : 'credit',
      paymentId: null,
      bookedAt: `${date}T06:00:00Z`,
      ...(creditorReference === undefined ? {} : { creditorReference }),
    };
    s.addTransaction(tx);
  }
  return s;
}

/** An authorised, headless consent of a resource group (the seed's and a bureau's organisations). */
export function seedConsent(now: Date, c: { consentId: string; subscriptionId: string; rg: string }): Consent {
  const { consentId, subscriptionId, rg } = c;
  return {
    consentId,
    subscriptionId,
    resourceGroupName: rg,
    resourceGroupDisplayName: subscriptionId === SEED.subscriptionId ? 'Sandbox AS' : 'Other AS',
    bankId: 'testbank',
    channelType: 'openBanking',
    properties: { isHeadless: 'true', psuCorporateId: rg, combinedServiceIndicator: 'true' },
    status: 'Authorized',
    state: null,
    createdAt: now.getTime() - 30 * 86_400_000,
    nextStepAt: null,
    redirectSuccess: null,
    redirectError: null,
    expiresAtUtc: null,
  };
}
