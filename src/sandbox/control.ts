// The control API under /__sandbox/ (not part of the bank's API): reset, clock, payments as
// the bank holds them, faults, rejections, incoming credits, webhook subscriptions and SCA completion.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkIban } from '../domain/account-id.js';
import { formatAmount } from '../domain/money.js';
import { badRequest, notFound } from './problems.js';
import type { Sandbox } from './sandbox.js';
import { completeSca } from './sca.js';
import { requestedLine } from './views.js';
import { advanceClock, bookReturn } from './scheduler.js';
import { SEED } from './seed.js';
import { parseDuration } from './time.js';

type Body = Record<string, unknown>;

function body(req: FastifyRequest): Body {
  const b = req.body ?? {};
  if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('The body must be a JSON object.');
  return b as Body;
}

export function registerControl(app: FastifyInstance, sb: Sandbox): void {
  app.get('/__sandbox', () => ({
    now: sb.clock.now().toISOString(),
    baseUrl: sb.baseUrl,
    authUrl: `${sb.origin}/id`,
    tokenUrl: `${sb.origin}/id/${SEED.tenant}/connect/token`,
    seed: SEED,
    ...(sb.rateLimit
      ? { rateLimit: { perSecond: sb.rateLimit.perSecond, served: sb.rateLimit.served, refused: sb.rateLimit.refused } }
      : {}),
  }));

  app.post('/__sandbox/reset', (req) => {
    const b = body(req);
    if (b.start !== undefined && (typeof b.start !== 'string' || Number.isNaN(Date.parse(b.start))))
      throw badRequest('start must be an RFC 3339 instant.');
    sb.reset(typeof b.start === 'string' ? b.start : undefined);
    return { now: sb.clock.now().toISOString() };
  });

  app.get('/__sandbox/clock', () => ({ now: sb.clock.now().toISOString() }));
  app.post('/__sandbox/clock', (req) => {
    const b = body(req);
    let ms: number | undefined;
    if (typeof b.advance === 'string') ms = parseDuration(b.advance);
    else if (typeof b.advanceMs === 'number' && Number.isFinite(b.advanceMs) && b.advanceMs >= 0) ms = b.advanceMs;
    if (ms === undefined) throw badRequest('Send {"advance":"PT2H"} (ISO 8601 duration) or {"advanceMs":7200000}.');
    return { now: advanceClock(sb, ms).toISOString() };
  });

  app.get('/__sandbox/payments', () => ({
    payments: [...sb.state.bulks.values()].map((b) => ({
      paymentId: b.paymentId,
      clientId: b.clientId,
      subscriptionId: b.subscriptionId,
      resourceGroupName: b.resourceGroupName,
      debtorIban: b.debtorIban,
      debtorName: b.debtorName,
      requestedExecutionDate: b.requestedExecutionDate,
      batchBookingPreferred: b.batchBookingPreferred,
      idempotencyKey: b.idempotencyKey,
      consentId: b.consentId,
      createdAt: b.createdAt,
      transactionStatus: b.status,
      basketId: b.basketId,
      paymentLines: b.lines.map((l) => ({
        paymentId: l.paymentId,
        endToEndIdentification: l.endToEndIdentification,
        instructedAmount: { currency: l.currency, amount: formatAmount({ minor: l.minor, currency: l.currency }) },
        creditorIban: l.creditorIban,
        ...requestedLine(l),
        transactionStatus: l.status,
        tppMessage: l.tppMessages,
        history: l.history,
        transactionId: l.transactionId,
      })),
    })),
  }));

  // The bank finishing its side of an onboarding: an account that was not yet `enabled` becomes so.
  app.post<{ Params: { id: string } }>('/__sandbox/accounts/:id/enable', (req) => {
    const account = sb.state.accounts.get(req.params.id);
    if (account === undefined || account.status === 'deleted')
      throw notFound('Account not found', `No account ${req.params.id}.`);
    if (account.status !== 'enabled') {
      account.status = 'enabled';
      sb.emit('banking.account.status.updated', account, {
        id: account.id,
        name: account.name,
        displayName: account.displayName,
        accountStatus: 'enabled',
        _links: { self: sb.link(`/accounts/${account.id}`) },
      });
    }
    return { id: account.id, iban: account.iban, bankId: account.bankId, status: account.status };
  });

  app.get('/__sandbox/faults', () => ({
    latencyMs: sb.faults.latencyMs,
    webhooks: sb.faults.webhooks,
    faults: sb.faults.list(),
  }));
  app.post('/__sandbox/faults', (req) => {
    const b = body(req);
    if (b.seed !== undefined) {
      if (typeof b.seed !== 'number') throw badRequest('seed must be a number.');
      sb.faults.reseed(b.seed);
    }
    if (b.latencyMs !== undefined) {
      if (typeof b.latencyMs !== 'number' || b.latencyMs < 0)
        throw badRequest('latencyMs must be a non-negative number.');
      sb.faults.latencyMs = b.latencyMs;
    }
    if (b.faults !== undefined) {
      if (!Array.isArray(b.faults)) throw badRequest('faults must be an array.');
      for (const f of b.faults) sb.faults.add(f);
    }
    if (b.webhooks !== undefined) {
      const w = b.webhooks as Body;
      const rate = w.duplicateRate ?? sb.faults.webhooks.duplicateRate;
      if (typeof rate !== 'number' || rate < 0 || rate > 1)
        throw badRequest('webhooks.duplicateRate must be between 0 and 1.');
      sb.faults.webhooks = {
        duplicateRate: rate,
        reorder: w.reorder === undefined ? sb.faults.webhooks.reorder : w.reorder === true,
      };
    }
    if (b.revokeTokens === true) sb.state.tokens.clear();
    return { latencyMs: sb.faults.latencyMs, webhooks: sb.faults.webhooks, faults: sb.faults.list() };
  });
  app.delete('/__sandbox/faults', () => {
    sb.faults.clear();
    sb.faults.latencyMs = sb.options.latencyMs;
    return { faults: [] };
  });

  app.post('/__sandbox/rejections', (req) => {
    const b = body(req);
    const check = typeof b.iban === 'string' ? checkIban(b.iban) : undefined;
    if (!check?.ok) throw badRequest('iban must be a valid creditor IBAN.');
    const code = typeof b.code === 'string' ? b.code : 'AC01';
    const message = typeof b.message === 'string' ? b.message : 'Incorrect account number';
    sb.state.rejections.set(check.iban, { code, message });
    return { rejections: [...sb.state.rejections].map(([iban, r]) => ({ iban, ...r })) };
  });

  // A settled payment that comes back (the creditor's bank returns it): a credit on the debtor's
  // account, booked today, with the payment's end-to-end id and an ISO return reason code.
  app.post('/__sandbox/returns', (req, reply) => {
    const b = body(req);
    if (typeof b.endToEndId !== 'string') throw badRequest('endToEndId is required.');
    const code = typeof b.code === 'string' ? b.code : 'AC04';
    if (!/^[A-Z0-9]{4}$/.test(code)) throw badRequest('code must be an ISO return reason code such as AC04.');
    const message = typeof b.message === 'string' ? b.message : 'Account closed';
    const tx = bookReturn(sb, b.endToEndId, code, message);
    if (tx === undefined)
      throw notFound('Payment not found', `No settled payment line with end-to-end id ${b.endToEndId}.`);
    return reply.code(201).send({ transactionId: tx.transactionId, entryReference: tx.entryReference });
  });

  app.post('/__sandbox/subscriptions', (req, reply) => {
    const sub = sb.events.create(body(req));
    return reply.code(201).send({ ...sub, validationUrl: sb.events.validationUrl(sub) });
  });
  app.get('/__sandbox/subscriptions', () => ({ subscriptions: [...sb.events.subscriptions.values()] }));
  app.delete<{ Params: { id: string } }>('/__sandbox/subscriptions/:id', (req) => {
    sb.events.remove(req.params.id);
    return {};
  });
  app.get<{ Params: { id: string }; Querystring: { code?: string } }>(
    '/__sandbox/subscriptions/:id/validate',
    (req) => {
      if (!sb.events.validate(req.params.id, req.query.code ?? ''))
        throw notFound('Subscription not found', 'Unknown subscription or validation code.');
      return { status: 'active' };
    },
  );
  app.get('/__sandbox/events', () => ({ events: sb.events.log.map((e) => e.toJSON()) }));
  app.get('/__sandbox/failed-events', () => ({ data: sb.events.deadLetters }));

  const sca = (reply: FastifyReply, code: string, outcome: unknown): unknown => {
    if (outcome !== undefined && outcome !== 'finalised' && outcome !== 'finalized' && outcome !== 'failed')
      throw badRequest('outcome must be finalised or failed.');
    const result = completeSca(sb, code, outcome !== 'failed');
    if (result.redirect)
      return reply
        .code(302)
        .header('location', result.redirect)
        .send({ ...result });
    return reply.send({ ...result });
  };
  // The SCA link itself: opening it is the PSU authenticating (once).
  app.get<{ Params: { code: string }; Querystring: { outcome?: string } }>('/__sandbox/sca/:code', (req, reply) =>
    sca(reply, req.params.code, req.query.outcome),
  );
  app.post('/__sandbox/sca', (req, reply) => {
    const b = body(req);
    const ref = typeof b.link === 'string' ? b.link : typeof b.code === 'string' ? b.code : '';
    const code = ref.split('/').pop()?.split('?')[0] ?? '';
    if (!code) throw badRequest('Send {"link": "<scaRedirect href>"} or {"code": "..."}.');
    return sca(reply, code, b.outcome);
  });
}
