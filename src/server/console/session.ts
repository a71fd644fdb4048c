// Console session cookies, signed (@fastify/cookie with the configured sessionKey): HttpOnly,
// SameSite=Lax, path /console, Secure when the console is served over https, with an expiry
// both in the cookie and inside the signed value. The value holds who signed in, the session id
// and the session's CSRF token (synchronizer token: every form carries it, every POST must send
// it back). The session id counts only while its row in the database is open (sessions.ts), so
// a session ends at sign-out for every copy of the cookie; instances share the database.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type {} from '@fastify/cookie'; // its declarations add the cookie methods to fastify's types
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'settle_console';
/** A short-lived signed cookie for what sign-in itself needs (login form token, OIDC state). */
export const PRE_SESSION_COOKIE = 'settle_console_signin';
export const CONSOLE_PREFIX = '/console';

export interface Session {
  /** `oidc:<issuer>#<sub>` or `local:<username>`. */
  id: string;
  /** The random session id, new at each sign-in; it counts while its server-side row is open (sessions.ts). */
  sid: string;
  name: string;
  email: string;
  csrf: string;
  /** Expiry, ms since the epoch. */
  exp: number;
}

export interface CookieSettings {
  secure: boolean;
}

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function writeSigned(
  reply: FastifyReply,
  name: string,
  value: object,
  options: CookieSettings & { expiresAt: number },
): void {
  reply.setCookie(name, Buffer.from(JSON.stringify(value)).toString('base64url'), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: options.secure,
    path: CONSOLE_PREFIX,
    expires: new Date(options.expiresAt),
  });
}

/** The value of a signed cookie whose signature holds and whose `exp` is after `now`. */
export function readSigned<T extends { exp: number }>(req: FastifyRequest, name: string, now: number): T | undefined {
  const raw = req.cookies[name];
  if (!raw) return undefined;
  const unsigned = req.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return undefined;
  try {
    const value = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')) as T;
    return typeof value.exp === 'number' && value.exp > now ? value : undefined;
  } catch {
    return undefined;
  }
}

export function clearCookie(reply: FastifyReply, name: string): void {
  reply.clearCookie(name, { path: CONSOLE_PREFIX });
}

/** Constant-time comparison of a sent token with the expected one. */
export function tokenMatches(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}
