// The console's own HTTP listener (docs/console.md): separate from the webhook server, so the
// bank's webhook can face the internet while the console stays on loopback (its default).
// Every answer carries a strict Content-Security-Policy and no-store; fastify's logger stays
// off (request headers carry the session cookie).
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { render } from '../../html/index.js';
import { acceptedLanguages, chooseLocale, t, withLocale, type Locale } from '../../i18n/index.js';
import { renderLayout } from './layout.js';
import type { ConsoleOptions } from './options.js';
import { CONSOLE_ACTIONS, CONSOLE_PAGES } from './pages/index.js';
import { flushRefusalsByTimer } from './refusal-timer.js';
import { registerRoutes } from './router.js';
import { CONSOLE_PREFIX } from './session.js';
import { registerSignIn, sendHtml } from './sign-in.js';
import { CONSOLE_CSS } from './style.js';

export const CONSOLE_CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export interface ConsoleServer {
  app: FastifyInstance;
  /** Set once listening when no publicUrl is configured: the address sign-in redirects come back to. */
  setBaseUrl(url: string): void;
}

export async function buildConsoleServer(options: ConsoleOptions): Promise<ConsoleServer> {
  // Behind trusted proxies req.ip is the client X-Forwarded-For names (the sign-in limit counts
  // people, not the proxy); otherwise the header is ignored, so no client picks its own address.
  const trustProxy = options.trustedProxies?.length ? [...options.trustedProxies] : false;
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024, return503OnClosing: true, trustProxy });
  let baseUrl = options.publicUrl?.replace(/\/+$/, '') ?? 'http://127.0.0.1';
  const secure = baseUrl.startsWith('https:');
  await app.register(cookie, { secret: options.sessionKey.reveal() });
  await app.register(formbody);

  app.addHook('onSend', async (_req, reply, payload) => {
    // A recorded report sets its own, stricter policy (router.tsx, sendDownload).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONSOLE_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  app.setErrorHandler((error: FastifyError, req, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500)
      options.logger.error('console request failed', {
        method: req.method,
        path: req.url.split('?')[0],
        error: error.message,
      });
    return withLocale(browserLocale(req), () =>
      sendHtml(
        reply,
        status,
        renderLayout({
          title: t(status === 500 ? 'consoleError.failed.title' : 'consoleError.badRequest.title'),
          body: render(<p>{t(status === 500 ? 'consoleError.failed.body' : 'consoleError.badRequest.body')}</p>),
        }),
      ),
    );
  });
  app.setNotFoundHandler((req, reply) =>
    withLocale(browserLocale(req), () =>
      sendHtml(
        reply,
        404,
        renderLayout({
          title: t('consoleError.notFound.title'),
          body: render(
            <p>
              <a href={`${CONSOLE_PREFIX}/`}>{t('consoleError.notFound.back')}</a>
            </p>,
          ),
        }),
      ),
    ),
  );

  app.get(`${CONSOLE_PREFIX}/style.css`, async (_req, reply) =>
    reply.header('cache-control', 'private, max-age=300').type('text/css; charset=utf-8').send(CONSOLE_CSS),
  );
  app.get('/', async (_req, reply) => reply.redirect(`${CONSOLE_PREFIX}/`, 303));
  registerSignIn(app, options, { secure, baseUrl: () => baseUrl });
  registerRoutes(app, options, { pages: options.pages ?? CONSOLE_PAGES, actions: options.actions ?? CONSOLE_ACTIONS });
  flushRefusalsByTimer(app, options);
  return {
    app,
    setBaseUrl(url) {
      if (!options.publicUrl) baseUrl = url.replace(/\/+$/, '');
    },
  };
}

/** The language of a page shown before anyone is known: the browser's, else English. */
function browserLocale(req: { headers: Record<string, string | string[] | undefined> }): Locale {
  const header = req.headers['accept-language'];
  return chooseLocale(acceptedLanguages(Array.isArray(header) ? header[0] : header));
}
