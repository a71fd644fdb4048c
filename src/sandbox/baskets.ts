// Signing baskets (spec §2.7, §4.6): a basket of RCVD payments on pre-approved accounts; its
// authorisation gives an SCA link; when enough approvers finish, the payments are released.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { SigningBasket } from './model.js';
import { accessibleBulk } from './payments.js';
import { badRequest, conflict, forbidden, notFound } from './problems.js';
import { caller } from './request-info.js';
import type { Sandbox } from './sandbox.js';
import { issueScaLink, scaHref } from './sca.js';

type BasketReq = FastifyRequest<{ Params: { id: string; authId?: string } }>;

function basketView(sb: Sandbox, b: SigningBasket): Record<string, unknown> {
  const done = b.authorizations.filter((a) => a.scaStatus === 'finalised').length;
  return {
    basketId: b.basketId,
    paymentIds: b.paymentIds,
    transactionStatus: b.status,
    requiredAuthorizations: b.requiredAuthorizations,
    remainingAuthorizations: Math.max(0, b.requiredAuthorizations - done),
    authorizations: b.authorizations.map((a) => ({ authorizationId: a.authorizationId, scaStatus: a.scaStatus })),
    _links: {
      self: sb.link(`/signing-baskets/${b.basketId}`),
      startAuthorisation: sb.link(`/signing-baskets/${b.basketId}/authorizations`, 'post'),
    },
  };
}

export function registerBaskets(app: FastifyInstance, sb: Sandbox): void {
  const ownBasket = (req: BasketReq): SigningBasket => {
    const basket = sb.state.baskets.get(req.params.id);
    if (!basket) throw notFound('Signing basket not found');
    if (!caller(req).subscriptions.includes(basket.subscriptionId)) throw forbidden();
    return basket;
  };

  app.post('/api/signing-baskets', (req, reply) => {
    const client = caller(req);
    const body = req.body as { paymentIds?: unknown } | null;
    const ids = body?.paymentIds;
    if (!Array.isArray(ids) || ids.length === 0 || ids.some((i) => typeof i !== 'string'))
      throw badRequest('paymentIds must be a non-empty array of payment ids.');
    const bulkIds: string[] = [];
    for (const id of ids as string[]) {
      const bulkId = sb.state.bulks.has(id) ? id : sb.state.lineById(id)?.bulk.paymentId;
      if (!bulkId) throw notFound('Payment not found', `No payment ${id}.`);
      if (!bulkIds.includes(bulkId)) bulkIds.push(bulkId);
    }
    const bulks = bulkIds.map((id) => accessibleBulk(sb, req, client, id));
    let required = 1;
    for (const bulk of bulks) {
      const account = sb.state.accounts.get(bulk.accountId);
      if (!account?.preApproval)
        throw badRequest(
          `Payment ${bulk.paymentId} is on an account without pre-approval; it needs no signing basket.`,
        );
      if (bulk.status !== 'RCVD' || bulk.releasedAt !== null)
        throw badRequest(`Payment ${bulk.paymentId} is ${bulk.status} and can no longer be approved.`);
      const other = bulk.basketId ? sb.state.baskets.get(bulk.basketId) : undefined;
      if (other && other.status !== 'RJCT')
        throw conflict(`Payment ${bulk.paymentId} is already in signing basket ${other.basketId}.`);
      required = Math.max(required, account.numberOfApprovers);
    }
    // Each bank signs its own payments: a basket with payments of two banks is refused.
    const banks = new Set(bulks.map((b) => sb.state.accounts.get(b.accountId)?.bankId));
    if (banks.size > 1)
      throw badRequest(`A signing basket holds the payments of one bank; these are at ${[...banks].join(' and ')}.`);
    const redirect = req.headers['tpp-redirect-uri'];
    const basket: SigningBasket = {
      basketId: randomUUID(),
      clientId: client.clientId,
      subscriptionId: bulks[0]?.subscriptionId ?? '',
      paymentIds: bulkIds,
      status: 'RCVD',
      requiredAuthorizations: required,
      authorizations: [],
      tppRedirectUri: typeof redirect === 'string' ? redirect : null,
      createdAt: sb.clock.now().toISOString(),
    };
    sb.state.baskets.set(basket.basketId, basket);
    for (const bulk of bulks) bulk.basketId = basket.basketId;
    return reply
      .code(201)
      .header('location', `${sb.baseUrl}/signing-baskets/${basket.basketId}`)
      .send(basketView(sb, basket));
  });

  app.get('/api/signing-baskets/:id', (req: BasketReq) => basketView(sb, ownBasket(req)));

  app.post('/api/signing-baskets/:id/authorizations', (req: BasketReq, reply) => {
    const basket = ownBasket(req);
    if (basket.status !== 'RCVD') throw conflict(`The basket is ${basket.status}; it needs no further authorisation.`);
    const redirect = req.headers['tpp-redirect-uri'];
    const authorizationId = randomUUID();
    const link = issueScaLink(
      sb,
      'basket',
      basket.basketId,
      authorizationId,
      typeof redirect === 'string' ? redirect : basket.tppRedirectUri,
    );
    basket.authorizations.push({ authorizationId, scaStatus: 'started', linkCode: link.code });
    const self = sb.link(`/signing-baskets/${basket.basketId}/authorizations/${authorizationId}`);
    return reply
      .code(201)
      .header('location', self.href)
      .send({ scaStatus: 'started', authorizationId, _links: { scaRedirect: { href: scaHref(sb, link) }, self } });
  });

  app.get('/api/signing-baskets/:id/authorizations/:authId', (req: BasketReq) => {
    const basket = ownBasket(req);
    const auth = basket.authorizations.find((a) => a.authorizationId === req.params.authId);
    if (!auth) throw notFound('Authorization not found');
    return { authorizationId: auth.authorizationId, scaStatus: auth.scaStatus };
  });
}
