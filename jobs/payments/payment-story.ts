// One payment's whole story as a person reads it (`settle payments show`) and as a script reads
// it (`--json`, docs/cli-json.md): where it came from (file and line), what it is, every state
// change with its time and source (poll, webhook, operator, settle), the bank's ids, the signing
// basket, the bookings that carry its end-to-end id and what they mean for reconciliation.
import { formatAmount } from '../../src/domain/money.js';
import { FALLBACK_LOCALE, translate, type Locale } from '../../src/i18n/index.js';
import type { PaymentStory } from '../../src/store/index.js';

export const STORY_SOURCES = ['poll', 'webhook', 'bank lookup', 'operator', 'settle'] as const;
export type StorySource = (typeof STORY_SOURCES)[number];

export interface StoryEvent {
  at: string;
  entity: 'file' | 'bulk' | 'basket' | 'payment';
  from: string | null;
  to: string;
  source: StorySource;
  cause: string;
}

export interface StoryBooking {
  bankTransactionId: string;
  account: string | null;
  status: string;
  bookingDate: string | null;
  valueDate: string | null;
  amount: string;
  currency: string;
}

export type ReconciliationResult =
  'matched' | 'amount differs' | 'booked more than once' | 'not booked' | 'nothing to book';

export interface PaymentStoryJson {
  id: string;
  company: string;
  file: { id: string; name: string | null; format: string | null; receivedAt: string | null; line: number };
  endToEndId: string;
  creditorReference: string | null;
  remittanceInformation: string | null;
  /** ISO 20022 category purpose as the ERP gave it (SALA: payroll). */
  categoryPurpose: string | null;
  debtor: { name: string; iban: string };
  /** `orgId` (with `orgScheme`) and `erpId`: how the ERP identifies the creditor, as the changed-account control knows it. */
  creditor: {
    name: string;
    iban: string;
    bic: string | null;
    orgId: string | null;
    orgScheme: string | null;
    erpId: string | null;
  };
  amount: string;
  currency: string;
  executionDate: string;
  state: string;
  bankStatus: string | null;
  bankMessages: { code: string | null; message: string | null }[];
  bulk: {
    id: string;
    state: string;
    bankPaymentId: string | null;
    idempotencyKey: string;
    attempts: number;
    /** The bank and consent it was sent under (spec §4.6); null when not recorded. */
    bankId: string | null;
    consentId: string | null;
  } | null;
  basket: { id: string; bankBasketId: string | null; state: string; linkExpiresAt: string | null } | null;
  history: StoryEvent[];
  bookings: StoryBooking[];
  reconciliation: { result: ReconciliationResult; explanation: string };
}

/** Who moved the state, read from the transition's cause as the jobs write it. */
export function sourceOf(cause: string): StorySource {
  const status = cause.replace(/^bank status: /, '');
  if (status.startsWith('poll ')) return 'poll';
  if (status.startsWith('event ')) return 'webhook';
  if (status.startsWith('lookup ')) return 'bank lookup';
  if (cause.startsWith('resolved by a person') || cause.startsWith('cancelled by ')) return 'operator';
  return 'settle';
}

const ENTITY = { payment_file: 'file', bulk: 'bulk', basket: 'basket', payment: 'payment' } as const;

function reconciliation(story: PaymentStory): PaymentStoryJson['reconciliation'] {
  const { payment } = story;
  const booked = story.bookings.filter((b) => b.status === 'booked');
  const sent = formatAmount(payment.amount);
  if (booked.length === 0) {
    if (payment.state === 'RJCT' || payment.state === 'CANC')
      return { result: 'nothing to book', explanation: `The payment was not executed (${payment.state}).` };
    return {
      result: 'not booked',
      explanation:
        payment.state === 'ACSC'
          ? 'Settled at the bank, but no fetched statement carries its end-to-end id yet (the next fetch should).'
          : 'No fetched statement carries its end-to-end id yet.',
    };
  }
  if (booked.length > 1)
    return {
      result: 'booked more than once',
      explanation: `${booked.length} booked transactions carry this end-to-end id; see the reconciliation report.`,
    };
  const one = booked[0]!;
  const amount = one.amount.minor < 0n ? -one.amount.minor : one.amount.minor;
  if (amount === payment.amount.minor && one.amount.currency === payment.amount.currency)
    return {
      result: 'matched',
      explanation: `Booked ${one.bookingDate ?? ''} for ${sent} ${payment.amount.currency}, as sent.`.replace(
        '  ',
        ' ',
      ),
    };
  return {
    result: 'amount differs',
    explanation: `Booked ${formatAmount(one.amount)} ${one.amount.currency}, sent ${sent} ${payment.amount.currency}.`,
  };
}

export function paymentStoryJson(story: PaymentStory): PaymentStoryJson {
  const { payment: p, file, bulk, basket } = story;
  return {
    id: p.id,
    company: p.company,
    file: {
      id: p.fileId,
      name: file?.fileName ?? null,
      format: file?.format ?? null,
      receivedAt: file?.receivedAt.toISOString() ?? null,
      line: p.lineNumber,
    },
    endToEndId: p.endToEndId,
    creditorReference: p.creditorReference ?? null,
    remittanceInformation: p.remittanceInformation ?? null,
    categoryPurpose: p.categoryPurpose ?? null,
    debtor: { name: p.debtorName, iban: p.debtorIban },
    creditor: {
      name: p.creditorName,
      iban: p.creditorIban,
      bic: p.creditorBic ?? null,
      orgId: p.creditorOrgId ?? null,
      orgScheme: p.creditorOrgScheme ?? null,
      erpId: p.creditorId ?? null,
    },
    amount: formatAmount(p.amount),
    currency: p.amount.currency,
    executionDate: p.requestedExecutionDate,
    state: p.state,
    bankStatus: p.bankStatus ?? null,
    bankMessages: p.tppMessages.map((m) => ({ code: m.code ?? null, message: m.message ?? null })),
    bulk: bulk
      ? {
          id: bulk.id,
          state: bulk.state,
          bankPaymentId: bulk.bankPaymentId ?? null,
          idempotencyKey: bulk.idempotencyKey,
          attempts: bulk.attempts,
          bankId: bulk.bankId ?? null,
          consentId: bulk.consentId ?? null,
        }
      : null,
    basket: basket
      ? {
          id: basket.id,
          bankBasketId: basket.bankBasketId ?? null,
          state: basket.state,
          linkExpiresAt: basket.approvalLinkExpiresAt?.toISOString() ?? null,
        }
      : null,
    history: story.history.map((t) => ({
      at: t.at.toISOString(),
      entity: ENTITY[t.entityType],
      from: t.from ?? null,
      to: t.to,
      source: sourceOf(t.cause),
      cause: t.cause,
    })),
    bookings: story.bookings.map((b) => ({
      bankTransactionId: b.bankTransactionId,
      account: b.accountIban ?? null,
      status: b.status,
      bookingDate: b.bookingDate ?? null,
      valueDate: b.valueDate ?? null,
      amount: formatAmount(b.amount),
      currency: b.amount.currency,
    })),
    reconciliation: reconciliation(story),
  };
}

/**
 * "testbank consent 1e5e…": the bank and consent a bulk was initiated under, as the story and
 * the console's payment page show it; null when not recorded (not sent yet, or sent before it was).
 */
export function sentUnder(
  bulk: { bankId?: string | null; consentId?: string | null } | null | undefined,
  locale: Locale = FALLBACK_LOCALE,
): string | null {
  if (!bulk || (bulk.bankId == null && bulk.consentId == null)) return null;
  return translate(locale, 'payments.payment.sentUnderValue', {
    bank: bulk.bankId ?? 'none',
    consent: bulk.consentId ?? 'none',
  });
}
