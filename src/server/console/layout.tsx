// The one layout every console page is wrapped in: navigation (the pages that name a nav entry
// and that the person's roles in the chosen company may open, ./access.ts), the company switcher (a plain GET
// form: it works without JavaScript), who is signed in, and sign out (a POST with the CSRF
// token). The template engine escapes every value here; the page's body arrives rendered.
import type { Role } from '../../domain/roles.js';
import { Document, Embedded, render, type Html } from '../../html/index.js';
import { CATALOGUES, currentLocale, t } from '../../i18n/index.js';
import { mayOpen } from './access.js';
import type { ConsolePage, ConsoleUser } from './page.js';
import { CONSOLE_PREFIX } from './session.js';

/** The product's name: a name, the same in every language. */
const PRODUCT = 'settle';

export interface LayoutInput {
  title: string;
  body: Html;
  /** Absent on the sign-in and error pages of someone not signed in. */
  user?: ConsoleUser;
  company?: string;
  companies?: readonly { id: string; name: string }[];
  pages?: readonly ConsolePage[];
  /** The route path of the page shown, to mark its nav entry. */
  current?: string;
  csrfToken?: string;
}

export function renderLayout(input: LayoutInput): Html {
  return render(
    <Document lang={CATALOGUES[currentLocale()].tag}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${input.title} · settle`}</title>
        <link rel="stylesheet" href={`${CONSOLE_PREFIX}/style.css`} />
      </head>
      <body>
        <a class="skip" href="#main">
          {t('console.skipToContent')}
        </a>
        <header>
          <strong>{PRODUCT}</strong>
          {input.user && <SignedInHeader input={input} user={input.user} />}
        </header>
        <main id="main">
          <h1>{input.title}</h1>
          <Embedded html={input.body} />
        </main>
      </body>
    </Document>,
  );
}

function SignedInHeader({ input, user }: { input: LayoutInput; user: ConsoleUser }) {
  const company = input.company;
  const roles: ReadonlySet<Role> = (company && user.rolesByCompany.get(company)) || new Set<Role>();
  const mine = (input.companies ?? []).filter((c) => user.rolesByCompany.has(c.id));
  const links = (input.pages ?? []).filter(
    (p) =>
      p.nav !== undefined &&
      !p.path.includes(':') &&
      mayOpen({ roles, auditor: user.auditor }, p.path) &&
      (p.acrossCompanies !== true || mine.length > 1),
  );
  const roleText = [...roles].sort().join(', ');
  const switchTo = input.current && !input.current.includes(':') ? input.current : `${CONSOLE_PREFIX}/`;
  return (
    <>
      <nav aria-label={t('console.nav')}>
        <ul>
          {links.map((p) => (
            <li>
              <a
                href={`${p.path}${company ? `?company=${encodeURIComponent(company)}` : ''}`}
                aria-current={p.path === input.current ? 'page' : undefined}
              >
                {t(p.nav!)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {mine.length > 1 ? (
        <form method="get" action={switchTo}>
          <label for="company-switch" class="skip">
            {t('console.company')}
          </label>
          <select id="company-switch" name="company">
            {mine.map((c) => (
              <option value={c.id} selected={c.id === company}>
                {c.name}
              </option>
            ))}
          </select>
          <button type="submit">{t('console.switchCompany')}</button>
        </form>
      ) : (
        <span>{mine[0]?.name ?? ''}</span>
      )}
      <div class="who">
        <span>
          {roleText || user.auditor
            ? t('console.signedInAs', {
                name: user.name,
                roles: [roleText, user.auditor && t('console.auditorRole')].filter(Boolean).join(', '),
              })
            : user.name}
        </span>
        <form method="post" action={`${CONSOLE_PREFIX}/sign-out`}>
          <input type="hidden" name="_csrf" value={input.csrfToken ?? ''} />
          <button type="submit">{t('console.signOut')}</button>
        </form>
      </div>
    </>
  );
}
