// The one layout every console page is wrapped in: navigation (the pages that name a nav entry
// and that the person's role in the chosen company allows), the company switcher (a plain GET
// form: it works without JavaScript), who is signed in, and sign out (a POST with the CSRF
// token). Every value from outside is escaped here; page bodies arrive escaped already.
import { roleAllows, type Role } from '../../domain/roles.js';
import { esc } from './pages/html.js';
import type { ConsolePage, ConsoleUser } from './page.js';
import { CONSOLE_PREFIX } from './session.js';

export interface LayoutInput {
  title: string;
  body: string;
  /** Absent on the sign-in and error pages of someone not signed in. */
  user?: ConsoleUser;
  company?: string;
  companies?: readonly { id: string; name: string }[];
  pages?: readonly ConsolePage[];
  /** The route path of the page shown, to mark its nav entry. */
  current?: string;
  csrfToken?: string;
}

export function renderLayout(input: LayoutInput): string {
  // Bidi-safe: a company or file name from outside cannot reorder the title either.
  const e = esc;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(input.title)} · settle</title>
<link rel="stylesheet" href="${CONSOLE_PREFIX}/style.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<strong>settle</strong>
${input.user ? signedInHeader(input, input.user) : ''}
</header>
<main id="main">
<h1>${e(input.title)}</h1>
${input.body}
</main>
</body>
</html>
`;
}

function signedInHeader(input: LayoutInput, user: ConsoleUser): string {
  // Bidi-safe: a company or file name from outside cannot reorder the title either.
  const e = esc;
  const company = input.company;
  const roles: ReadonlySet<Role> = (company && user.rolesByCompany.get(company)) || new Set<Role>();
  const links = (input.pages ?? [])
    .filter((p) => p.nav !== undefined && !p.path.includes(':') && roleAllows(roles, p.role))
    .map((p) => {
      const href = `${p.path}${company ? `?company=${encodeURIComponent(company)}` : ''}`;
      const current = p.path === input.current ? ' aria-current="page"' : '';
      return `<li><a href="${e(href)}"${current}>${e(p.nav ?? '')}</a></li>`;
    })
    .join('');
  const mine = (input.companies ?? []).filter((c) => user.rolesByCompany.has(c.id));
  const options = mine
    .map((c) => `<option value="${e(c.id)}"${c.id === company ? ' selected' : ''}>${e(c.name)}</option>`)
    .join('');
  const switcher =
    mine.length > 1
      ? `<form method="get" action="${e(input.current && !input.current.includes(':') ? input.current : `${CONSOLE_PREFIX}/`)}"><label for="company-switch" class="skip">Company</label><select id="company-switch" name="company">${options}</select><button type="submit">Switch</button></form>`
      : `<span>${e(mine[0]?.name ?? '')}</span>`;
  const roleText = [...roles].sort().join(', ');
  return `<nav aria-label="Console"><ul>${links}</ul></nav>
${switcher}
<div class="who"><span>${e(user.name)}${roleText ? ` (${e(roleText)})` : ''}</span>
<form method="post" action="${CONSOLE_PREFIX}/sign-out"><input type="hidden" name="_csrf" value="${e(input.csrfToken ?? '')}"><button type="submit">Sign out</button></form></div>`;
}
