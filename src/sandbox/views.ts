// The JSON the sandbox writes. One function per resource so the shapes in docs/sandbox.md
// have a single source. Amounts are decimal strings with the currency's exponent.
import { formatAmount } from '../domain/money.js';
import { addDays, type LocalDate } from '../domain/local-date.js';
import { bookedBalance, lastChangeDate, reservedAmount } from './ledger.js';
import type { Account, Bank, BulkPayment, Consent, PaymentLine, Transaction } from './model.js';
import type { Sandbox } from './sandbox.js';
import { bankToday } from './time.js';

export const amount = (minor: bigint, currency: string): { currency: string; amount: string } => ({
  currency,
  amount: formatAmount({ minor, currency }),
});

export function accountView(sb: Sandbox, a: Account, balanceDate?: LocalDate): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: a.id,
    iban: a.iban,
    bban: a.bban,
    other: null,
    bic: a.bic,
    currency: a.currency,
    name: a.name,
    displayName: a.displayName,
    ownerName: a.ownerName,
    status: a.status,
    bankId: a.bankId,
    _links: {
      self: sb.link(`/accounts/${a.id}`),
      balances: sb.link(`/accounts/${a.id}/balances`),
      transactions: sb.link(`/accounts/${a.id}/transactions`),
      parameters: sb.link(`/accounts/${a.id}/parameters`),
    },
  };
  if (balanceDate !== undefined) view.balances = balanceView(sb, a, balanceDate);
  return view;
}

export function accountReference(a: Account): Record<string, unknown> {
  return { iban: a.iban, bban: a.bban, other: null, currency: a.currency };
}

type Balance = {
  balanceAmount: { currency: string; amount: string };
  balanceType: string;
  referenceDate: string;
  lastChangeDate: string | null;
};

/** For each balance type, the latest balance on or before `date`. */
export function balanceView(sb: Sandbox, a: Account, date: LocalDate): Balance[] {
  const today = bankToday(sb.clock.now());
  if (date < today) return [closing(sb, a, date)];
  return [closing(sb, a, addDays(today, -1)), ...intraday(sb, a, today)];
}

/** One entry per day in [from, to] (days after today are not known yet). */
export function balanceSeries(sb: Sandbox, a: Account, from: LocalDate, to: LocalDate): Balance[] {
  const today = bankToday(sb.clock.now());
  const out: Balance[] = [];
  for (let d = from; d <= to && d <= today; d = addDays(d, 1)) {
    if (d < today) out.push(closing(sb, a, d));
    else out.push(...intraday(sb, a, d));
  }
  return out;
}

function closing(sb: Sandbox, a: Account, date: LocalDate): Balance {
  return {
    balanceAmount: amount(bookedBalance(sb.state, a, date), a.currency),
    balanceType: 'closingBooked',
    referenceDate: date,
    lastChangeDate: lastChangeDate(sb.state, a, date),
  };
}

function intraday(sb: Sandbox, a: Account, today: LocalDate): Balance[] {
  const booked = bookedBalance(sb.state, a, today);
  const changed = lastChangeDate(sb.state, a, today);
  return [
    {
      balanceAmount: amount(booked, a.currency),
      balanceType: 'interimBooked',
      referenceDate: today,
      lastChangeDate: changed,
    },
    {
      balanceAmount: amount(booked - reservedAmount(sb.state, a) + a.creditLimitMinor, a.currency),
      balanceType: 'interimAvailable',
      referenceDate: today,
      lastChangeDate: changed,
    },
  ];
}

export function transactionView(sb: Sandbox, t: Transaction): Record<string, unknown> {
  const account = sb.state.accounts.get(t.accountId);
  const own = account ? { iban: account.iban } : null;
  const other = t.counterpartyIban ? { iban: t.counterpartyIban } : null;
  const debit = t.minor < 0n;
  return {
    transactionId: t.transactionId,
    accountId: t.accountId,
    entryReference: t.entryReference,
    endToEndIdentification: t.endToEndId,
    references: {
      endToEndIds: t.endToEndIds ?? (t.endToEndId ? [t.endToEndId] : []),
      instructionId: null,
      accountServicerReference: t.entryReference,
      mandateId: null,
      checkNumber: null,
    },
    bookingStatus: 'booked',
    bookingDate: t.bookingDate,
    valueDate: t.valueDate,
    transactionAmount: amount(t.minor, t.currency),
    creditorName: debit ? t.counterpartyName : (account?.ownerName ?? null),
    creditorAccount: debit ? other : own,
    debtorName: debit ? (account?.ownerName ?? null) : t.counterpartyName,
    debtorAccount: debit ? own : other,
    unstructuredRemittanceInformation: t.remittance,
    structuredRemittanceInformation: t.creditorReference?.reference ?? null,
    structuredRemittanceInformationArray: t.creditorReference
      ? [
          {
            reference: t.creditorReference.reference,
            referenceType: t.creditorReference.type,
            referenceIssuer: t.creditorReference.type === 'RF' ? 'ISO' : null,
          },
        ]
      : [],
    transactionType: t.transactionType,
    transactionSource: t.paymentId ? 'payment' : 'bank',
    paymentId: t.paymentId,
    bankTransactionCode: t.bankTransactionCode ?? null,
    proprietaryBankTransactionCode: t.proprietaryBankTransactionCode ?? null,
    additionalInformation: t.additionalInformation ?? null,
    returnReason: t.returnReason ?? null,
    // What the payer instructed: for the sandbox, always the booked amount in the same currency.
    amountDetails: t.paymentId ? { instructedAmount: amount(t.minor < 0n ? -t.minor : t.minor, t.currency) } : null,
  };
}

/** An accepted, not yet booked payment line as a pending transaction on the debtor account. */
export function pendingView(sb: Sandbox, bulk: BulkPayment, line: PaymentLine): Record<string, unknown> {
  return {
    transactionId: line.paymentId,
    accountId: bulk.accountId,
    entryReference: null,
    endToEndIdentification: line.endToEndIdentification,
    references: {
      endToEndIds: [line.endToEndIdentification],
      instructionId: null,
      accountServicerReference: null,
      mandateId: null,
      checkNumber: null,
    },
    bookingStatus: 'pending',
    bookingDate: null,
    valueDate: bulk.requestedExecutionDate,
    transactionAmount: amount(-line.minor, line.currency),
    creditorName: line.creditorName,
    creditorAccount: { iban: line.creditorIban },
    debtorName: bulk.debtorName,
    debtorAccount: { iban: bulk.debtorIban },
    unstructuredRemittanceInformation: line.remittance ?? '',
    transactionType: 'debit',
    transactionSource: 'payment',
    paymentId: line.paymentId,
  };
}

const tpp = (line: PaymentLine): object[] =>
  line.tppMessages.map((m) => ({ category: m.category, code: m.code, message: m.message }));

export function lineView(sb: Sandbox, bulk: BulkPayment, line: PaymentLine): Record<string, unknown> {
  return {
    paymentId: line.paymentId,
    endToEndIdentification: line.endToEndIdentification,
    transactionStatus: line.status,
    tppMessage: tpp(line),
    instructedAmount: amount(line.minor, line.currency),
    ...requestedLine(line),
    _links: { self: sb.link(`/payments/credit-transfer/${line.paymentId}`) },
  };
}

export function bulkView(sb: Sandbox, bulk: BulkPayment): Record<string, unknown> {
  return {
    paymentId: bulk.paymentId,
    transactionStatus: bulk.status,
    tppMessage: [],
    requestedExecutionDate: bulk.requestedExecutionDate,
    debtorAccount: { iban: bulk.debtorIban, currency: sb.state.accounts.get(bulk.accountId)?.currency ?? null },
    debtorName: bulk.debtorName,
    batchBookingPreferred: bulk.batchBookingPreferred,
    createdAt: bulk.createdAt,
    basketId: bulk.basketId,
    paymentLines: bulk.lines.map((l) => lineView(sb, bulk, l)),
    _links: { self: sb.link(`/bulk-payments/credit-transfer/${bulk.paymentId}`) },
  };
}

export function singlePaymentView(sb: Sandbox, bulk: BulkPayment, line: PaymentLine): Record<string, unknown> {
  return {
    ...lineView(sb, bulk, line),
    bulkPaymentId: bulk.paymentId,
    requestedExecutionDate: bulk.requestedExecutionDate,
    debtorAccount: { iban: bulk.debtorIban },
    debtorName: bulk.debtorName,
    _links: {
      self: sb.link(`/payments/credit-transfer/${line.paymentId}`),
      bulkPayment: sb.link(`/bulk-payments/credit-transfer/${bulk.paymentId}`),
    },
  };
}

export function consentView(c: Consent): Record<string, unknown> {
  return {
    consentId: c.consentId,
    resourceId: `/subscriptions/${c.subscriptionId}/resource-groups/${c.resourceGroupName}/providers/aritma.banking/consents/${c.consentId}`,
    status: c.status,
    additionalData: { bankId: c.bankId, expiresAtUtc: c.expiresAtUtc, consentData: null },
  };
}

export function bankView(b: Bank, additional: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    bankId: b.bankId,
    name: b.name,
    countryCode: b.countryCode,
    bic: b.bic,
    channels: b.channels,
    onboarding: b.onboarding,
    bankOrder: b.bankOrder,
  };
  if (additional)
    view.additionalInformation = { isTestBank: b.isTestBank, propertyRequirements: b.propertyRequirements };
  return view;
}

/** What the request said of a line beyond its id and amount, as the bank keeps it (null: not given). */
export function requestedLine(line: PaymentLine): Record<string, unknown> {
  return {
    creditorAccount: { iban: line.creditorIban },
    creditorAgent: line.creditorAgent,
    creditorName: line.creditorName,
    ultimateDebtor: line.ultimateDebtor,
    ultimateCreditor: line.ultimateCreditor,
    purposeCode: line.purposeCode,
    remittanceInformationUnstructured: line.remittance,
    remittanceInformationStructured: line.structuredReference,
    instructionPriority: line.instructionPriority,
  };
}
