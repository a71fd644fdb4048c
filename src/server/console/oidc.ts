// Sign-in through the company's OpenID Connect provider with openid-client: authorization code
// flow with PKCE (S256), state and nonce, kept in a short-lived signed cookie between the
// redirect and the callback. The provider's metadata is discovered on the first sign-in (the
// console starts even while the provider is down). Plain http is accepted for an issuer on
// this machine only (a provider run by the tests or a local development one).
import * as client from 'openid-client';
import type { ConsoleOidcOptions } from './options.js';

export interface OidcStart {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

export interface OidcIdentity {
  id: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
}

export class OidcSignIn {
  #config: Promise<client.Configuration> | undefined;

  constructor(
    private readonly options: ConsoleOidcOptions,
    private readonly redirectUri: () => string,
  ) {}

  async start(): Promise<OidcStart> {
    const config = await this.config();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(),
      scope: this.options.scope,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, nonce, verifier };
  }

  /** Exchanges the code of `callbackUrl` (checking state, nonce and PKCE) and reads who signed in. */
  async finish(callbackUrl: URL, expected: { state: string; nonce: string; verifier: string }): Promise<OidcIdentity> {
    const config = await this.config();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: expected.verifier,
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('the provider returned no ID token');
    let email = typeof claims.email === 'string' ? claims.email : undefined;
    let verified = typeof claims.email_verified === 'boolean' ? claims.email_verified : undefined;
    let name = typeof claims.name === 'string' ? claims.name : undefined;
    if (email === undefined) {
      // Many providers give the e-mail only at the userinfo endpoint.
      const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = typeof info.email === 'string' ? info.email : undefined;
      verified = typeof info.email_verified === 'boolean' ? info.email_verified : verified;
      name ??= typeof info.name === 'string' ? info.name : undefined;
    }
    return {
      id: `oidc:${claims.iss}#${claims.sub}`,
      ...(email === undefined ? {} : { email }),
      ...(verified === undefined ? {} : { emailVerified: verified }),
      ...(name === undefined ? {} : { name }),
    };
  }

  private config(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.options;
    const url = new URL(issuer);
    const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    this.#config ??= client
      .discovery(
        url,
        clientId,
        clientSecret?.reveal(),
        clientSecret ? undefined : client.None(),
        url.protocol === 'http:' && local ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        this.#config = undefined; // try again on the next sign-in
        throw error;
      });
    return this.#config;
  }
}
