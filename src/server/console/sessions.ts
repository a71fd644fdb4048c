// Server-side console sessions (src/store/console-sessions.ts): the signed cookie carries a
// random session id, and a session counts only while its row is open. Sign-in opens a new one
// (a new id each time: the id is rotated, and the browser's earlier session is ended); sign-out
// ends it; a session opened with a password that has since changed in the configuration ends
// at its next request; `revokeSessionsOf` ends every session of a person or a login (for a
// configuration reload that removes someone's roles).
import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../../store/index.js';
import type { ConsoleOptions } from './options.js';
import { newToken, readSigned, SESSION_COOKIE, writeSigned, type CookieSettings, type Session } from './session.js';

/** A fingerprint of the login's current password hash (keyed, so the table reveals nothing of it). */
function credentialOf(options: ConsoleOptions, login: string): string | undefined {
  if (!login.startsWith('local:')) return undefined;
  const hash = options.localUsers.find((u) => `local:${u.username}` === login)?.passwordHash?.reveal();
  return hash === undefined ? undefined : createHmac('sha256', options.sessionKey.reveal()).update(hash).digest('hex');
}

/** Opens a new session for who signed in, ending the one this browser had before. */
export async function openSession(
  options: ConsoleOptions,
  req: FastifyRequest,
  reply: FastifyReply,
  who: { id: string; email: string; name: string; person: string },
  settings: CookieSettings,
): Promise<void> {
  const store = options.deps.store.consoleSessions;
  const earlier = readSigned<Session>(req, SESSION_COOKIE, options.deps.clock.now().getTime());
  if (earlier?.sid) await store.revoke(earlier.sid);
  const session: Session = {
    id: who.id,
    sid: newToken(),
    email: who.email,
    name: who.name,
    csrf: newToken(),
    exp: options.deps.clock.now().getTime() + options.sessionTtlMs,
  };
  const credential = credentialOf(options, who.id);
  await store.open({
    id: session.sid,
    login: who.id,
    person: who.person,
    ...(credential ? { credential } : {}),
    expiresAt: new Date(session.exp),
  });
  writeSigned(reply, SESSION_COOKIE, session, { ...settings, expiresAt: session.exp });
}

/** The request's session, when its cookie is valid and its server-side row still open. */
export async function currentSession(options: ConsoleOptions, req: FastifyRequest): Promise<Session | undefined> {
  const session = readSigned<Session>(req, SESSION_COOKIE, options.deps.clock.now().getTime());
  if (!session?.sid) return undefined;
  const store = options.deps.store.consoleSessions;
  const active = await store.active(session.sid);
  if (!active || active.login !== session.id) return undefined;
  if (active.credential !== credentialOf(options, active.login)) {
    // The password changed (or the user was removed) since this session was opened.
    await store.revoke(session.sid);
    options.logger.info('console session ended: the password changed', { user: active.login });
    return undefined;
  }
  return session;
}

/** Ends the session of this request (sign-out). */
export async function endSession(options: ConsoleOptions, session: Session): Promise<void> {
  await options.deps.store.consoleSessions.revoke(session.sid);
}

/**
 * Ends every open session of a person (src/domain/person.ts's personOf) or of one login, e.g.
 * when a configuration reload removes their roles. Returns how many were ended.
 */
export function revokeSessionsOf(
  store: Pick<Store, 'consoleSessions'>,
  who: { person: string } | { login: string },
): Promise<number> {
  return store.consoleSessions.revokeOf(who);
}
