// Building blocks of the console's pages: every value from outside goes through `esc` (the
// report's escaper) before it reaches the page; tables carry a caption and header scopes; the
// pager is a plain link carrying the next page's cursor, so no JavaScript is needed.
import { currencyExponent } from '../../../domain/currency.js';
import { formatMinor } from '../../../domain/money.js';
import type { Role } from '../../../domain/roles.js';
import { formatInZone } from '../../../domain/zoned-time.js';
import { escapeHtml } from '../../../formats/report/escape.js';
import type { StoredPayment } from '../../../store/index.js';
import { normalizeIban } from '../../../domain/account-id.js';
import type { ConsoleDeps, PageRequest } from '../page.js';

/**
 * Bidirectional controls (U+202A–U+202E, U+2066–U+2069) in outside text would reorder what the
 * reader sees ("invoice‮fdp.exe"): they are shown as their code point instead.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** Escapes outside text for HTML text and attribute values, with bidi controls made visible. */
export function esc(text: string): string {
  return escapeHtml(text).replace(
    BIDI_CONTROLS,
    (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}

/** Text shown where a value is hidden from a person without the payroll role. */
export const PAYROLL_HIDDEN = 'payroll (hidden)';

/** A table with its caption, header cells scoped to their column, and body rows already escaped. */
export function table(caption: string, headers: readonly string[], rows: readonly string[][]): string {
  const head = headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
  const body = rows.length
    ? rows.map((cells) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n')
    : `<tr><td colspan="${headers.length}">none</td></tr>`;
  return `<table>\n<caption>${esc(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** A vertical table of one record: each row's header is the row's scope. */
export function facts(caption: string, rows: readonly [string, string][]): string {
  const body = rows.map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td>${v}</td></tr>`).join('\n');
  return `<table>\n<caption>${esc(caption)}</caption>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** A link whose path and query come from outside: both escaped. */
export function link(href: string, text: string): string {
  return `<a href="${esc(href)}">${esc(text)}</a>`;
}

/** The same page with these query parameters changed (the company kept). */
export function withQuery(path: string, req: PageRequest, changes: Record<string, string | undefined>): string {
  const q = new URLSearchParams(req.query);
  q.set('company', req.company);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) q.delete(k);
    else q.set(k, v);
  }
  return `${path}?${q.toString()}`;
}

/** The "next page" link, when there is one. */
export function pager(path: string, req: PageRequest, next: string | undefined): string {
  const first = req.query.has('after') ? link(withQuery(path, req, { after: undefined }), 'First page') : '';
  const more = next ? link(withQuery(path, req, { after: next }), 'Next page') : '';
  return first || more ? `<nav aria-label="pages">${[first, more].filter(Boolean).join(' · ')}</nav>` : '';
}

/** A path inside the console for the chosen company. */
export function href(path: string, req: PageRequest, extra: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ company: req.company, ...extra }).toString()}`;
}

export function amount(minor: bigint, currency: string): string {
  return `${esc(formatMinor(minor, currencyExponent(currency) ?? 2))} ${esc(currency)}`;
}

/** Minor units per currency as "1.00 EUR, 2.00 NOK". */
export function totals(byCurrency: Record<string, bigint | string>): string {
  const parts = Object.entries(byCurrency).map(([c, v]) => amount(BigInt(v), c));
  return parts.length ? parts.join(', ') : '–';
}

export function timeZoneOf(deps: ConsoleDeps, company: string): string {
  return deps.companies.find((c) => c.id === company)?.timeZone ?? 'UTC';
}

/** An instant in the company's zone, e.g. "2026-01-12 09:00 Europe/Oslo". */
export function when(deps: ConsoleDeps, req: PageRequest, at: Date | undefined): string {
  return at ? esc(formatInZone(at, timeZoneOf(deps, req.company))) : '–';
}

export function hasRole(req: PageRequest, ...roles: Role[]): boolean {
  const mine = req.user.rolesByCompany.get(req.company);
  return roles.some((r) => mine?.has(r) === true);
}

/** The debtor accounts whose lines are payroll besides SALA lines, normalised. */
export function payrollAccounts(deps: ConsoleDeps, company: string): string[] {
  return (deps.companies.find((c) => c.id === company)?.payrollAccounts ?? []).map(normalizeIban);
}

/** Whether the payment is payroll (SALA or a payroll account): its amount and creditor are the payroll role's only. */
export function isPayroll(deps: ConsoleDeps, payment: StoredPayment): boolean {
  return (
    payment.categoryPurpose === 'SALA' ||
    payrollAccounts(deps, payment.company).includes(normalizeIban(payment.debtorIban))
  );
}

/** What a person may see of a payment line: amount and creditor unless it is payroll and they lack the role. */
export function visibleLine(
  deps: ConsoleDeps,
  req: PageRequest,
  p: StoredPayment,
): { amount: string; creditor: string; creditorIban: string; remittance: string } {
  if (isPayroll(deps, p) && !hasRole(req, 'payroll'))
    return { amount: PAYROLL_HIDDEN, creditor: PAYROLL_HIDDEN, creditorIban: PAYROLL_HIDDEN, remittance: '' };
  return {
    amount: amount(p.amount.minor, p.amount.currency),
    creditor: esc(p.creditorName),
    creditorIban: esc(p.creditorIban),
    remittance: esc(p.remittanceInformation ?? ''),
  };
}

/** The hidden CSRF field every form carries. */
export function csrfField(req: PageRequest): string {
  return `<input type="hidden" name="_csrf" value="${esc(req.csrfToken)}">`;
}

/** A page that says what went wrong, in the reader's words. */
export function problem(
  title: string,
  message: string,
  status: number,
): { title: string; body: string; status: number } {
  return { title, body: `<p>${esc(message)}</p>`, status };
}
