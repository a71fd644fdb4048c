// The approval notice: what a person with signing authority reads before approving a signing
// basket — every payment in it (creditor, masked account, amount, execution date, the ERP's
// reference), totals per debtor account and currency, when the link expires in the company's
// time zone and how many approvers the bank still needs. Two rules decide what one copy shows:
// the single-use SCA link only in the approvers' copies (e-mail, approvers-only folder), never in
// the reports folder others read; payroll lines only to people with the payroll role — anyone
// else sees their count and totals. Lines a person released from a hold of settle's payment
// controls are named after the table, with the rules that held them and who released them.
import { formatMinor } from '../../src/domain/money.js';
import { currencyExponent } from '../../src/domain/currency.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { formatInZone } from '../../src/domain/zoned-time.js';
import { textTable } from '../../src/formats/report/index.js';
import { maskIban } from './explain.js';

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
  /** "held by changed-account, released by kari and ola" for a line released from a hold. */
  releasedFromHold?: string;
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
  /** The SCA link: given for the approvers' copies only. */
  link?: string;
  /** Where the approvers find the link (said in the copy without it). */
  linkGoesTo?: string;
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

/** Totals per debtor account and currency, sorted by account then currency. */
export function noticeTotals(payments: readonly NoticePayment[]): NoticeTotal[] {
  const sums = new Map<string, { debtorIban: string; currency: string; payments: number; minor: bigint }>();
  for (const p of payments) {
    const key = `${p.debtorIban} ${p.currency}`;
    const sum = sums.get(key) ?? { debtorIban: p.debtorIban, currency: p.currency, payments: 0, minor: 0n };
    sum.payments += 1;
    sum.minor += p.minor;
    sums.set(key, sum);
  }
  return [...sums.values()]
    .sort((a, b) => a.debtorIban.localeCompare(b.debtorIban) || a.currency.localeCompare(b.currency))
    .map((s) => ({
      debtorIban: s.debtorIban,
      currency: s.currency,
      payments: s.payments,
      amount: decimal(s.minor, s.currency),
    }));
}

export function approversNeededText(n: number | undefined): string {
  return n === undefined ? 'not given by the bank' : String(n);
}

const table = (header: readonly string[], rows: readonly (readonly string[])[], right: ReadonlySet<number>) =>
  textTable(header, rows, right).map((l) => `  ${l}`);

export function approvalNoticeText(n: ApprovalNotice, copy: NoticeCopy): string {
  const expires = formatInZone(n.expiresAt, n.timeZone);
  const listed = n.payments.filter((p) => copy.payrollVisible || !p.payroll);
  const hidden = n.payments.length - listed.length;
  const linkPart = copy.link
    ? [
        'Approve them here (a person with signing authority for the company and the accounts):',
        `  ${copy.link}`,
        '',
        `The link works ONCE and expires ${expires}.`,
        'Opening it starts the identity check; do not forward it, and do not open it to "have a look".',
        'If it expires or is used without completing, settle issues a new one on its next run.',
      ]
    : [
        `The approval link went to ${copy.linkGoesTo ?? 'the approvers'}; it works once and expires ${expires}.`,
        'This copy does not hold it: ask an approver, or see docs/runbook.md if none received it.',
      ];
  return [
    `Payments of ${n.companyName} are waiting for approval at the bank.`,
    '',
    ...linkPart,
    '',
    `Signing basket: ${n.basketId}`,
    `Approvers the bank still needs: ${approversNeededText(n.approversNeeded)}`,
    `Payments: ${n.payments.length}`,
    '',
    'Totals per debtor account:',
    ...table(
      ['Debtor account', 'Currency', 'Payments', 'Amount'],
      noticeTotals(n.payments).map((t) => [maskIban(t.debtorIban), t.currency, String(t.payments), t.amount]),
      new Set([2, 3]),
    ),
    '',
    'Payments:',
    ...(listed.length > 0
      ? table(
          ['Creditor', 'Account', 'Amount', 'Currency', 'Execution date', 'ERP reference'],
          listed.map((p) => [
            p.creditorName,
            maskIban(p.creditorIban),
            decimal(p.minor, p.currency),
            p.currency,
            p.executionDate,
            p.endToEndId,
          ]),
          new Set([2]),
        )
      : []),
    ...releasedPart(listed),
    ...(hidden > 0
      ? [
          `  ${hidden} payroll payment(s) are counted in the totals above; they are listed only for people with the payroll role.`,
        ]
      : []),
    '',
  ].join('\n');
}

/** The listed lines a person released from a hold: checked by people at settle, not by the bank. */
function releasedPart(listed: readonly NoticePayment[]): string[] {
  const released = listed.filter((p) => p.releasedFromHold !== undefined);
  if (released.length === 0) return [];
  return [
    '',
    'Held by settle’s payment controls and released by a person (docs/controls.md):',
    ...released.map(
      (p) => `  ${p.endToEndId} (${p.creditorName}, ${maskIban(p.creditorIban)}): ${p.releasedFromHold!}`,
    ),
  ];
}
