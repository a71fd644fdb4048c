// Registers every ConsolePage (GET) and ConsoleAction (POST) behind the same gate: a valid
// session (else to sign-in), a company the person has a role in (`?company=`, or the first one
// they have), what the person's roles there may open or do (the one table of ./access.ts), and
// for actions the session's CSRF token. `/console/` without a company is the landing: it sends
// each person where their work starts (an approver to Approvals). Every action is written to
// the audit trail here — who, what, when, from which address and with what outcome — so no
// action can forget it; an action that wrote its own, more specific entry for its change says so
// (`audited: true`) and gets no second one. An action refused for a missing role, by the gate or
// by the action itself (`refusedRole`), is audited by one function, `refusal`: counted per person,
// route, company and minute (src/store/audit-refusals.ts), so hammering it cannot grow the trail. The audit trail's pages also let in the install-wide auditors of
// console.auditors.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../domain/roles.js';
import { render, Sentence, type Html } from '../../html/index.js';
import { acceptedLanguages, chooseLocale, t, withLocale, type Locale } from '../../i18n/index.js';
import { auditorsMay, landingOf, mayOpen, mayPost, rolesFor, TODAY, ACTION_NEEDS } from './access.js';
import { renderLayout } from './layout.js';
import type { ConsoleOptions } from './options.js';
import {
  auditOrigin,
  type ActionResult,
  type ConsoleAction,
  type ConsolePage,
  type ConsoleUser,
  type PageRequest,
  type PageResult,
} from './page.js';
import { consolePersonOf, isAuditor, personLocale, rolesByCompany } from './people.js';
import { CONSOLE_PREFIX, tokenMatches, type Session } from './session.js';
import { currentSession } from './sessions.js';
import { sendHtml } from './sign-in.js';

type Req = FastifyRequest<{ Querystring: Record<string, string>; Params: Record<string, string>; Body: unknown }>;

interface Gate {
  user: ConsoleUser;
  session: Session;
  company: string;
}

export function registerRoutes(
  app: FastifyInstance,
  options: ConsoleOptions,
  routes: { pages: readonly ConsolePage[]; actions: readonly ConsoleAction[] },
): void {
  const { deps } = options;

  const page = (
    reply: FastifyReply,
    status: number,
    gate: Gate | undefined,
    content: { title: string; body: Html; current?: string },
  ) =>
    sendHtml(
      reply,
      status,
      renderLayout({
        ...content,
        ...(gate ? { user: gate.user, company: gate.company, csrfToken: gate.session.csrf } : {}),
        companies: deps.companies,
        pages: routes.pages,
      }),
    );

  /**
   * The signed-in person and the company of the request, or the answer that ends it. A refusal
   * for a missing role is told to `refused` first (the actions audit it).
   */
  const gate = async (
    req: Req,
    reply: FastifyReply,
    at: { route: { page: string } | { action: string }; company: string | undefined; session: Session | undefined },
    refused?: (user: ConsoleUser, company: string | undefined) => Promise<void>,
  ): Promise<Gate | FastifyReply> => {
    const { route, company, session } = at;
    if (!session) {
      if (req.method !== 'GET')
        return page(reply, 403, undefined, {
          title: t('console.signedOut.title'),
          body: render(
            <p>
              <Sentence
                k="console.signedOut.body"
                tags={{ signIn: (text) => <a href={`${CONSOLE_PREFIX}/sign-in`}>{text}</a> }}
              />
            </p>,
          ),
        });
      return reply.redirect(`${CONSOLE_PREFIX}/sign-in?next=${encodeURIComponent(req.url)}`, 303);
    }
    const person = consolePersonOf(options, { id: session.id, email: session.email });
    const roles = rolesByCompany(options, person);
    const user: ConsoleUser = {
      id: session.id,
      person,
      name: session.name,
      email: session.email,
      rolesByCompany: roles,
      ...(isAuditor(options, person) ? { auditor: true } : {}),
    };
    // An auditor opens the trail's pages in any configured company (its time zone), roles or not.
    if (auditorsMay(route) && user.auditor) {
      const any = deps.companies.find((c) => c.id === company) ?? deps.companies.find((c) => roles.has(c.id));
      return { user, session, company: (any ?? deps.companies[0])?.id ?? '' };
    }
    const chosen = company ?? deps.companies.find((c) => roles.has(c.id))?.id ?? '';
    const allowed = roles.get(chosen);
    const may = (roles: Iterable<Role>) =>
      'page' in route ? mayOpen({ roles }, route.page) : mayPost({ roles }, route.action);
    if (!allowed || !may(allowed)) {
      await refused?.(user, deps.companies.find((c) => c.id === chosen)?.id);
      const fallback: Gate = {
        user,
        session,
        company: allowed ? chosen : (deps.companies.find((c) => roles.has(c.id))?.id ?? ''),
      };
      return page(reply, 403, fallback, {
        title: t('console.notAllowed.title'),
        body: render(
          allowed ? (
            <p>
              <Sentence
                k="console.notAllowed.needsRole"
                values={{ role: neededOf(route), company: chosen, roles: [...allowed].sort().join(', ') }}
                tags={{ b: (text) => <strong>{text}</strong> }}
              />
            </p>
          ) : (
            <p>
              <Sentence k="console.notAllowed.noRole" values={{ company: chosen || '–' }} />
            </p>
          ),
        ),
      });
    }
    return { user, session, company: chosen };
  };

  /**
   * The language of the answer: the person's own (their people entry's `locale`), else the
   * browser's (Accept-Language), else the company's, else English (docs/i18n.md).
   */
  const languageOf = (req: Req, session: Session | undefined, company: string | undefined): Locale => {
    const person = session && consolePersonOf(options, { id: session.id, email: session.email });
    const companyLocale = deps.companies.find((c) => c.id === company)?.locale;
    return chooseLocale([
      person ? personLocale(options, person) : undefined,
      ...acceptedLanguages(req.headers['accept-language']),
      companyLocale,
    ]);
  };

  for (const p of routes.pages) {
    app.get(p.path, async (req: Req, reply) => {
      const session = await currentSession(options, req);
      return withLocale(languageOf(req, session, req.query.company), () => showPage(p, req, reply, session));
    });
  }

  const showPage = async (p: ConsolePage, req: Req, reply: FastifyReply, session: Session | undefined) => {
    const g = await gate(req, reply, { route: { page: p.path }, company: req.query.company, session });
    if (!('user' in g)) return g;
    // The landing: the console's address alone, as after signing in. With a company chosen
    // (the navigation's links, the switcher) `/console/` is Today for everyone.
    if (p.path === TODAY && !req.query.company) {
      const landing = landingOf(g.user.rolesByCompany.get(g.company) ?? []);
      if (landing !== TODAY) return reply.redirect(`${landing}?company=${encodeURIComponent(g.company)}`, 303);
    }
    const request: PageRequest = {
      user: g.user,
      company: g.company,
      query: new URLSearchParams(req.url.split('?')[1] ?? ''),
      params: req.params,
      csrfToken: g.session.csrf,
    };
    let result = await p.load(deps, request);
    if (result.download) {
      const sent = await sendDownload(reply, result.download, (error) => failedMidway(req, reply, error));
      if (!('title' in sent)) return sent;
      result = sent;
    }
    if (result.redirect) return reply.redirect(result.redirect, 303);
    return page(reply, result.status ?? 200, g, { title: result.title, body: result.body, current: p.path });
  };

  /**
   * A download failed after its first bytes went (a report deleted while it was sent): the
   * response is cut, and the error handler, which logs a failure before them, never sees it.
   */
  const failedMidway = (req: Req, reply: FastifyReply, error: unknown) => {
    if (reply.raw.headersSent)
      options.logger.error('console request failed', {
        method: req.method,
        path: req.url.split('?')[0],
        error: error instanceof Error ? error.message : String(error),
      });
  };

  for (const a of routes.actions) {
    app.post(a.path, async (req: Req, reply) => {
      const form = formOf(req.body);
      const session = await currentSession(options, req);
      return withLocale(languageOf(req, session, form.company ?? req.query.company), () =>
        runAction(a, req, reply, form, session),
      );
    });
  }

  const runAction = async (
    a: ConsoleAction,
    req: Req,
    reply: FastifyReply,
    form: Record<string, string>,
    session: Session | undefined,
  ) => {
    // CSRF before anything else: a forged form learns nothing, not even whether the role would do.
    if (session && !tokenMatches(form._csrf, session.csrf))
      return page(reply, 403, undefined, {
        title: t('console.refused.title'),
        body: render(<p>{t('console.refused.csrf')}</p>),
      });
    // Every refusal for a missing role, the gate's and the action's own, is counted here alone.
    const refusal = (user: ConsoleUser, company: string | undefined, needed: string) =>
      deps.store.auditRefusals.record({
        person: user.person,
        actor: user.id,
        route: a.path,
        ...(company === undefined ? {} : { company }),
        origin: auditOrigin({ actor: user.id, address: req.ip }),
        needed,
      });
    const g = await gate(
      req,
      reply,
      { route: { action: a.path }, company: form.company ?? req.query.company, session },
      (user, company) => refusal(user, company, neededOf({ action: a.path })),
    );
    if (!('user' in g)) return g;
    const origin = { actor: g.user.id, address: req.ip };
    const { _csrf: _ignored, ...fields } = form;
    const request = {
      user: g.user,
      company: g.company,
      query: new URLSearchParams(req.url.split('?')[1] ?? ''),
      params: req.params,
      csrfToken: g.session.csrf,
      form: fields,
      origin,
    };
    let result: ActionResult;
    try {
      result = await a.handle(deps, request);
    } catch (error) {
      await audit(options, { action: a, request, outcome: 'failed' });
      throw error;
    }
    if ('refusedRole' in result && result.refusedRole) await refusal(g.user, g.company, result.refusedRole);
    else if (!result.audited)
      await audit(options, {
        action: a,
        request,
        outcome: 'redirect' in result ? 'done' : `status ${result.status}`,
      });
    if ('redirect' in result) return reply.redirect(result.redirect, 303);
    return page(reply, result.status, g, { title: result.title, body: result.body });
  };
}

async function audit(
  options: ConsoleOptions,
  entry: {
    action: ConsoleAction;
    request: {
      company: string;
      form: Record<string, string>;
      origin: { actor: string; address: string };
      params: Readonly<Record<string, string>>;
    };
    outcome: string;
  },
): Promise<void> {
  const { request } = entry;
  // The form's fields are what the person decided (ids, reasons); a password never comes
  // through an action form, and the CSRF token was taken out above.
  await options.deps.store.audit.append({
    actor: request.origin.actor,
    action: `console ${entry.action.path}`,
    subject: { type: 'console', id: fillPath(entry.action.path, request.params) },
    ...(request.form.reason ? { reason: request.form.reason } : {}),
    origin: auditOrigin(request.origin),
    details: { company: request.company, form: request.form, outcome: entry.outcome },
  });
}

/**
 * A recorded report opens in the browser where one reads it there (HTML, text) and downloads
 * otherwise (CSV, for a spreadsheet). Its HTML is from outside data, so it runs in a sandbox
 * (an opaque origin: no script, no cookies, no forms, nothing loaded) with its inline stylesheet
 * alone. An ASCII file name, so the name cannot break the header.
 *
 * Content in pieces (a report's parts) is streamed, chunked: fastify pipes it to the socket,
 * which asks for the next piece only when the last one is written (back-pressure), and one piece
 * is read ahead at most, so a slow reader holds a few parts in memory, not the report. The first
 * piece is read before any header is set: when it fails the handler fails, and the console's
 * error page goes out as it did when the report was read whole; when it fails because the
 * content was deleted meanwhile, the download's `gone` page is returned to be shown instead
 * (a report purged between its row and its first part is a 404, as if never found). The
 * Content-Length is the download's `sizeBytes` where known. A piece that fails after the
 * first bytes cuts the connection, so a reader never takes a short body for a whole one;
 * `failed` hears the error first.
 */
async function sendDownload(
  reply: FastifyReply,
  d: NonNullable<PageResult['download']>,
  failed: (error: unknown) => void,
): Promise<FastifyReply | PageResult> {
  const name = d.fileName.replace(/[^A-Za-z0-9._-]/g, '_');
  const inline = d.mediaType === 'text/html' || d.mediaType === 'text/plain';
  let body: string | Readable;
  if (typeof d.content === 'string') body = d.content;
  // A HEAD gets the headers alone, and no piece is read for it (fastify drains a stream it is given).
  else if (reply.request.method === 'HEAD') body = Readable.from([]);
  else {
    const pieces = d.content[Symbol.asyncIterator]();
    let first: IteratorResult<string>;
    try {
      first = await pieces.next();
    } catch (error) {
      const instead = d.gone?.(error);
      if (instead === undefined) throw error;
      return instead;
    }
    body = Readable.from(continuing(first, pieces, failed), { objectMode: true, highWaterMark: 1 });
  }
  if (typeof d.content !== 'string' && d.sizeBytes !== undefined) void reply.header('content-length', d.sizeBytes);
  return reply
    .code(200)
    .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${name}"`)
    .header('content-security-policy', REPORT_CSP)
    .type(`${d.mediaType}; charset=utf-8`)
    .send(body);
}

/**
 * The first piece, then the rest as they come; `failed` told of an error before it goes on. When
 * the response stops taking them (the reader went away), the rest is ended: no part read after.
 */
async function* continuing(
  first: IteratorResult<string>,
  rest: AsyncIterator<string>,
  failed: (error: unknown) => void,
): AsyncGenerator<string> {
  try {
    for (let next = first; next.done !== true; next = await rest.next()) yield next.value;
  } catch (error) {
    failed(error);
    throw error;
  } finally {
    await rest.return?.();
  }
}

export const REPORT_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

/** The roles that may open the page or send the action, as a refusal names them: "finance | operator". */
function neededOf(route: { page: string } | { action: string }): string {
  const capability = 'action' in route ? ACTION_NEEDS[route.action] : undefined;
  const roles = 'page' in route ? rolesFor({ page: route.page }) : capability ? rolesFor({ capability }) : [];
  return roles.join(' | ') || 'none';
}

function fillPath(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => params[name] ?? `:${name}`);
}

function formOf(body: unknown): Record<string, string> {
  const form: Record<string, string> = {};
  if (body && typeof body === 'object')
    for (const [k, v] of Object.entries(body as Record<string, unknown>)) if (typeof v === 'string') form[k] = v;
  return form;
}
