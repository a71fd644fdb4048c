// OAuth 2.0 client credentials (spec §5): POST {authUrl}/{tenantId}/connect/token. The token
// is cached and fetched again shortly before it expires; concurrent callers share one request
// (single flight). A 401 from the API makes the caller invalidate the token it used, so the
// next get() fetches a fresh one exactly once.
import type { Clock } from '../domain/clock.js';
import { forgetSecret, registerSecret } from '../log/index.js';
import { BankError, BANK_ERROR_CODES } from './bank-error.js';
import type { BankHttp } from './http.js';
import { asObject, asString } from './normalize.js';

/** Anything that gives the secret only on request (src/log Secret). */
export interface SecretSource {
  reveal(): string;
}

export interface TokenProviderOptions {
  authUrl: string;
  tenantId: string;
  clientId: string;
  clientSecret: SecretSource | undefined;
  /** Space-separated scopes; omitted from the request when absent (the IdP then grants its default). */
  scope?: string;
  clock: Clock;
  /** Refresh this long before expiry (default: 60 s, or a tenth of a short lifetime). */
  refreshMarginMs?: number;
  /** Called for every token request sent to the identity provider. */
  onFetch?: () => void;
  /** Called with the code of a token failure found here (transport failures are reported by the HTTP layer). */
  onError?: (code: string) => void;
}

interface Cached {
  token: string;
  expiresAt: number;
  refreshAt: number;
}

export class TokenProvider {
  private cached: Cached | undefined;
  private pending: Promise<string> | undefined;
  /** Token requests made so far (for tests and metrics). */
  fetches = 0;

  constructor(
    private readonly http: BankHttp,
    private readonly options: TokenProviderOptions,
  ) {}

  get tokenUrl(): string {
    return `${this.options.authUrl.replace(/\/+$/, '')}/${encodeURIComponent(this.options.tenantId)}/connect/token`;
  }

  async get(): Promise<string> {
    const now = this.options.clock.now().getTime();
    if (this.cached && now < this.cached.refreshAt) return this.cached.token;
    if (!this.pending) {
      this.pending = this.fetch().finally(() => {
        this.pending = undefined;
      });
    }
    return this.pending;
  }

  /** Drops the cached token if it is the one that was refused; a newer one is kept. */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private reported(error: BankError): BankError {
    this.options.onError?.(error.code);
    return error;
  }

  private async fetch(): Promise<string> {
    const secret = this.options.clientSecret;
    if (!secret) {
      throw this.reported(
        new BankError(
          BANK_ERROR_CODES.noCredentials,
          'no client secret is configured for the bank (set SETTLE_CLIENT_SECRET or SETTLE_CLIENT_SECRET_FILE, or bank.clientSecret)',
        ),
      );
    }
    const form: Record<string, string> = {
      grant_type: 'client_credentials',
      client_id: this.options.clientId,
      // The one place the secret is revealed: straight into the form body, never logged.
      client_secret: secret.reveal(),
    };
    if (this.options.scope) form.scope = this.options.scope;
    this.fetches++;
    this.options.onFetch?.();
    // Asking for a token twice is harmless, so the token POST is retried like a GET.
    const response = await this.http.send({
      method: 'POST',
      url: this.tokenUrl,
      form,
      auth: false,
      retrySafe: true,
      pass4xx: true,
      answer: 'token',
    });
    const body = asObject(response.body);
    if (response.status >= 400) {
      const code = body ? asString(body.error) : undefined;
      const description = body ? asString(body.error_description) : undefined;
      const why = [code, description].filter(Boolean).join(': ') || `HTTP ${response.status}`;
      throw this.reported(
        new BankError(
          BANK_ERROR_CODES.authFailed,
          `the identity provider refused the token request for client ${this.options.clientId} (${why})`,
          {
            status: response.status,
          },
        ),
      );
    }
    const token = body ? asString(body.access_token) : undefined;
    if (!token)
      throw this.reported(
        new BankError(BANK_ERROR_CODES.invalidResponse, 'the token response carries no access_token'),
      );
    const lifetimeS =
      typeof body?.expires_in === 'number'
        ? body.expires_in
        : Number.parseInt(asString(body?.expires_in) ?? '3600', 10) || 3600;
    const lifetimeMs = lifetimeS * 1000;
    const margin = this.options.refreshMarginMs ?? Math.min(60_000, lifetimeMs / 10);
    const now = this.options.clock.now().getTime();
    // The bank may quote the token (without "Bearer") in an error text: mask it like a configured secret.
    registerSecret(token);
    if (this.cached && this.cached.token !== token) forgetSecret(this.cached.token);
    this.cached = { token, expiresAt: now + lifetimeMs, refreshAt: now + lifetimeMs - margin };
    return token;
  }
}
