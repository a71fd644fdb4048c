// Account information (spec §4.3): accounts, one account, delete, parameters, balances.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { normalizeIban } from '../domain/account-id.js';
import { accessibleAccount, inScope, requestScopes } from './access.js';
import { paginate } from './paging.js';
import { badRequest } from './problems.js';
import { bool, date, one, type Query } from './query.js';
import { caller } from './request-info.js';
import type { Sandbox } from './sandbox.js';
import { bankToday } from './time.js';
import { accountReference, accountView, balanceSeries } from './views.js';

export const BALANCE_TYPES = [
  'closingBooked',
  'openingBooked',
  'expected',
  'interimAvailable',
  'interimBooked',
  'forwardAvailable',
  'nonInvoiced',
] as const;

type IdReq = FastifyRequest<{ Params: { id: string }; Querystring: Query }>;

export function registerAccounts(app: FastifyInstance, sb: Sandbox): void {
  app.get<{ Querystring: Query }>('/api/accounts', (req) => {
    const client = caller(req);
    const q = req.query;
    const scopes = requestScopes(sb, req, client);
    if (scopes === null)
      throw badRequest(
        'Send Subscription-Id and Resource-Group-Name (or Scopes, or Consent-ID) to choose the data-access context.',
      );
    const withBalance = bool(q, 'withBalance') ?? false;
    const balanceDate = date(q, 'balanceDate') ?? bankToday(sb.clock.now());
    const iban = one(q, 'iban');
    const bban = one(q, 'bban');
    const search = one(q, 'search')?.toLowerCase();
    const accounts = [...sb.state.accounts.values()].filter(
      (a) =>
        a.status !== 'deleted' &&
        inScope(scopes, a) &&
        (iban === undefined || a.iban === normalizeIban(iban)) &&
        (bban === undefined || a.bban === bban.replace(/[\s.]/g, '')) &&
        (search === undefined ||
          [a.name, a.displayName, a.iban, a.bban, a.ownerName].some((f) => f.toLowerCase().includes(search))),
    );
    const page = paginate(sb, accounts, '/accounts', q);
    return {
      accounts: page.items.map((a) => accountView(sb, a, withBalance ? balanceDate : undefined)),
      _links: page.links,
    };
  });

  app.get('/api/accounts/:id', (req: IdReq) => {
    const account = accessibleAccount(sb, req, caller(req), req.params.id);
    return accountView(sb, account, date(req.query, 'balanceDate') ?? bankToday(sb.clock.now()));
  });

  app.delete('/api/accounts/:id', (req: IdReq, reply) => {
    const account = accessibleAccount(sb, req, caller(req), req.params.id);
    account.status = 'deleted';
    sb.emit('banking.account.status.updated', account, {
      id: account.id,
      name: account.name,
      displayName: account.displayName,
      accountStatus: 'deleted',
      _links: { self: sb.link(`/accounts/${account.id}`) },
    });
    return reply.code(202).send();
  });

  app.get('/api/accounts/:id/parameters', (req: IdReq) => {
    const account = accessibleAccount(sb, req, caller(req), req.params.id);
    return {
      account: accountReference(account),
      preApproval: account.preApproval,
      numberOfApprovers: account.numberOfApprovers,
      _links: { self: sb.link(`/accounts/${account.id}/parameters`), account: sb.link(`/accounts/${account.id}`) },
    };
  });

  app.get('/api/accounts/:id/balances', (req: IdReq) => {
    const account = accessibleAccount(sb, req, caller(req), req.params.id);
    const q = req.query;
    const today = bankToday(sb.clock.now());
    const from = date(q, 'dateFrom') ?? today;
    const to = date(q, 'dateTo') ?? today;
    if (from > to) throw badRequest('dateFrom must not be after dateTo.');
    const typeText = one(q, 'type');
    const type =
      typeText === undefined ? undefined : BALANCE_TYPES.find((t) => t.toLowerCase() === typeText.toLowerCase());
    if (typeText !== undefined && type === undefined)
      throw badRequest(`type must be one of ${BALANCE_TYPES.join(', ')}.`);
    const balances = balanceSeries(sb, account, from, to).filter((b) => type === undefined || b.balanceType === type);
    const page = paginate(sb, balances, `/accounts/${account.id}/balances`, q);
    return { account: accountReference(account), balances: page.items, _links: page.links };
  });
}
