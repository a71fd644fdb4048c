// Building blocks of the console's pages: links inside the console for the chosen company, the
// pager (a plain link carrying the next page's cursor, so no JavaScript is needed), amounts and
// times as the company reads them, what of a payroll line a person may see, the CSRF field and
// the problem page. Values stay plain strings and numbers; the template engine escapes them.
import { normalizeIban } from '../../../domain/account-id.js';
import {
  isPayrollMoney,
  mayShowMoney,
  visibleTotals,
  type MoneyAt,
  type PayrollPart,
  type PayrollViewer,
} from '../../../domain/payroll.js';
import type { Role } from '../../../domain/roles.js';
import { Amount, Link, render, When, type Child, type Html } from '../../../html/index.js';
import {
  codeCell,
  currentLocale,
  format,
  paymentStateLabel,
  refusalWords,
  t,
  wordsWithCode,
  type WordKind,
} from '../../../i18n/index.js';
import type { SettleError } from '../../../domain/errors.js';
import type { LocalDate } from '../../../domain/local-date.js';
import type { PaymentState } from '../../../domain/states.js';
import type { StoredPayment } from '../../../store/index.js';
import { mayDo, mayOpen, type Capability } from '../access.js';
import type { ActionResult, ConsoleDeps, PageRequest } from '../page.js';

/** Text shown where a value is hidden from a person without the payroll role, in the language of the request. */
export function payrollHidden(): string {
  return t('payments.payrollHidden');
}

/**
 * A calendar date as the reader's language writes it ("08.01.2026" in bokmål); English keeps
 * the ISO date people have always read here, as the approval notice does.
 */
export function day(d: LocalDate): string {
  const locale = currentLocale();
  return locale === 'en' ? d : format.date(d, locale);
}

/**
 * A payment's state in a table: English keeps the code it always showed; another language says
 * it in words with the code beside it ("Avvist av banken (RJCT)"), as the payment's own page does.
 */
export function lineStateCell(state: PaymentState): string {
  const locale = currentLocale();
  return locale === 'en' ? state : t('lineState.withCode', { label: paymentStateLabel(state, locale), code: state });
}

/**
 * A code in a table (a bulk's, a basket's, a consent's or an account's state, a history's entity
 * or source): English keeps the code it always showed; another language says it in words with the
 * code beside it ("Venter på å bli sendt (pending)"); a code the catalogue does not know as it came.
 */
export function codeText(kind: WordKind, code: string): string {
  return codeCell(kind, code, currentLocale());
}

/**
 * A rule's short name with its code beside it ("Endret kreditorkonto (changed-account)"), in
 * every language: finance and support talk in codes, the others read the name.
 */
export function ruleText(code: string): string {
  return wordsWithCode('rule', code, currentLocale());
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

/** A path inside the console for the chosen company. */
export function href(path: string, req: PageRequest, extra: Record<string, string> = {}): string {
  return `${path}?${new URLSearchParams({ company: req.company, ...extra }).toString()}`;
}

/** The "first page" and "next page" links of a keyset-paged list, when there are any. */
export function Pager({ path, req, next }: { path: string; req: PageRequest; next: string | undefined }) {
  const first = req.query.has('after') && (
    <Link href={withQuery(path, req, { after: undefined })}>{t('console.firstPage')}</Link>
  );
  const more = next && <Link href={withQuery(path, req, { after: next })}>{t('console.nextPage')}</Link>;
  if (!first && !more) return null;
  return (
    <nav aria-label={t('console.pages')}>
      {first}
      {first && more && ' · '}
      {more}
    </nav>
  );
}

/** Minor units per currency as "1.00 EUR, 2.00 NOK", or "–" when there are none. */
export function Totals({ byCurrency }: { byCurrency: Record<string, bigint | string> }) {
  const parts = Object.entries(byCurrency);
  if (parts.length === 0) return <>–</>;
  return <>{parts.map(([currency, v], i) => [i > 0 && ', ', <Amount money={{ minor: BigInt(v), currency }} />])}</>;
}

export function timeZoneOf(deps: ConsoleDeps, company: string): string {
  return deps.companies.find((c) => c.id === company)?.timeZone ?? 'UTC';
}

/** An instant in the company's zone, e.g. "2026-01-12 09:00 Europe/Oslo", or "–". */
export function when(deps: ConsoleDeps, req: PageRequest, at: Date | undefined) {
  return <When at={at} zone={timeZoneOf(deps, req.company)} />;
}

/** "2026-01-05 08:00" in the zone (the company's), for people rather than machines. */
export function localTime(at: Date | string, timeZone: string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return String(at);
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/** Whether the person may do this in the chosen company (the one table of ../access.ts): whether to show its form. */
export function may(req: PageRequest, capability: Capability): boolean {
  return mayDo({ roles: req.user.rolesByCompany.get(req.company) ?? [], auditor: req.user.auditor }, capability);
}

/** Whether the person may open the page at this route path in the chosen company (../access.ts). */
export function mayRead(req: PageRequest, path: string): boolean {
  return mayOpen({ roles: req.user.rolesByCompany.get(req.company) ?? [], auditor: req.user.auditor }, path);
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
  return isPayrollMoney(payrollAccounts(deps, payment.company), lineMoney(payment));
}

/** Who looks, for the payroll rule of src/domain/payroll.ts: the role in the chosen company, its payroll accounts. */
export function payrollViewer(deps: ConsoleDeps, req: PageRequest): PayrollViewer {
  return { seesPayroll: hasRole(req, 'payroll'), payrollAccounts: payrollAccounts(deps, req.company) };
}

/** The one rule (mayShowMoney) for the person of this request: may this money, or a sum with it, be shown? */
export function mayShow(deps: ConsoleDeps, req: PageRequest, money: MoneyAt): boolean {
  return mayShowMoney(payrollViewer(deps, req), money);
}

function lineMoney(p: StoredPayment): MoneyAt {
  return { categoryPurpose: p.categoryPurpose, account: p.debtorIban };
}

/**
 * A total of lines as the person may see it (src/domain/payroll.ts): the whole, or for someone
 * without the payroll role the total of the lines they see, with a note that payroll lines were
 * left out — never the whole, which with the visible lines would give the salaries.
 */
export function VisibleTotals(props: {
  deps: ConsoleDeps;
  req: PageRequest;
  byCurrency: Record<string, bigint | string>;
  payroll: PayrollPart | undefined;
}) {
  const shown = visibleTotals(payrollViewer(props.deps, props.req), props.byCurrency, props.payroll);
  if (shown.leftOut === 0) return <Totals byCurrency={shown.totals} />;
  return (
    <>
      <Totals byCurrency={shown.totals} />
      <span class="muted">{t('payments.visibleOnly', { count: shown.leftOut })}</span>
    </>
  );
}

/** What a person may see of a payment: amount and creditor, unless it is payroll and they lack the role. */
export interface VisibleLine {
  /** Payroll hidden from this person: every other field says payrollHidden() (the remittance is empty). */
  hidden: boolean;
  amount: Child;
  creditor: string;
  creditorIban: string;
  remittance: string;
}

export function visibleLine(deps: ConsoleDeps, req: PageRequest, p: StoredPayment): VisibleLine {
  if (!mayShow(deps, req, lineMoney(p)))
    return {
      hidden: true,
      amount: payrollHidden(),
      creditor: payrollHidden(),
      creditorIban: payrollHidden(),
      remittance: '',
    };
  return {
    hidden: false,
    amount: <Amount money={p.amount} />,
    creditor: p.creditorName,
    creditorIban: p.creditorIban,
    remittance: p.remittanceInformation ?? '',
  };
}

/** The hidden CSRF field every form carries. */
export function CsrfField({ req }: { req: PageRequest }) {
  return <input type="hidden" name="_csrf" value={req.csrfToken} />;
}

/**
 * The 403 of an action that refuses a person lacking `needed` (a role the router's check does not
 * cover): the router audits it as a refusal, coalesced per person, route, company and minute.
 */
export function roleRefusal(needed: Role, message: string): ActionResult {
  return { ...problem('Not allowed', message, 403), refusedRole: needed };
}

/** A page that says what went wrong, in the reader's words. */
export function problem(title: string, message: string, status: number): { title: string; body: Html; status: number } {
  return { title, body: render(<p>{message}</p>), status };
}

/** A refused operation's words in the reader's language (src/i18n/refusal.ts): its sentence, and its detail. */
export function RefusalWords(props: { error: SettleError }) {
  const words = refusalWords(currentLocale(), props.error);
  return (
    <>
      <p>{words.sentence}</p>
      {words.detail !== undefined && <p class="muted">{words.detail}</p>}
    </>
  );
}

/** A page that says why an operation was refused, in the reader's language. */
export function refusalProblem(
  title: string,
  error: SettleError,
  status: number,
): { title: string; body: Html; status: number } {
  return { title, body: render(<RefusalWords error={error} />), status };
}
