// The approval notice: what a person with signing authority reads before approving a signing
// basket — every payment in it (creditor, masked account, amount, execution date, the ERP's
// reference), totals per debtor account and currency, when the link expires in the company's
// time zone and how many approvers the bank still needs. Two rules decide what one copy shows:
// the single-use approval link only in the approvers' copies (e-mail, approvers-only folder), never in
// the reports folder others read; payroll lines only to people with the payroll role — anyone
// else sees their count and totals. Lines a person released from a hold of settle's payment
// controls are named after the table, with the rules that held them and who released them.
// Every sentence comes from the catalogue in the company's language (docs/i18n.md). English keeps
// the figures approvers have always read ("57475.50" beside its currency, ISO dates, the expiry
// with its zone name); other languages write money, dates and times as their readers do.
import { formatMinor } from '../../src/domain/money.js';
import { currencyExponent } from '../../src/domain/currency.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { formatInZone } from '../../src/domain/zoned-time.js';
import { textTable } from '../../src/formats/report/index.js';
import { codeCell, format, translate, type Locale, type MessageKey, type MessageValues } from '../../src/i18n/index.js';
import { maskIban } from '../payments/index.js';

export interface NoticePayment {
  debtorIban: string;
  creditorName: string;
  creditorIban: string;
  /** Minor units. */
  minor: bigint;
  currency: string;
  executionDate: LocalDate;
  /** The ERP's own reference of the line (its end-to-end id). */
  endToEndId: string;
  payroll: boolean;
  /** For a line a person released from a hold: the rules that held it and who released it. */
  releasedFromHold?: { rules: readonly string[]; releasedBy: readonly string[] };
}

export interface ApprovalNotice {
  companyName: string;
  basketId: string;
  expiresAt: Date;
  /** The company's time zone: the expiry is shown in it. */
  timeZone: string;
  /** The bank's remainingAuthorizations; undefined when the bank does not say. */
  approversNeeded?: number;
  payments: readonly NoticePayment[];
}

export interface NoticeCopy {
  /** The approval link: given for the approvers' copies only. */
  link?: string;
  /**
   * Where the approvers find the link (said in the copy without it): by e-mail, in the approvers'
   * folder, both, or nowhere yet; unset says "the approvers".
   */
  linkGoesTo?: { email: boolean; folder?: string };
  /** The reader holds the payroll role: payroll lines are listed one by one. */
  payrollVisible: boolean;
}

export interface NoticeTotal {
  debtorIban: string;
  currency: string;
  payments: number;
  /** Decimal string, e.g. "1250.00". */
  amount: string;
}

export const decimal = (minor: bigint, currency: string): string => formatMinor(minor, currencyExponent(currency) ?? 2);

interface AccountSum {
  debtorIban: string;
  currency: string;
  payments: number;
  minor: bigint;
}

/** The exact sums per debtor account and currency, sorted by account then currency. */
function accountSums(payments: readonly NoticePayment[]): AccountSum[] {
  const sums = new Map<string, AccountSum>();
  for (const p of payments) {
    const key = `${p.debtorIban} ${p.currency}`;
    const sum = sums.get(key) ?? { debtorIban: p.debtorIban, currency: p.currency, payments: 0, minor: 0n };
    sum.payments += 1;
    sum.minor += p.minor;
    sums.set(key, sum);
  }
  return [...sums.values()].sort(
    (a, b) => a.debtorIban.localeCompare(b.debtorIban) || a.currency.localeCompare(b.currency),
  );
}

/** Totals per debtor account and currency, sorted by account then currency. */
export function noticeTotals(payments: readonly NoticePayment[]): NoticeTotal[] {
  return accountSums(payments).map((s) => ({
    debtorIban: s.debtorIban,
    currency: s.currency,
    payments: s.payments,
    amount: decimal(s.minor, s.currency),
  }));
}

/** How one language writes the notice's figures. */
interface NoticeFormats {
  /** The amount cell; `namesCurrency` when it carries its currency, so no Currency column is needed. */
  amount(minor: bigint, currency: string): string;
  namesCurrency: boolean;
  date(d: LocalDate): string;
  expiry(at: Date, timeZone: string): string;
}

function noticeFormats(locale: Locale): NoticeFormats {
  if (locale === 'en')
    return {
      amount: decimal,
      namesCurrency: false,
      date: (d) => d,
      expiry: (at, timeZone) => formatInZone(at, timeZone),
    };
  return {
    amount: (minor, currency) => format.money({ minor, currency }, locale),
    namesCurrency: true,
    date: (d) => format.date(d, locale),
    expiry: (at, timeZone) => format.dateTime(at, timeZone, locale),
  };
}

/** The subject of the approvers' e-mail. */
export function approvalNoticeSubject(companyName: string, locale: Locale): string {
  return translate(locale, 'notice.approval.subject', { company: companyName });
}

interface Column<R> {
  header: MessageKey;
  cell(row: R): string;
  right?: boolean;
}

/** A table of the notice, indented, with headers in the language; a column may be left out. */
function table<R>(locale: Locale, columns: readonly (Column<R> | false)[], rows: readonly R[]): string[] {
  const shown = columns.filter((c): c is Column<R> => c !== false);
  const right = new Set(shown.flatMap((c, i) => (c.right ? [i] : [])));
  return textTable(
    shown.map((c) => translate(locale, c.header)),
    rows.map((r) => shown.map((c) => c.cell(r))),
    right,
  ).map((l) => `  ${l}`);
}

function linkWentTo(goesTo: NoticeCopy['linkGoesTo']): MessageValues {
  if (goesTo === undefined) return { to: 'unnamed', folder: '' };
  const to = goesTo.email ? (goesTo.folder ? 'both' : 'email') : goesTo.folder ? 'folder' : 'none';
  return { to, folder: goesTo.folder ?? '' };
}

export function approvalNoticeText(n: ApprovalNotice, copy: NoticeCopy, locale: Locale = 'en'): string {
  const say = (key: MessageKey, values?: MessageValues) => translate(locale, key, values);
  const f = noticeFormats(locale);
  const expires = f.expiry(n.expiresAt, n.timeZone);
  const listed = n.payments.filter((p) => copy.payrollVisible || !p.payroll);
  const hidden = n.payments.length - listed.length;
  const linkPart = copy.link
    ? [
        say('notice.approval.approveHere'),
        `  ${copy.link}`,
        '',
        say('notice.approval.linkOnce', { expires }),
        say('notice.approval.doNotForward'),
        say('notice.approval.reissued'),
      ]
    : [
        say('notice.approval.linkWentTo', { ...linkWentTo(copy.linkGoesTo), expires }),
        say('notice.approval.noLinkHere'),
      ];
  return [
    say('notice.approval.waiting', { company: n.companyName }),
    '',
    ...linkPart,
    '',
    say('notice.approval.basket', { basket: n.basketId }),
    say('notice.approval.approversNeeded', {
      needed: n.approversNeeded === undefined ? 'unknown' : String(n.approversNeeded),
    }),
    say('notice.approval.paymentCount', { count: String(n.payments.length) }),
    '',
    say('notice.approval.totals'),
    ...table<AccountSum>(
      locale,
      [
        { header: 'notice.approval.column.debtorAccount', cell: (t) => maskIban(t.debtorIban) },
        !f.namesCurrency && { header: 'notice.approval.column.currency', cell: (t) => t.currency },
        { header: 'notice.approval.column.payments', cell: (t) => String(t.payments), right: true },
        {
          header: 'notice.approval.column.amount',
          cell: (t) => f.amount(t.minor, t.currency),
          right: true,
        },
      ],
      accountSums(n.payments),
    ),
    '',
    say('notice.approval.payments'),
    ...(listed.length > 0
      ? table<NoticePayment>(
          locale,
          [
            { header: 'notice.approval.column.creditor', cell: (p) => p.creditorName },
            { header: 'notice.approval.column.account', cell: (p) => maskIban(p.creditorIban) },
            { header: 'notice.approval.column.amount', cell: (p) => f.amount(p.minor, p.currency), right: true },
            !f.namesCurrency && { header: 'notice.approval.column.currency', cell: (p) => p.currency },
            { header: 'notice.approval.column.executionDate', cell: (p) => f.date(p.executionDate) },
            { header: 'notice.approval.column.reference', cell: (p) => p.endToEndId },
          ],
          listed,
        )
      : []),
    ...releasedPart(listed, locale),
    ...(hidden > 0 ? [`  ${say('notice.approval.payrollHidden', { count: hidden })}`] : []),
    '',
  ].join('\n');
}

/** The listed lines a person released from a hold: checked by people at settle, not by the bank. */
function releasedPart(listed: readonly NoticePayment[], locale: Locale): string[] {
  const released = listed.filter((p) => p.releasedFromHold !== undefined);
  if (released.length === 0) return [];
  return [
    '',
    translate(locale, 'notice.approval.released'),
    ...released.map((p) => {
      const hold = p.releasedFromHold!;
      return `  ${translate(locale, 'notice.approval.releasedLine', {
        reference: p.endToEndId,
        creditor: p.creditorName,
        account: maskIban(p.creditorIban),
        // English lists the rules' codes as approvers have always read them (changed-account,
        // limit-line); another language names each rule with its code beside it.
        rules: hold.rules.map((r) => codeCell('rule', r, locale)).join(', '),
        releasers: hold.releasedBy.length,
        people: format.list(hold.releasedBy, locale),
      })}`;
    }),
  ];
}
