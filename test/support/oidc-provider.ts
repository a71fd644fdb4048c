// A real OpenID Connect provider for the tests (oidc-provider from npm, on a loopback port):
// authorization code flow with PKCE required, its development login form (any login name is
// the account id, the password is not checked) and consent page. The port is taken first, so
// the issuer's address can go into settle's configuration before the client's redirect address
// (settle's console, started with it) is known.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface OidcAccount {
  email: string;
  name: string;
  emailVerified?: boolean;
}

export interface ReservedProvider {
  issuer: string;
  /** Starts answering, with one confidential client allowed to come back to `redirectUri`. */
  start(
    client: { clientId: string; clientSecret: string; redirectUri: string },
    accounts: Record<string, OidcAccount>,
  ): void;
  close(): Promise<void>;
}

export async function reserveOidcProvider(): Promise<ReservedProvider> {
  const server: Server = createServer((_req, res) => {
    res.statusCode = 503;
    res.end('not started');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    start(client, accounts) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: client.clientId,
            client_secret: client.clientSecret,
            redirect_uris: [client.redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        pkce: { required: () => true },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        cookies: { keys: ['settle-test-provider-cookie-key-0123456789'] },
        features: { devInteractions: { enabled: true } },
        findAccount: (_ctx: unknown, id: string) => {
          const account = accounts[id];
          if (!account) return undefined;
          return {
            accountId: id,
            claims: () => ({
              sub: id,
              email: account.email,
              email_verified: account.emailVerified ?? true,
              name: account.name,
            }),
          };
        },
      });
      const handler = provider.callback();
      server.removeAllListeners('request');
      server.on('request', handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
