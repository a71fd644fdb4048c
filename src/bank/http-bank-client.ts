// The bank client: one method per operation of spec §4, typed requests and canonical responses.
// Headers follow spec §4.2: data retrieval names the resource group (Subscription-Id +
// Resource-Group-Name), Scopes or a Consent-ID; payment initiation also sends Consent-ID when
// given and TPP-Redirect-URI when configured; PSU-IP-Address only when a person is present.
import { systemClock } from '../domain/clock.js';
import { BankError, BANK_ERROR_CODES, isBankError } from './bank-error.js';
import type { BankClient, BankClientOptions } from './bank-client.js';
import { BankHttp, type HttpRequest, type Method, type QueryValue } from './http.js';
import { nextOf, paginate } from './paging.js';
import {
  object,
  readAccount,
  readAccountParameters,
  readBalance,
  readBank,
  readBulkPaymentCreated,
  readConsent,
  readConsentLink,
  readPaymentInformation,
  readPaymentStatus,
  readScaAuthorization,
  readSigningBasket,
  readTransaction,
  readTransactionDetails,
} from './readers.js';
import { asArray, asObject } from './normalize.js';
import { DEFAULT_RETRY_POLICY } from './retry-policy.js';
import { TokenProvider } from './token-provider.js';
import type {
  Account,
  AccountParameters,
  Balance,
  Bank,
  BankingChannel,
  BookingStatus,
  BulkPaymentCreated,
  BulkPaymentRequest,
  CallOptions,
  Consent,
  ConsentLink,
  ConsentStatus,
  CreateConsentRequest,
  DataContext,
  PaymentInformation,
  PaymentStatusReport,
  PostOptions,
  ScaAuthorization,
  SigningBasket,
  Transaction,
} from './types.js';

type Query = Record<string, QueryValue>;

export class HttpBankClient implements BankClient {
  readonly http: BankHttp;
  readonly tokens: TokenProvider;
  private readonly channelType: BankingChannel;
  private readonly product: string;

  constructor(private readonly options: BankClientOptions) {
    const clock = options.clock ?? systemClock;
    this.http = new BankHttp({
      baseUrl: options.baseUrl,
      apiVersion: options.apiVersion ?? '1.0',
      timeoutMs: options.timeoutMs ?? 30_000,
      retry: {
        ...DEFAULT_RETRY_POLICY,
        ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
        ...options.retry,
      },
      concurrency: options.concurrency ?? 4,
      ...(options.answerLimits ? { answerLimits: options.answerLimits } : {}),
      logger: options.logger,
      clock,
      ...(options.sleep ? { sleep: options.sleep } : {}),
      ...(options.random ? { random: options.random } : {}),
      ...(options.observer?.error ? { onError: (code: string) => options.observer?.error?.(code) } : {}),
    });
    this.tokens = new TokenProvider(this.http, {
      authUrl: options.authUrl,
      tenantId: options.tenantId,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      clock,
      ...(options.scope ? { scope: options.scope } : {}),
      ...(options.observer?.tokenFetched ? { onFetch: () => options.observer?.tokenFetched?.() } : {}),
      ...(options.observer?.error ? { onError: (code: string) => options.observer?.error?.(code) } : {}),
    });
    this.http.tokens = this.tokens;
    this.channelType = options.channelType ?? 'openBanking';
    this.product = options.paymentProduct ?? 'credit-transfer';
  }

  close(): Promise<void> {
    return this.http.close();
  }

  // ---- accounts -------------------------------------------------------------------------

  listAccounts(context: DataContext, query: Query = {}, options: CallOptions = {}): AsyncIterable<Account> {
    return paginate(
      this.http,
      this.req('GET', '/accounts', options, this.contextHeaders(context, options), query),
      (body) => ({
        items: asArray(object(body, 'account list').accounts).map(readAccount),
        next: nextOf(body),
      }),
    );
  }

  async getAccount(
    context: DataContext,
    accountId: string,
    query: Query = {},
    options: CallOptions = {},
  ): Promise<Account> {
    const res = await this.http.send(
      this.req('GET', `/accounts/${seg(accountId)}`, options, this.contextHeaders(context, options), query),
    );
    return readAccount(res.body);
  }

  async deleteAccount(context: DataContext, accountId: string, options: CallOptions = {}): Promise<void> {
    await this.http.send(
      this.req('DELETE', `/accounts/${seg(accountId)}`, options, this.contextHeaders(context, options)),
    );
  }

  async getAccountParameters(
    context: DataContext,
    accountId: string,
    options: CallOptions = {},
  ): Promise<AccountParameters> {
    const res = await this.http.send(
      this.req('GET', `/accounts/${seg(accountId)}/parameters`, options, this.contextHeaders(context, options)),
    );
    return readAccountParameters(res.body);
  }

  listBalances(
    context: DataContext,
    accountId: string,
    query: Query = {},
    options: CallOptions = {},
  ): AsyncIterable<Balance> {
    const req = this.req(
      'GET',
      `/accounts/${seg(accountId)}/balances`,
      options,
      this.contextHeaders(context, options),
      query,
    );
    return paginate(this.http, req, (body) => ({
      items: asArray(object(body, 'balances').balances).flatMap((b) => readBalance(b) ?? []),
      next: nextOf(body),
    }));
  }

  listTransactions(
    context: DataContext,
    accountId: string,
    query: Query & { dateFrom: string; bookingStatus: BookingStatus },
    options: CallOptions = {},
  ): AsyncIterable<Transaction> {
    const req = this.req(
      'GET',
      `/accounts/${seg(accountId)}/transactions`,
      options,
      this.contextHeaders(context, options),
      query,
    );
    return paginate(this.http, req, (body) => {
      const o = object(body, 'transactions');
      // Usually {transactions: {booked, pending, _links}}; a flat array is read too.
      const inner = asObject(o.transactions);
      const items = inner
        ? [
            ...asArray(inner.booked).map((t) => readTransaction(t, 'booked')),
            ...asArray(inner.pending).map((t) => readTransaction(t, 'pending')),
            ...asArray(inner.information).map((t) => readTransaction(t, 'information')),
          ]
        : asArray(o.transactions).map((t) => readTransaction(t));
      return { items, next: nextOf(body, ['transactions']) };
    });
  }

  async getTransactionDetails(
    context: DataContext,
    accountId: string,
    transactionId: string,
    options: CallOptions = {},
  ): Promise<Transaction> {
    const res = await this.http.send(
      this.req(
        'GET',
        `/accounts/${seg(accountId)}/transactions/${seg(transactionId)}`,
        options,
        this.contextHeaders(context, options),
      ),
    );
    return readTransactionDetails(res.body);
  }

  // ---- banks ----------------------------------------------------------------------------

  listBanks(query: Query = {}, options: CallOptions = {}): AsyncIterable<Bank> {
    // GET /banks needs no authentication (spec §5.6).
    const req: HttpRequest = { ...this.req('GET', '/banks', options, {}, query), auth: false };
    return paginate(this.http, req, (body) => {
      const items = Array.isArray(body) ? body : asArray(object(body, 'bank list').banks);
      return { items: items.map(readBank), next: nextOf(body) };
    });
  }

  async getBank(bankId: string, query: Query = {}, options: CallOptions = {}): Promise<Bank> {
    const res = await this.http.send(this.req('GET', `/banks/${seg(bankId)}`, options, {}, query));
    const o = object(res.body, 'bank');
    return readBank(asObject(o.bank) ?? o);
  }

  // ---- consents -------------------------------------------------------------------------

  async createConsent(request: CreateConsentRequest, options: PostOptions = {}): Promise<ConsentLink> {
    const properties: Record<string, string> = {
      // Headless: no hosted UI; the SCA link comes from refresh and goes to a person (spec §2.2).
      isHeadless: 'true',
      psuCorporateId: request.organisationNumber,
      combinedServiceIndicator: 'true',
    };
    if (request.accountNumbers?.length) properties.accountNumbers = request.accountNumbers.join(',');
    if (request.numberOfApprovers !== undefined) properties.numberOfApprovers = String(request.numberOfApprovers);
    Object.assign(properties, request.properties);
    const body: Record<string, unknown> = {
      channelType: request.channelType ?? this.channelType,
      subscriptionId: this.options.subscriptionId,
      resourceGroupName: request.organisationNumber,
      resourceGroupDisplayName: request.displayName ?? request.organisationNumber,
      bankId: request.bankId,
      properties,
    };
    if (request.state !== undefined) body.state = request.state;
    if (request.redirectSettings !== undefined) body.redirectSettings = request.redirectSettings;
    const res = await this.http.send({ ...this.req('POST', '/consents', options, {}), json: body, ...key(options) });
    return posted(() => readConsentLink(res.body, res.replayed));
  }

  listConsents(query: { status?: ConsentStatus } = {}, options: CallOptions = {}): AsyncIterable<Consent> {
    return paginate(this.http, this.req('GET', '/consents', options, {}, query), (body) => ({
      items: asArray(object(body, 'consent list').consents).map(readConsent),
      next: nextOf(body),
    }));
  }

  async getConsent(consentId: string, options: CallOptions = {}): Promise<Consent> {
    const res = await this.http.send(this.req('GET', `/consents/${seg(consentId)}`, options, {}));
    return readConsent(res.body);
  }

  /** Issues a new SCA link. Never retried automatically: every call may make (and bill) a new link. */
  async refreshConsent(
    consentId: string,
    properties: Record<string, string> = {},
    options: CallOptions = {},
  ): Promise<ConsentLink> {
    const res = await this.http.send({
      ...this.req('PUT', `/consents/${seg(consentId)}/refresh`, options, {}),
      json: { properties },
    });
    return readConsentLink(res.body, false);
  }

  async deleteConsent(consentId: string, options: CallOptions = {}): Promise<void> {
    await this.http.send(this.req('DELETE', `/consents/${seg(consentId)}`, options, {}));
  }

  // ---- payments -------------------------------------------------------------------------

  async createBulkPayment(
    resourceGroupName: string,
    request: BulkPaymentRequest,
    options: PostOptions & { consentId?: string; tppRedirectUri?: string },
  ): Promise<BulkPaymentCreated> {
    const headers = {
      ...this.contextHeaders({ resourceGroupName }, options),
      'consent-id': options.consentId,
      'tpp-redirect-uri': options.tppRedirectUri ?? this.options.redirectUri,
    };
    const res = await this.http.send({
      ...this.req('POST', `/bulk-payments/${this.product}`, options, headers),
      json: request,
      ...key(options),
    });
    return posted(() => readBulkPaymentCreated(res.body, res.status, res.replayed));
  }

  async getBulkPayment(
    resourceGroupName: string,
    paymentId: string,
    options: CallOptions = {},
  ): Promise<PaymentInformation> {
    const res = await this.http.send(
      this.req(
        'GET',
        `/bulk-payments/${this.product}/${seg(paymentId)}`,
        options,
        this.contextHeaders({ resourceGroupName }, options),
      ),
    );
    return readPaymentInformation(res.body);
  }

  async getPayment(
    resourceGroupName: string,
    paymentId: string,
    options: CallOptions = {},
  ): Promise<PaymentInformation> {
    const res = await this.http.send(
      this.req(
        'GET',
        `/payments/${this.product}/${seg(paymentId)}`,
        options,
        this.contextHeaders({ resourceGroupName }, options),
      ),
    );
    return readPaymentInformation(res.body);
  }

  async getBulkPaymentStatus(
    resourceGroupName: string,
    paymentId: string,
    options: CallOptions = {},
  ): Promise<PaymentStatusReport> {
    const res = await this.http.send(
      this.req(
        'GET',
        `/bulk-payments/${this.product}/${seg(paymentId)}/status`,
        options,
        this.contextHeaders({ resourceGroupName }, options),
      ),
    );
    return readPaymentStatus(res.body);
  }

  async cancelBulkPayment(
    resourceGroupName: string,
    paymentId: string,
    options: CallOptions = {},
  ): Promise<PaymentStatusReport> {
    const res = await this.http.send(
      this.req(
        'DELETE',
        `/bulk-payments/${this.product}/${seg(paymentId)}`,
        options,
        this.contextHeaders({ resourceGroupName }, options),
      ),
    );
    return readPaymentStatus(res.body);
  }

  async getPaymentStatus(
    resourceGroupName: string,
    paymentId: string,
    options: CallOptions = {},
  ): Promise<PaymentStatusReport> {
    const res = await this.http.send(
      this.req(
        'GET',
        `/payments/${this.product}/${seg(paymentId)}/status`,
        options,
        this.contextHeaders({ resourceGroupName }, options),
      ),
    );
    return readPaymentStatus(res.body);
  }

  async createSigningBasket(
    resourceGroupName: string,
    paymentIds: readonly string[],
    options: PostOptions = {},
  ): Promise<SigningBasket> {
    const headers = this.contextHeaders({ resourceGroupName }, options);
    const res = await this.http.send({
      ...this.req('POST', '/signing-baskets', options, headers),
      json: { paymentIds },
      ...key(options),
    });
    return posted(() => readSigningBasket(res.body, res.replayed));
  }

  async getSigningBasket(basketId: string, options: CallOptions = {}): Promise<SigningBasket> {
    const res = await this.http.send(
      this.req('GET', `/signing-baskets/${seg(basketId)}`, options, { 'psu-ip-address': options.psuIpAddress }),
    );
    return readSigningBasket(res.body, false);
  }

  async startSigningBasketAuthorization(
    basketId: string,
    options: PostOptions & { tppRedirectUri?: string } = {},
  ): Promise<ScaAuthorization> {
    const headers = {
      'psu-ip-address': options.psuIpAddress,
      'tpp-redirect-uri': options.tppRedirectUri ?? this.options.redirectUri,
    };
    const res = await this.http.send({
      ...this.req('POST', `/signing-baskets/${seg(basketId)}/authorizations`, options, headers),
      json: {},
      ...key(options),
    });
    return posted(() => readScaAuthorization(res.body, res.replayed));
  }

  // ---- helpers --------------------------------------------------------------------------

  private req(
    method: Method,
    path: string,
    options: CallOptions,
    headers: Record<string, string | undefined>,
    query: Query = {},
  ): HttpRequest {
    const req: HttpRequest = { method, path, headers, query, auth: true };
    if (options.signal) req.signal = options.signal;
    return req;
  }

  private contextHeaders(context: DataContext, options: CallOptions): Record<string, string | undefined> {
    const headers: Record<string, string | undefined> = {
      'channel-type': this.channelType,
      'psu-ip-address': options.psuIpAddress,
    };
    if ('resourceGroupName' in context) {
      headers['subscription-id'] = this.options.subscriptionId;
      headers['resource-group-name'] = context.resourceGroupName;
    } else if ('scopes' in context) {
      headers.scopes = context.scopes.join(',');
    } else {
      headers['consent-id'] = context.consentId;
    }
    return headers;
  }
}

/**
 * The bank answered a POST, but not in the API's shape: it may well have done the work, so the
 * outcome is unknown — never sent again, resolved by looking it up (architecture §2.3).
 */
function posted<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (isBankError(error) && error.code === BANK_ERROR_CODES.invalidResponse)
      throw new BankError(error.code, error.message, { outcomeUnknown: true, cause: error });
    throw error;
  }
}

function seg(id: string): string {
  return encodeURIComponent(id);
}

function key(options: PostOptions): { idempotencyKey?: string } {
  return options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey };
}
