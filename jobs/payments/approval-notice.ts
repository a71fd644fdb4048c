// The approval request a person with signing authority receives: a text file in the company's
// reports folder and, when SMTP is configured, the same text by e-mail. It carries the SCA link
// (the one thing approvers need), so the link goes only there — never to a log line.
import { formatMinor } from '../../src/domain/money.js';
import { currencyExponent } from '../../src/domain/currency.js';
import type { StoredBulk } from '../../src/store/index.js';
import { maskIban } from './explain.js';

export interface ApprovalNotice {
  companyName: string;
  basketId: string;
  link: string;
  expiresAt: Date;
  bulks: readonly StoredBulk[];
}

export function approvalNoticeText(n: ApprovalNotice): string {
  const totals = new Map<string, bigint>();
  let lines = 0;
  for (const b of n.bulks) {
    lines += b.lineCount;
    for (const [currency, minor] of Object.entries(b.totals))
      totals.set(currency, (totals.get(currency) ?? 0n) + BigInt(minor));
  }
  const amount = (currency: string, minor: bigint) =>
    `${formatMinor(minor, currencyExponent(currency) ?? 2)} ${currency}`;
  return [
    `Payments of ${n.companyName} are waiting for approval at the bank.`,
    '',
    `Approve them here (a person with signing authority for the company and the accounts):`,
    `  ${n.link}`,
    '',
    `The link works ONCE and expires ${n.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    'Opening it starts the identity check; do not forward it, and do not open it to "have a look".',
    'If it expires or is used without completing, settle issues a new one on its next run.',
    '',
    `Signing basket: ${n.basketId}`,
    `Bulks: ${n.bulks.length}, payments: ${lines}`,
    ...[...totals].sort(([a], [b]) => a.localeCompare(b)).map(([c, m]) => `Total ${amount(c, m)}`),
    '',
    'Bulk                                 Debtor account   Execution date  Payments  Amount',
    ...n.bulks.map((b) => {
      const sums = Object.entries(b.totals)
        .map(([c, m]) => amount(c, BigInt(m)))
        .join(', ');
      return `${b.id}  ${maskIban(b.debtorIban).padEnd(15)}  ${b.executionDate}      ${String(b.lineCount).padStart(8)}  ${sums}`;
    }),
    '',
  ].join('\n');
}
