// Bulk credit transfers (spec §4.6): create → RCVD, read the bulk, read one line, status.
// Progression happens on the clock (scheduler.ts), never inside a request.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { inScope, requestScopes } from './access.js';
import type { Account, BulkPayment, Client, PaymentLine } from './model.js';
import { parseBulkRequest, type ParsedLine } from './payment-request.js';
import { paginate } from './paging.js';
import { badRequest, conflict, forbidden, notFound, unauthorized } from './problems.js';
import { date, one, type Query } from './query.js';
import { caller, info } from './request-info.js';
import type { Sandbox } from './sandbox.js';
import { updateBulkStatus } from './scheduler.js';
import { newBulkPaymentId } from './state.js';
import { BANK_TIME_ZONE, bankToday } from './time.js';
import { cutOffVerdict } from '../domain/cut-off.js';
import { bulkView, singlePaymentView } from './views.js';

const PRODUCTS = new Set(['credit-transfer', 'creditTransfer']);
const PAYMENT_STATUSES = ['RCVD', 'ACTC', 'ACSP', 'ACSC', 'RJCT', 'PART', 'CANC', 'PDNG'] as const;

type PaymentReq = FastifyRequest<{ Params: { product: string; id: string } }>;

function checkProduct(product: string): void {
  if (!PRODUCTS.has(product))
    throw notFound('Payment product not supported', `Only credit-transfer is offered, not ${product}.`);
}

/** A bulk the caller may read: 403 for another subscription, 404 when the headers do not cover it. */
export function accessibleBulk(sb: Sandbox, req: FastifyRequest, client: Client, bulkId: string): BulkPayment {
  const bulk = sb.state.bulks.get(bulkId);
  if (!bulk) throw notFound('Payment not found', `No payment ${bulkId}.`);
  if (!client.subscriptions.includes(bulk.subscriptionId))
    throw forbidden('The payment belongs to a subscription the client has no access to.');
  const scopes = requestScopes(sb, req, client);
  if (scopes === null || !inScope(scopes, bulk))
    throw notFound('Payment not found', 'The payment is not in the resource group named by the request headers.');
  return bulk;
}

/**
 * The Consent-ID a payment is initiated under (spec §4.6), checked against its debtor account: a
 * consent of another bank or company is refused, as the bank's own consent check would.
 */
function consentOfPayment(sb: Sandbox, req: FastifyRequest, account: Account): string | null {
  const header = req.headers['consent-id'];
  if (typeof header !== 'string') return null;
  const consent = sb.state.consents.get(header);
  if (consent === undefined) throw unauthorized('The consent is not known.');
  if (consent.status !== 'Authorized')
    throw unauthorized(`The consent is no longer authorized (status ${consent.status}).`);
  if (consent.bankId !== account.bankId || consent.resourceGroupName !== account.resourceGroupName)
    throw badRequest(
      `Consent ${consent.consentId} is for bank ${consent.bankId}; the debtor account is at bank ${account.bankId}. Initiate the payment under the consent of the debtor account's bank.`,
    );
  return consent.consentId;
}

export function registerPayments(app: FastifyInstance, sb: Sandbox): void {
  app.post('/api/bulk-payments/:product', (req: FastifyRequest<{ Params: { product: string } }>, reply) => {
    checkProduct(req.params.product);
    const client = caller(req);
    const scopes = requestScopes(sb, req, client);
    if (scopes === null)
      throw notFound(
        'Account not found',
        'Subscription-Id and Resource-Group-Name (or Consent-ID) are required to initiate payments.',
      );
    const now = sb.clock.now();
    const parsed = parseBulkRequest(req.body, bankToday(now), sb.options.maxPaymentLines, (iban) =>
      sameDayRefusal(sb, iban, now),
    );
    if (!parsed.ok) throw badRequest('The payment request is not valid.', parsed.errors);
    const request = parsed.bulk;
    const account = [...sb.state.accounts.values()].find(
      (a) => a.iban === request.debtorIban && a.status === 'enabled' && inScope(scopes, a),
    );
    if (!account)
      throw notFound(
        'Account not found',
        'debtorAccount does not match an onboarded, enabled account in this resource group.',
      );
    const consentId = consentOfPayment(sb, req, account);
    const wrongCurrency = request.lines.findIndex((l) => l.currency !== account.currency);
    if (wrongCurrency >= 0) {
      throw badRequest('The payment request is not valid.', [
        {
          field: `paymentLines[${wrongCurrency}].instructedAmount.currency`,
          message: `must be ${account.currency}, the debtor account's currency`,
        },
      ]);
    }
    const redirect = req.headers['tpp-redirect-uri'];
    const paymentId = newBulkPaymentId();
    const bulk: BulkPayment = {
      paymentId,
      clientId: client.clientId,
      subscriptionId: account.subscriptionId,
      resourceGroupName: account.resourceGroupName,
      accountId: account.id,
      debtorIban: account.iban,
      debtorName: request.debtorName,
      requestedExecutionDate: request.requestedExecutionDate,
      batchBookingPreferred: request.batchBookingPreferred,
      tppRedirectUri: typeof redirect === 'string' ? redirect : null,
      idempotencyKey: info(req).idempotencyKey ?? null,
      consentId,
      createdAt: now.toISOString(),
      status: 'RCVD',
      lines: receivedLines(sb, paymentId, request.lines, now),
      // Pre-approved accounts hold payments at RCVD until a signing basket is authorised.
      releasedAt: account.preApproval ? null : now.getTime(),
      acspAt: null,
      basketId: null,
    };
    sb.state.bulks.set(bulk.paymentId, bulk);
    const self = sb.link(`/bulk-payments/credit-transfer/${bulk.paymentId}`);
    return reply
      .code(201)
      .header('location', self.href)
      .send({
        paymentId: bulk.paymentId,
        transactionStatus: bulk.status,
        paymentLines: bulk.lines.map((l) => ({
          paymentId: l.paymentId,
          endToEndIdentification: l.endToEndIdentification,
          transactionStatus: l.status,
        })),
        _links: {
          self,
          status: sb.link(`/bulk-payments/credit-transfer/${bulk.paymentId}/status`),
          ...(account.preApproval ? { createSigningBasket: sb.link('/signing-baskets', 'post') } : {}),
        },
      });
  });

  // Listing (facts §5.13): bulks in the request's context, newest last, with the read filters.
  app.get('/api/bulk-payments/:product', (req: FastifyRequest<{ Params: { product: string }; Querystring: Query }>) => {
    checkProduct(req.params.product);
    const client = caller(req);
    const scopes = requestScopes(sb, req, client);
    if (scopes === null)
      throw badRequest(
        'Send Subscription-Id and Resource-Group-Name (or Scopes, or Consent-ID) to choose the data-access context.',
      );
    const q = req.query;
    const statusText = one(q, 'status');
    const status = statusText === undefined ? undefined : PAYMENT_STATUSES.find((s) => s === statusText.toUpperCase());
    if (statusText !== undefined && status === undefined)
      throw badRequest(`status must be one of ${PAYMENT_STATUSES.join(', ')} (any casing).`);
    const from = date(q, 'createdFrom');
    const to = date(q, 'createdTo');
    const accountId = one(q, 'accountId');
    const bulks = [...sb.state.bulks.values()].filter((b) => {
      const created = bankToday(new Date(b.createdAt));
      return (
        inScope(scopes, b) &&
        (status === undefined || b.status === status) &&
        (from === undefined || created >= from) &&
        (to === undefined || created <= to) &&
        (accountId === undefined || b.accountId === accountId || accountId.endsWith(`/accounts/${b.accountId}`))
      );
    });
    const page = paginate(sb, bulks, '/bulk-payments/credit-transfer', q);
    return { payments: page.items.map((b) => bulkView(sb, b)), _links: page.links };
  });

  // Cancellation (facts §5.16): only while nothing has been accepted for execution.
  app.delete('/api/bulk-payments/:product/:id', (req: PaymentReq, reply) => {
    checkProduct(req.params.product);
    const bulk = accessibleBulk(sb, req, caller(req), req.params.id);
    if (bulk.status !== 'RCVD' || bulk.lines.some((l) => l.status !== 'RCVD'))
      throw conflict(`The payment is ${bulk.status} and can no longer be cancelled.`);
    const at = sb.clock.now().getTime();
    for (const l of bulk.lines) {
      l.status = 'CANC';
      l.history.push({ status: 'CANC', at: new Date(at).toISOString() });
    }
    bulk.releasedAt = null;
    updateBulkStatus(sb, bulk, at);
    return reply.code(202).send({ paymentId: bulk.paymentId, transactionStatus: bulk.status });
  });

  app.get('/api/bulk-payments/:product/:id', (req: PaymentReq) => {
    checkProduct(req.params.product);
    return bulkView(sb, accessibleBulk(sb, req, caller(req), req.params.id));
  });

  app.get('/api/bulk-payments/:product/:id/status', (req: PaymentReq) => {
    checkProduct(req.params.product);
    const bulk = accessibleBulk(sb, req, caller(req), req.params.id);
    return {
      paymentId: bulk.paymentId,
      transactionStatus: bulk.status,
      tppMessage: [],
      _links: { self: sb.link(`/bulk-payments/credit-transfer/${bulk.paymentId}`) },
    };
  });

  const line = (req: PaymentReq): { bulk: BulkPayment; line: PaymentLine } => {
    checkProduct(req.params.product);
    const found = sb.state.lineById(req.params.id);
    if (!found) throw notFound('Payment not found', `No payment ${req.params.id}.`);
    return { bulk: accessibleBulk(sb, req, caller(req), found.bulk.paymentId), line: found.line };
  };

  app.get('/api/payments/:product/:id', (req: PaymentReq) => {
    const { bulk, line: l } = line(req);
    return singlePaymentView(sb, bulk, l);
  });

  app.get('/api/payments/:product/:id/status', (req: PaymentReq) => {
    const { line: l } = line(req);
    return {
      paymentId: l.paymentId,
      transactionStatus: l.status,
      tppMessage: l.tppMessages,
      _links: { self: sb.link(`/payments/credit-transfer/${l.paymentId}`) },
    };
  });
}

/**
 * A new bulk's lines as the bank keeps them, all received now. Each is built field by field (one
 * shape for every line, where a spread of the request's line made each a copy of another shape),
 * and the lines of a bulk share their first history entry, which is never changed (a later status
 * is pushed after it).
 */
function receivedLines(sb: Sandbox, bulkId: string, lines: readonly ParsedLine[], now: Date): PaymentLine[] {
  const ids = sb.state.newLineIds(bulkId, lines.length);
  const received = Object.freeze({ status: 'RCVD' as const, at: now.toISOString() });
  return lines.map((l, i): PaymentLine => ({
    paymentId: ids[i]!,
    endToEndIdentification: l.endToEndIdentification,
    minor: l.minor,
    currency: l.currency,
    creditorIban: l.creditorIban,
    creditorName: l.creditorName,
    creditorAgent: l.creditorAgent,
    ultimateDebtor: l.ultimateDebtor,
    ultimateCreditor: l.ultimateCreditor,
    purposeCode: l.purposeCode,
    remittance: l.remittance,
    structuredReference: l.structuredReference,
    instructionPriority: l.instructionPriority,
    status: 'RCVD',
    tppMessages: [],
    history: [received],
    transactionId: null,
  }));
}

/**
 * Why a payment from this account cannot be executed today: its bank's cut-off (Oslo time) has
 * passed. A bank with cut-off 00:00 (the test bank) takes only future dates, as the spec says.
 */
function sameDayRefusal(sb: Sandbox, debtorIban: string, now: Date): string | undefined {
  const today = bankToday(now);
  const account = [...sb.state.accounts.values()].find((a) => a.iban === debtorIban && a.status !== 'deleted');
  const bank = account === undefined ? undefined : sb.state.banks.get(account.bankId);
  if (bank === undefined || bank.cutOffTime === '00:00') return `must be a future date (after ${today})`;
  const verdict = cutOffVerdict(
    { time: bank.cutOffTime, timeZone: BANK_TIME_ZONE, calendar: bank.countryCode },
    today,
    now,
  );
  if (!verdict.passed) return undefined;
  return `is today, after ${bank.name}'s cut-off ${bank.cutOffTime} (${BANK_TIME_ZONE}): the earliest execution date is ${verdict.nextBusinessDay}`;
}
