// Starts the web console of `settle serve` when the configuration enables it (console.enabled):
// its own listener, loopback by default, built from the App's store and the companies' people,
// which a reload of `settle serve` replaces (reconfigure).
import type { FastifyInstance } from 'fastify';
import { approvalAudience } from '../../jobs/approve/index.js';
import { companyBanks, type CompanyConfig, type Config } from '../config/index.js';
import { SettleError } from '../domain/errors.js';
import { buildConsoleServer, type ConsoleOptions } from '../server/console/index.js';
import type { App } from './app.js';

export interface RunningConsole {
  /** The address people open: console.publicUrl, else the bound address, ending in /console/. */
  readonly url: string;
  readonly server: FastifyInstance;
  /** A reload's companies, people and local users, from the next request on (reload.ts). */
  reconfigure(config: Readonly<Config>): void;
}

/** Where the approve job sends the company's approval links (jobs/approve/approve.ts decides the same way). */
function approvalLinkGoesTo(config: Readonly<Config>, company: CompanyConfig): { email: boolean; folder?: string } {
  const audience = approvalAudience(company);
  const email = config.alerts.email !== undefined && audience.withPayroll.length + audience.withoutPayroll.length > 0;
  return { email, ...(company.folders.approvals ? { folder: company.folders.approvals } : {}) };
}

/** What of the console follows a reload: the companies shown, who has which roles, who signs in with a password. */
function reloadable(config: Readonly<Config>) {
  return {
    companies: config.companies.map((co) => ({
      id: co.id,
      name: co.name,
      timeZone: co.timeZone ?? config.timeZone,
      locale: co.locale ?? config.locale,
      organisationNumber: co.organisationNumber,
      bankIds: companyBanks(co).map((b) => b.bankId),
      payrollAccounts: co.payments.payrollAccounts,
      approvalLink: approvalLinkGoesTo(config, co),
    })),
    people: new Map(config.companies.map((co) => [co.id, co.people])),
    localUsers: config.console.localUsers.map((u) => ({
      username: u.username,
      email: u.email,
      ...(u.person ? { person: u.person } : {}),
      ...(u.passwordHash ? { passwordHash: u.passwordHash } : {}),
    })),
  };
}

export async function startConsole(
  app: App,
  overrides: Partial<Pick<ConsoleOptions, 'pages' | 'actions' | 'refusalFlushMs'>> = {},
): Promise<RunningConsole | undefined> {
  const { config } = app;
  const c = config.console;
  if (!c.enabled) return undefined;
  if (!c.sessionKey)
    throw new SettleError('ERR_CONFIG_INVALID', 'console.sessionKey is required when the console is enabled');
  const { companies, people, localUsers } = reloadable(config);
  const operations = { companies: config.companies, bank: () => app.bank(), logger: app.logger };
  const options: ConsoleOptions = {
    deps: {
      store: app.store,
      clock: app.clock,
      companies,
      warnBeforeMs: config.alerts.warnBefore,
      linkWarnBeforeMs: config.alerts.linkWarnBefore,
      operations,
    },
    people,
    auditors: c.auditors,
    localUsers,
    sessionKey: c.sessionKey,
    sessionTtlMs: c.sessionTtl,
    ...(c.publicUrl ? { publicUrl: c.publicUrl } : {}),
    ...(c.trustedProxies.length > 0 ? { trustedProxies: c.trustedProxies } : {}),
    ...(c.oidc ? { oidc: { ...c.oidc, ...(c.oidc.clientSecret ? { clientSecret: c.oidc.clientSecret } : {}) } } : {}),
    signInLimit: {
      perUser: c.signInLimit.perUser,
      perAddress: c.signInLimit.perAddress,
      windowMs: c.signInLimit.failureWindow,
    },
    logger: app.logger,
    ...overrides,
  };
  const built = await buildConsoleServer(options);
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
  return {
    url: `${base}/console/`,
    server: built.app,
    // The shell and its pages read these from `options` at each request.
    reconfigure(next) {
      const now = reloadable(next);
      options.deps.companies = now.companies;
      options.people = now.people;
      options.localUsers = now.localUsers;
      operations.companies = next.companies;
    },
  };
}
