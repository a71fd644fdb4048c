// What a person needs beside a reconciliation finding: the payment or booking it is about, with
// counterparty and amount. A finding names its fact by settle's id (`payment <id>`, `booking <id>`,
// src/domain/reconcile/decisions.ts); a page of findings reads those in two queries, not one per row.
import type { Money } from '../domain/money.js';
import type { Database } from './database.js';
import type { StoredFinding } from './findings.js';
import { toStoredPayment, type StoredPayment } from './payments.js';
import { toBigInt, toOptStr, toStr, type Row } from './rows.js';

export interface FindingBooking {
  id: string;
  counterparty?: string;
  counterpartyIban?: string;
  amount: Money;
  bookingDate?: string;
  accountIban?: string;
}

export interface FindingFacts {
  /** Finding id → the payment it is about. */
  payments: ReadonlyMap<string, StoredPayment>;
  /** Finding id → the booking it is about. */
  bookings: ReadonlyMap<string, FindingBooking>;
}

function idsAfter(findings: readonly StoredFinding[], prefix: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const f of findings) if (f.subject.startsWith(prefix)) ids.set(f.id, f.subject.slice(prefix.length).trim());
  return ids;
}

export async function findingFacts(
  db: Database,
  company: string,
  findings: readonly StoredFinding[],
): Promise<FindingFacts> {
  const paymentIds = idsAfter(findings, 'payment ');
  const bookingIds = idsAfter(findings, 'booking ');
  const [paymentRows, bookingRows] = await Promise.all([
    paymentIds.size === 0
      ? []
      : db
          .knex<Row>('payments')
          .where({ company })
          .whereIn('id', [...new Set(paymentIds.values())]),
    bookingIds.size === 0
      ? []
      : (db
          .knex<Row>('transactions as t')
          .join('accounts as a', 'a.id', 't.account_id')
          .where('a.company', company)
          .whereIn('t.id', [...new Set(bookingIds.values())])
          .select(
            't.id',
            't.counterparty_name',
            't.counterparty_iban',
            't.amount_minor',
            't.currency',
            't.booking_date',
            'a.iban as account_iban',
          ) as Promise<Row[]>),
  ]);
  const paymentById = new Map(paymentRows.map((r) => [toStr(r.id), toStoredPayment(r)]));
  const bookingById = new Map(
    bookingRows.map((r): [string, FindingBooking] => {
      const counterparty = toOptStr(r.counterparty_name);
      const counterpartyIban = toOptStr(r.counterparty_iban);
      const bookingDate = toOptStr(r.booking_date);
      const accountIban = toOptStr(r.account_iban);
      return [
        toStr(r.id),
        {
          id: toStr(r.id),
          amount: { minor: toBigInt(r.amount_minor), currency: toStr(r.currency) },
          ...(counterparty ? { counterparty } : {}),
          ...(counterpartyIban ? { counterpartyIban } : {}),
          ...(bookingDate ? { bookingDate } : {}),
          ...(accountIban ? { accountIban } : {}),
        },
      ];
    }),
  );
  const payments = new Map<string, StoredPayment>();
  for (const [finding, id] of paymentIds) {
    const p = paymentById.get(id);
    if (p) payments.set(finding, p);
  }
  const bookings = new Map<string, FindingBooking>();
  for (const [finding, id] of bookingIds) {
    const b = bookingById.get(id);
    if (b) bookings.set(finding, b);
  }
  return { payments, bookings };
}
