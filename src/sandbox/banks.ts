// The bank directory (spec §4.4): list without auth, one bank with auth. bankIds are exact
// and case-sensitive.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { paginate } from './paging.js';
import { badRequest, notFound } from './problems.js';
import { bool, list, one, type Query } from './query.js';
import { caller } from './request-info.js';
import type { Sandbox } from './sandbox.js';
import { bankView } from './views.js';

export function registerBanks(app: FastifyInstance, sb: Sandbox): void {
  app.get<{ Querystring: Query }>('/api/banks', { config: { public: true } }, (req) => {
    const q = req.query;
    const country = one(q, 'countryCode');
    if (country !== undefined && !/^[A-Za-z]{2}$/.test(country))
      throw badRequest('countryCode must be exactly 2 letters (ISO 3166-1 alpha-2).');
    const channels = list(q, 'channels')?.map((c) => c.toLowerCase());
    const additional = bool(q, 'includeAdditionalInformation') ?? false;
    const banks = [...sb.state.banks.values()].filter(
      (b) =>
        (country === undefined || b.countryCode === country.toUpperCase()) &&
        (channels === undefined || b.channels.some((c) => channels.includes(c.toLowerCase()))),
    );
    const page = paginate(sb, banks, '/banks', q);
    return { banks: page.items.map((b) => bankView(b, additional)), _links: page.links };
  });

  app.get('/api/banks/:bankId', (req: FastifyRequest<{ Params: { bankId: string }; Querystring: Query }>) => {
    caller(req);
    const bank = sb.state.banks.get(req.params.bankId);
    if (!bank)
      throw notFound('Bank not found', `No bank ${req.params.bankId}; take bankId exactly as GET /banks lists it.`);
    const channels = list(req.query, 'channels')?.map((c) => c.toLowerCase());
    if (channels !== undefined && !bank.channels.some((c) => channels.includes(c.toLowerCase())))
      throw notFound('Bank not found', 'The bank offers none of the requested channels.');
    return bankView(bank, bool(req.query, 'includeAdditionalInformation') ?? false);
  });
}
