// Transactions (spec §4.3): dateFrom and bookingStatus required, dateTo defaults to today,
// cursor paging with _links nested inside `transactions` (facts §2.6).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessibleAccount } from './access.js';
import { paginate } from './paging.js';
import { badRequest, notFound } from './problems.js';
import { date, one, type Query } from './query.js';
import { caller } from './request-info.js';
import type { Sandbox } from './sandbox.js';
import { bankToday } from './time.js';
import { accountReference, pendingView, transactionView } from './views.js';

const BOOKING_STATUSES = ['booked', 'pending', 'both', 'information', 'all'] as const;

export function registerTransactions(app: FastifyInstance, sb: Sandbox): void {
  app.get('/api/accounts/:id/transactions', (req: FastifyRequest<{ Params: { id: string }; Querystring: Query }>) => {
    const account = accessibleAccount(sb, req, caller(req), req.params.id);
    const q = req.query;
    const from = date(q, 'dateFrom');
    if (from === undefined) throw badRequest('dateFrom is required.');
    const statusText = one(q, 'bookingStatus');
    if (statusText === undefined) throw badRequest('bookingStatus is required.');
    const status = BOOKING_STATUSES.find((s) => s === statusText.toLowerCase());
    if (status === undefined) throw badRequest(`bookingStatus must be one of ${BOOKING_STATUSES.join(', ')}.`);
    const to = date(q, 'dateTo') ?? bankToday(sb.clock.now());
    if (from > to) throw badRequest('dateFrom must not be after dateTo.');
    const typeText = one(q, 'transactionType')?.toLowerCase();
    if (typeText !== undefined && typeText !== 'credit' && typeText !== 'debit')
      throw badRequest('transactionType must be credit or debit.');
    const sourceText = one(q, 'transactionSource')?.toLowerCase();
    if (sourceText !== undefined && sourceText !== 'payment' && sourceText !== 'bank')
      throw badRequest('transactionSource must be payment or bank.');

    type Item = { booked: boolean; view: Record<string, unknown> };
    const items: Item[] = [];
    if (status === 'booked' || status === 'both' || status === 'all') {
      const booked = sb.state
        .transactionsOf(account.id)
        .filter((t) => t.bookingDate >= from && t.bookingDate <= to)
        .filter((t) => typeText === undefined || t.transactionType === typeText)
        .filter((t) => sourceText === undefined || (t.paymentId ? 'payment' : 'bank') === sourceText)
        .sort((a, b) =>
          a.bookingDate === b.bookingDate
            ? a.entryReference.localeCompare(b.entryReference)
            : a.bookingDate < b.bookingDate
              ? -1
              : 1,
        );
      // One by one: an account seeded with a million bookings is more than a spread call takes.
      for (const t of booked) items.push({ booked: true, view: transactionView(sb, t) });
    }
    if (
      (status === 'pending' || status === 'both' || status === 'all') &&
      typeText !== 'credit' &&
      sourceText !== 'bank'
    ) {
      for (const bulk of sb.state.bulks.values()) {
        if (bulk.accountId !== account.id) continue;
        for (const line of bulk.lines)
          if (line.status === 'ACSP') items.push({ booked: false, view: pendingView(sb, bulk, line) });
      }
    }
    const page = paginate(sb, items, `/accounts/${account.id}/transactions`, q);
    return {
      account: accountReference(account),
      transactions: {
        booked: page.items.filter((i) => i.booked).map((i) => i.view),
        pending: page.items.filter((i) => !i.booked).map((i) => i.view),
        _links: page.links,
      },
    };
  });

  app.get(
    '/api/accounts/:accountId/transactions/:id',
    (req: FastifyRequest<{ Params: { accountId: string; id: string }; Querystring: Query }>) => {
      const account = accessibleAccount(sb, req, caller(req), req.params.accountId);
      const tx = sb.state.transactionsOf(account.id).find((t) => t.transactionId === req.params.id);
      if (!tx) throw notFound('Transaction not found', `No transaction ${req.params.id} on this account.`);
      return { transactionsDetails: transactionView(sb, tx) };
    },
  );
}
