// Starts the web console of `settle serve` when the configuration enables it (console.enabled):
// its own listener, loopback by default, built from the App's store and the companies' people.
import type { FastifyInstance } from 'fastify';
import { companyBanks } from '../config/index.js';
import { SettleError } from '../domain/errors.js';
import { buildConsoleServer, type ConsoleOptions } from '../server/console/index.js';
import type { App } from './app.js';

export interface RunningConsole {
  /** The address people open: console.publicUrl, else the bound address, ending in /console/. */
  readonly url: string;
  readonly server: FastifyInstance;
}

export async function startConsole(
  app: App,
  overrides: Partial<Pick<ConsoleOptions, 'pages' | 'actions'>> = {},
): Promise<RunningConsole | undefined> {
  const { config } = app;
  const c = config.console;
  if (!c.enabled) return undefined;
  if (!c.sessionKey)
    throw new SettleError('ERR_CONFIG_INVALID', 'console.sessionKey is required when the console is enabled');
  const built = await buildConsoleServer({
    deps: {
      store: app.store,
      clock: app.clock,
      companies: config.companies.map((co) => ({
        id: co.id,
        name: co.name,
        timeZone: co.timeZone ?? config.timeZone,
        locale: co.locale ?? config.locale,
        organisationNumber: co.organisationNumber,
        bankIds: companyBanks(co).map((b) => b.bankId),
        payrollAccounts: co.payments.payrollAccounts,
      })),
      warnBeforeMs: config.alerts.warnBefore,
      linkWarnBeforeMs: config.alerts.linkWarnBefore,
      operations: { companies: config.companies, bank: () => app.bank(), logger: app.logger },
    },
    people: new Map(config.companies.map((co) => [co.id, co.people])),
    auditors: c.auditors,
    sessionKey: c.sessionKey,
    sessionTtlMs: c.sessionTtl,
    ...(c.publicUrl ? { publicUrl: c.publicUrl } : {}),
    ...(c.trustedProxies.length > 0 ? { trustedProxies: c.trustedProxies } : {}),
    ...(c.oidc ? { oidc: { ...c.oidc, ...(c.oidc.clientSecret ? { clientSecret: c.oidc.clientSecret } : {}) } } : {}),
    localUsers: c.localUsers.map((u) => ({
      username: u.username,
      email: u.email,
      ...(u.person ? { person: u.person } : {}),
      ...(u.passwordHash ? { passwordHash: u.passwordHash } : {}),
    })),
    signInLimit: {
      perUser: c.signInLimit.perUser,
      perAddress: c.signInLimit.perAddress,
      windowMs: c.signInLimit.failureWindow,
    },
    logger: app.logger,
    ...overrides,
  });
  try {
    await built.app.listen({ host: c.host, port: c.port });
  } catch (cause) {
    await built.app.close();
    const reason = (cause as { code?: unknown }).code;
    throw new SettleError(
      'ERR_SERVE_LISTEN',
      `Cannot listen for the console on ${c.host}:${c.port} (${typeof reason === 'string' ? reason : 'error'}): another process may use the port (console.port), or the address is not on this machine`,
      { details: { host: c.host, port: c.port } },
    );
  }
  const address = built.app.server.address();
  const bound = address !== null && typeof address === 'object' ? address : undefined;
  const host = bound ? (bound.family === 'IPv6' ? `[${bound.address}]` : bound.address) : c.host;
  const base = c.publicUrl?.replace(/\/+$/, '') ?? `http://${host}:${bound?.port ?? c.port}`;
  built.setBaseUrl(base);
  app.logger.info('console listening', { url: `${base}/console/` });
  return { url: `${base}/console/`, server: built.app };
}
