// One payment's whole story as a person reads it (`settle payments show`), in the company's
// language (src/i18n/messages/cli.ts). It is written from the story's JSON (payment-story.ts),
// which scripts read and which stays language-neutral. In English the figures stay as operators
// have always read them (48250.00 NOK, ISO dates, times with the zone's name); in another
// language amounts, dates and times are written as that language writes them.
import { parseAmount } from '../../src/domain/money.js';
import { PAYMENT_STATES, type PaymentState } from '../../src/domain/states.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { formatInZone } from '../../src/domain/zoned-time.js';
import { textTable } from '../../src/formats/report/index.js';
import type { RecordedText } from '../../src/domain/recorded-text.js';
import {
  codeCell,
  codeWords,
  format,
  historyStateKind,
  paymentStateLabel,
  recordedSentence,
  translate,
  type Locale,
  type MessageKey,
  type MessageValues,
} from '../../src/i18n/index.js';
import { sentUnder, type PaymentStoryJson, type StorySource, type StoryEvent } from './payment-story.js';

/** How amounts, dates and times are written in the language. */
function formats(locale: Locale) {
  if (locale === 'en')
    return {
      money: (amount: string, currency: string) => `${amount} ${currency}`,
      amount: (amount: string) => amount,
      date: (d: string) => d,
      at: (iso: string, zone: string) => formatInZone(new Date(iso), zone),
    };
  const minor = (amount: string, currency: string) => {
    const negative = amount.startsWith('-');
    const parsed = parseAmount(negative ? amount.slice(1) : amount, currency);
    if (!parsed.ok) return undefined;
    return { minor: negative ? -parsed.money.minor : parsed.money.minor, currency };
  };
  return {
    money: (amount: string, currency: string) => {
      const m = minor(amount, currency);
      return m ? format.money(m, locale) : `${amount} ${currency}`;
    },
    amount: (amount: string, currency: string) => {
      const m = minor(amount, currency);
      return m ? format.amount(m, locale) : amount;
    },
    date: (d: string) => format.date(d as LocalDate, locale),
    at: (iso: string, zone: string) => format.dateTime(new Date(iso), zone, locale),
  };
}

const STATES: ReadonlySet<string> = new Set(PAYMENT_STATES);

/** The history's entities as the transitions name them (their words are the console's). */
const ENTITY_CODE: Readonly<Record<StoryEvent['entity'], string>> = {
  file: 'payment_file',
  bulk: 'bulk',
  basket: 'basket',
  payment: 'payment',
};

/** The story's sources as the catalogue's `states.source.*` names them. */
const SOURCE_CODE: Readonly<Record<StorySource, string>> = {
  poll: 'poll',
  webhook: 'event',
  'bank lookup': 'lookup',
  operator: 'operator',
  settle: 'settle',
};

/** A history's row: English keeps the codes; another language has words with the code beside them. */
/** A history row after its time: what, from, to, source, and the cause as the reader reads it. */
function historyRow(e: StoryEvent, locale: Locale, cause: string): string[] {
  const entity = ENTITY_CODE[e.entity];
  const state = (code: string) => codeCell(historyStateKind(entity, code), code, locale);
  const words = codeWords('source', SOURCE_CODE[e.source], locale);
  const source =
    locale === 'en' || words === undefined
      ? e.source
      : translate(locale, 'states.withCode', { label: words, code: e.source });
  // English keeps the story's own codes (`file`, as `--json` has them); another language, words.
  const what = locale === 'en' ? e.entity : codeCell('entity', entity, locale);
  return [what, e.from === null ? '-' : state(e.from), state(e.to), source, cause];
}

/**
 * The line's state. English keeps the codes operators have always read ("RJCT (bank status
 * RJCT)"); another language says it in words with the code beside it ("Avvist av banken (RJCT)"),
 * and names the bank's status only where it differs.
 */
function stateText(story: PaymentStoryJson, locale: Locale): string {
  const { state, bankStatus } = story;
  if (locale === 'en' || !STATES.has(state)) {
    return bankStatus ? translate(locale, 'cli.story.stateBank', { state, bankStatus }) : state;
  }
  const words = translate(locale, 'lineState.withCode', {
    label: paymentStateLabel(state as PaymentState, locale),
    code: state,
  });
  return bankStatus && bankStatus !== state
    ? translate(locale, 'cli.story.stateBank', { state: words, bankStatus })
    : words;
}

/**
 * `causes` are the history's causes as recorded text, in the history's order (absent for a move
 * recorded with its English alone): each reads in `locale`, else as its English.
 */
export function paymentStoryText(
  story: PaymentStoryJson,
  timeZone: string,
  locale: Locale = 'en',
  causes: readonly (RecordedText | undefined)[] = [],
): string {
  const say = (key: MessageKey, values?: MessageValues) => translate(locale, key, values);
  const f = formats(locale);
  const when = (iso: string | null) => (iso === null ? '-' : f.at(iso, timeZone));
  const names: [MessageKey, string | null | number][] = [
    ['cli.story.file', say('cli.story.fileLine', { file: story.file.name ?? story.file.id, line: story.file.line })],
    [
      'cli.story.received',
      say('cli.story.receivedAt', {
        at: when(story.file.receivedAt),
        format: story.file.format ?? say('cli.story.formatUnknown'),
      }),
    ],
    [
      'cli.story.creditor',
      `${story.creditor.name}, ${story.creditor.iban}${story.creditor.bic ? ` (${story.creditor.bic})` : ''}${creditorIds(story.creditor, say)}`,
    ],
    ['cli.story.debtor', `${story.debtor.name}, ${story.debtor.iban}`],
    ['cli.story.amount', f.money(story.amount, story.currency)],
    ['cli.story.executionDate', f.date(story.executionDate)],
    ['cli.story.creditorReference', story.creditorReference],
    ['cli.story.remittance', story.remittanceInformation],
    ['cli.story.state', stateText(story, locale)],
    ...story.bankMessages.map(
      (m) => ['cli.story.bankSays', `${m.code ?? ''} ${m.message ?? ''}`.trim()] as [MessageKey, string],
    ),
    [
      'cli.story.bulk',
      story.bulk
        ? say('cli.story.bulkState', {
            bulk: story.bulk.id,
            state: codeCell('bulk', story.bulk.state, locale),
            attempts: story.bulk.attempts,
          })
        : null,
    ],
    ['cli.story.bankPaymentId', story.bulk?.bankPaymentId ?? null],
    ['cli.story.sentUnder', sentUnder(story.bulk, locale)],
    ['cli.story.idempotencyKey', story.bulk?.idempotencyKey ?? null],
    [
      'cli.story.basket',
      story.basket
        ? say('cli.story.basketState', {
            basket: story.basket.id,
            state: codeCell('basket', story.basket.state, locale),
            bankId: story.basket.bankBasketId ?? 'none',
            expires: story.basket.linkExpiresAt ? when(story.basket.linkExpiresAt) : 'none',
          })
        : null,
    ],
    ['cli.story.reconciliation', reconciled(story, say, f)],
  ];
  const labels = names.map(([key]) => `${say(key)}:`);
  const width = Math.max(20, ...labels.map((l) => l.length + 1));
  const history = textTable(
    (['when', 'what', 'from', 'to', 'source', 'cause'] as const).map((h) => say(`cli.story.history.${h}`)),
    story.history.map((e, i) => [
      when(e.at),
      ...historyRow(e, locale, recordedSentence(locale, e.cause, causes[i], { timeZone })),
    ]),
  );
  const bookings = textTable(
    (['date', 'account', 'amount', 'currency', 'status', 'transaction'] as const).map((h) =>
      say(`cli.story.bookings.${h}`),
    ),
    story.bookings.map((b) => [
      b.bookingDate ? f.date(b.bookingDate) : '-',
      b.account ?? '-',
      f.amount(b.amount, b.currency),
      b.currency,
      b.status,
      b.bankTransactionId,
    ]),
    new Set([2]),
  );
  return [
    say('cli.story.title', { e2e: story.endToEndId, company: story.company }),
    ...names.map(([, value], i) => `  ${labels[i]!.padEnd(width)}${value ?? '-'}`),
    '',
    say('cli.story.history'),
    ...history.map((l) => `  ${l}`),
    '',
    say('cli.story.bookings'),
    ...(story.bookings.length === 0 ? [`  ${say('cli.story.noBookings')}`] : bookings.map((l) => `  ${l}`)),
    '',
  ].join('\n');
}

/** ", org. no. 999888777 (ORGNR), ERP creditor id K-1001", or '' when the ERP gave neither. */
function creditorIds(
  c: PaymentStoryJson['creditor'],
  say: (key: MessageKey, values?: MessageValues) => string,
): string {
  const org =
    c.orgId === null
      ? ''
      : c.orgScheme === null
        ? say('cli.story.creditorOrg', { org: c.orgId })
        : say('cli.story.creditorOrgScheme', { org: c.orgId, scheme: c.orgScheme });
  return `${org}${c.erpId === null ? '' : say('cli.story.creditorErp', { id: c.erpId })}`;
}

/** What the bookings mean for reconciliation (the JSON's result, said in the language). */
function reconciled(
  story: PaymentStoryJson,
  say: (key: MessageKey, values?: MessageValues) => string,
  f: ReturnType<typeof formats>,
): string {
  const booked = story.bookings.filter((b) => b.status === 'booked');
  const sent = f.money(story.amount, story.currency);
  const one = booked[0];
  switch (story.reconciliation.result) {
    case 'matched':
      return say('cli.story.reconciled', {
        result: 'matched',
        booked: one?.bookingDate ? f.date(one.bookingDate) : '',
        sent,
      }).replace('  ', ' ');
    case 'amount differs':
      return say('cli.story.reconciled', {
        result: 'differs',
        booked: one ? f.money(one.amount, one.currency) : '',
        sent,
      });
    case 'booked more than once':
      return say('cli.story.reconciled', { result: 'many', count: booked.length });
    case 'not booked':
      return say('cli.story.reconciled', { result: story.state === 'ACSC' ? 'settled' : 'notBooked' });
    case 'nothing to book':
      return say('cli.story.reconciled', { result: 'nothing', state: story.state });
  }
}
