// What the console's shell is built from: the running install (store, clock, companies), the
// people of each company with their roles, the keys and the sign-in methods. Plain values, so
// the shell does not read the configuration itself (src/main builds this from it).
import type { Person } from '../../domain/roles.js';
import type { Logger } from '../../log/index.js';
import type { Secret } from '../../log/index.js';
import type { ConsoleAction, ConsoleDeps, ConsolePage } from './page.js';

export interface ConsoleOidcOptions {
  issuer: string;
  clientId: string;
  clientSecret?: Secret;
  scope: string;
}

export interface SignInLimit {
  perUser: number;
  perAddress: number;
  windowMs: number;
}

export interface ConsoleLocalUser {
  username: string;
  email: string;
  /** The explicit person id this login maps to (src/domain/person.ts). */
  person?: string;
  /** argon2id hash; unset when its secret could not be read (then nobody signs in as this user). */
  passwordHash?: Secret;
}

export interface ConsoleOptions {
  deps: ConsoleDeps;
  /** companies[].people by company id: who may see what. */
  people: ReadonlyMap<string, readonly Person[]>;
  /** console.auditors: the persons (e-mail addresses or person ids) who read the whole audit trail. */
  auditors?: readonly string[];
  sessionKey: Secret;
  sessionTtlMs: number;
  /** The address people open (e.g. behind a proxy); default: the bound address. */
  publicUrl?: string;
  /** console.trustedProxies: requests from these take their client address from X-Forwarded-For. */
  trustedProxies?: readonly string[];
  oidc?: ConsoleOidcOptions;
  localUsers: readonly ConsoleLocalUser[];
  /** console.signInLimit: failed password sign-ins allowed per user name and per address in the window. */
  signInLimit?: SignInLimit;
  logger: Logger;
  /** How often refused minutes are written to the audit trail (default REFUSAL_FLUSH_MS, refusal-timer.ts). */
  refusalFlushMs?: number;
  /** Default: CONSOLE_PAGES and CONSOLE_ACTIONS of ./pages/index.ts (tests add their own). */
  pages?: readonly ConsolePage[];
  actions?: readonly ConsoleAction[];
}
