// Signing in and out: local users (argon2id hashes from the configuration's secrets) and the
// company's OpenID Connect provider. Whoever signs in must be in some company's people list
// (matched by e-mail); a person with no role anywhere is told so and gets no session.
import { verify } from '@node-rs/argon2';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { render, Sentence, type Html } from '../../html/index.js';
import {
  acceptedLanguages,
  chooseLocale,
  t,
  withLocale,
  type MessageKey,
  type MessageValues,
} from '../../i18n/index.js';
import { renderLayout } from './layout.js';
import { OidcSignIn } from './oidc.js';
import type { Reservation } from '../../store/index.js';
import type { ConsoleOptions, SignInLimit } from './options.js';
import { auditOrigin } from './page.js';
import { consolePersonOf, isAuditor, personName, rolesByCompany } from './people.js';
import { currentSession, endSession, openSession } from './sessions.js';
import {
  clearCookie,
  CONSOLE_PREFIX,
  newToken,
  PRE_SESSION_COOKIE,
  readSigned,
  SESSION_COOKIE,
  tokenMatches,
  writeSigned,
  type CookieSettings,
} from './session.js';
import { auditReason } from '../../domain/audit-reason.js';

/** What sign-in keeps between showing the form (or leaving for the provider) and coming back. */
interface PreSession {
  token: string;
  next: string;
  exp: number;
  oidc?: { state: string; nonce: string; verifier: string };
}

const PRE_SESSION_MS = 10 * 60_000;
/** Verified when the user name is unknown, so a wrong name takes as long as a wrong password. */
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$KdvoLHaGmOxfENZJy2+hqQ$SE0Wlxw1ZRSSqLQq9VSHOTMnhxZlTVXG3t8t/PD9fE4';

export interface SignInRoutes {
  /** Where the provider sends people back to (registered at the provider). */
  callbackPath: string;
}

export function registerSignIn(
  app: FastifyInstance,
  options: ConsoleOptions,
  settings: CookieSettings & { baseUrl: () => string },
): SignInRoutes {
  const now = () => options.deps.clock.now().getTime();
  const callbackPath = `${CONSOLE_PREFIX}/sign-in/oidc/callback`;
  const oidc = options.oidc && new OidcSignIn(options.oidc, () => `${settings.baseUrl()}${callbackPath}`);

  const begin = (reply: FastifyReply, next: string, extra: Partial<PreSession> = {}): PreSession => {
    const pre: PreSession = { token: newToken(), next, exp: now() + PRE_SESSION_MS, ...extra };
    writeSigned(reply, PRE_SESSION_COOKIE, pre, { ...settings, expiresAt: pre.exp });
    return pre;
  };

  const startSession = async (
    req: FastifyRequest,
    reply: FastifyReply,
    who: { id: string; email: string; name?: string },
    next: string,
  ) => {
    const person = consolePersonOf(options, who);
    // An install-wide auditor may have no role in any company: they read the audit trail.
    if (rolesByCompany(options, person).size === 0 && !isAuditor(options, person)) {
      options.logger.warn('console sign-in refused: not in any company people list', { user: who.id });
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(
          renderLayout({
            title: t('signIn.noAccess.title'),
            body: render(
              <p>
                <Sentence
                  k="signIn.noAccess.body"
                  values={{ email: who.email }}
                  tags={{ code: (text) => <code>{text}</code> }}
                />
              </p>,
            ),
          }),
        );
    }
    const name = personName(options, person) ?? who.name ?? who.email;
    await openSession(options, req, reply, { id: who.id, email: who.email, name, person }, settings);
    clearCookie(reply, PRE_SESSION_COOKIE);
    options.logger.info('console sign-in', { user: who.id });
    return reply.redirect(next, 303);
  };

  app.get(`${CONSOLE_PREFIX}/sign-in`, (req: FastifyRequest<{ Querystring: { next?: string } }>, reply) =>
    inBrowserLanguage(req, () => {
      const pre = begin(reply, safeNext(req.query.next));
      return sendHtml(reply, 200, signInPage(options, pre.token));
    }),
  );

  app.post(`${CONSOLE_PREFIX}/sign-in`, (req: FastifyRequest<{ Body: Record<string, string> }>, reply) =>
    inBrowserLanguage(req, async () => {
      const pre = readSigned<PreSession>(req, PRE_SESSION_COOKIE, now());
      const form = req.body ?? {};
      const failures = options.deps.store.signInFailures;
      // A form is sent once: the same token again (a replay, or many copies at once) is refused
      // before anything is counted or checked.
      if (!pre || !tokenMatches(form._csrf, pre.token) || !(await failures.useFormToken(pre.token, PRE_SESSION_MS)))
        return sendHtml(reply, 403, signInPage(options, begin(reply, '/console/').token, 'signIn.expired'));
      const username = typeof form.username === 'string' ? form.username.slice(0, 64) : '';
      const reservation = await failures.reserve(username, req.ip, limitOf(options));
      if (!reservation.allowed) {
        const refused = await refuse(options, username, req.ip, reservation);
        return sendHtml(
          reply.header('retry-after', String(refused.retryAfterS)),
          429,
          signInPage(options, begin(reply, pre.next).token, refused.message),
        );
      }
      const user = options.localUsers.find((u) => u.username === form.username);
      const hash = user?.passwordHash?.reveal() ?? DUMMY_HASH;
      const ok = await verify(hash, typeof form.password === 'string' ? form.password : '').catch(() => false);
      if (!user?.passwordHash || !ok) {
        // The reserved attempt stays counted as the failure it was.
        options.logger.warn('console sign-in failed', { username, address: req.ip });
        return sendHtml(reply, 401, signInPage(options, begin(reply, pre.next).token, 'signIn.wrong'));
      }
      await failures.succeeded(username, reservation.attemptId);
      return startSession(req, reply, { id: `local:${user.username}`, email: user.email }, pre.next);
    }),
  );

  app.get(`${CONSOLE_PREFIX}/sign-in/oidc`, async (req: FastifyRequest<{ Querystring: { next?: string } }>, reply) => {
    if (!oidc) return reply.code(404).send();
    const started = await oidc.start();
    const { url, ...expected } = started;
    begin(reply, safeNext(req.query.next), { oidc: expected });
    return reply.redirect(url, 303);
  });

  app.get(callbackPath, (req, reply) =>
    inBrowserLanguage(req, async () => {
      if (!oidc) return reply.code(404).send();
      const pre = readSigned<PreSession>(req, PRE_SESSION_COOKIE, now());
      const retry = (message: MessageKey) =>
        sendHtml(reply, 403, signInPage(options, begin(reply, pre?.next ?? '/console/').token, message));
      if (!pre?.oidc) return retry('signIn.oidcTooLong');
      const url = new URL(req.url, settings.baseUrl());
      let identity;
      try {
        identity = await oidc.finish(url, pre.oidc);
      } catch (error) {
        options.logger.warn('console OIDC sign-in failed', {
          error: error instanceof Error ? error.message : String(error),
        });
        return retry('signIn.oidcNotConfirmed');
      }
      if (!identity.email || identity.emailVerified === false) return retry('signIn.oidcNoEmail');
      return startSession(
        req,
        reply,
        { id: identity.id, email: identity.email, ...(identity.name ? { name: identity.name } : {}) },
        pre.next,
      );
    }),
  );

  app.post(`${CONSOLE_PREFIX}/sign-out`, (req: FastifyRequest<{ Body: Record<string, string> }>, reply) =>
    inBrowserLanguage(req, async () => {
      const session = await currentSession(options, req);
      if (session && !tokenMatches(req.body?._csrf, session.csrf))
        return sendHtml(
          reply,
          403,
          renderLayout({
            title: t('signIn.refused.title'),
            body: render(<p>{t('signIn.refused.body')}</p>),
          }),
        );
      clearCookie(reply, SESSION_COOKIE);
      if (session) {
        // Ended server-side: a copy of the cookie opens nothing any more.
        await endSession(options, session);
        options.logger.info('console sign-out', { user: session.id });
      }
      return reply.redirect(`${CONSOLE_PREFIX}/sign-in`, 303);
    }),
  );

  return { callbackPath };
}

const DEFAULT_LIMIT: SignInLimit = { perUser: 5, perAddress: 20, windowMs: 15 * 60_000 };

function limitOf(options: ConsoleOptions): SignInLimit {
  return options.signInLimit ?? DEFAULT_LIMIT;
}

/**
 * This name or this address used up its failed sign-ins in the window, so the attempt was
 * refused before the password was checked (a right one too). The lockout is logged and written
 * to the audit trail once — the name and the address, never the password.
 */
async function refuse(
  options: ConsoleOptions,
  username: string,
  address: string,
  reservation: Extract<Reservation, { allowed: false }>,
): Promise<{ message: MessageKey | { key: MessageKey; values: MessageValues }; retryAfterS: number }> {
  const limit = limitOf(options);
  const { counts } = reservation;
  const byUser = reservation.by === 'user';
  const now = options.deps.clock.now().getTime();
  const until = (counts.oldestAt?.getTime() ?? now) + limit.windowMs;
  const minutes = Math.max(1, Math.ceil((until - now) / 60_000));
  const which = byUser ? 'user name' : 'address';
  // One log line and one audit entry per lockout (named by its oldest failure), not one per
  // refused request: someone hammering the form must not grow the never-purged trail.
  const lockout = `console-sign-in-refused:${byUser ? `user:${username}` : `address:${address}`}:${counts.oldestAt?.toISOString() ?? ''}`;
  if (await options.deps.store.dedupe.recordAlertSent(lockout, 'audit')) {
    options.logger.warn('console sign-in refused: too many failed attempts', { username, address, by: which });
    await options.deps.store.audit.append({
      actor: `local:${username}`,
      action: 'console.sign-in.refused',
      subject: { type: 'console', id: `${CONSOLE_PREFIX}/sign-in` },
      ...auditReason.signInLockout(byUser ? 'user' : 'address'),
      origin: auditOrigin({ actor: `local:${username}`, address }),
      details: { failuresByUser: counts.byUser, failuresByAddress: counts.byAddress, windowMs: limit.windowMs },
    });
  }
  return {
    message: { key: 'signIn.tooMany', values: { by: byUser ? 'user' : 'address', minutes } },
    retryAfterS: minutes * 60,
  };
}

/** Only a path inside the console: never an address elsewhere (no open redirect). */
export function safeNext(next: string | undefined): string {
  return next && /^\/console\/[^/\\]?/.test(next) && !next.startsWith('//') && !/[\\\r\n]/.test(next)
    ? next
    : `${CONSOLE_PREFIX}/`;
}

/**
 * Runs `work` in the browser's language (Accept-Language, else English): nobody is known before
 * the sign-in, so neither their own language nor their company's can be chosen yet.
 */
function inBrowserLanguage<R>(req: FastifyRequest, work: () => R): R {
  return withLocale(chooseLocale(acceptedLanguages(req.headers['accept-language'])), work);
}

export function sendHtml(reply: FastifyReply, status: number, html: Html): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

/** The sign-in page in the browser's language, with what went wrong (a sentence of the catalogue). */
function signInPage(
  options: ConsoleOptions,
  token: string,
  problem?: MessageKey | { key: MessageKey; values: MessageValues },
): Html {
  const said = typeof problem === 'string' ? t(problem) : problem && t(problem.key, problem.values);
  return renderLayout({
    title: t('signIn.title'),
    body: render(
      <>
        {said && (
          <p class="bad" role="alert">
            {said}
          </p>
        )}
        {options.oidc && (
          <p>
            <a href={`${CONSOLE_PREFIX}/sign-in/oidc`}>{t('signIn.withCompanyAccount')}</a>
          </p>
        )}
        {options.localUsers.length > 0 && (
          <form method="post" action={`${CONSOLE_PREFIX}/sign-in`} class="box">
            <input type="hidden" name="_csrf" value={token} />
            <label for="username">{t('signIn.username')}</label>
            <input id="username" name="username" autocomplete="username" required />
            <label for="password">{t('signIn.password')}</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required />
            <p>
              <button type="submit">{t('signIn.submit')}</button>
            </p>
          </form>
        )}
      </>,
    ),
  });
}
