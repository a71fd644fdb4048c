// What Approvals and Today both show of a waiting basket: its state in plain words, its totals,
// when its approval link expires with the time really left, and where the link went (or that it
// went to no one, and how an approver gets it then). Times are in the company's zone, which each
// page names once.
import { visibleTotals } from '../../../domain/payroll.js';
import { Link, Sentence, type Child } from '../../../html/index.js';
import { codeWords, currentLocale, format, t } from '../../../i18n/index.js';
import type { WaitingBasket } from '../../../store/index.js';
import type { ConsoleDeps, PageRequest } from '../page.js';
import { href, payrollViewer, timeZoneOf } from './parts.js';

const DEFAULT_LINK_WARN_BEFORE_MS = 86_400_000;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** An instant in the company's zone and the person's language, without the zone (the page names it once). */
export function localAt(deps: ConsoleDeps, req: PageRequest, at: Date | undefined): string {
  return at ? format.dateTime(at, timeZoneOf(deps, req.company), currentLocale()) : '–';
}

/** A basket's state in plain words, with its code beside them for whoever looks it up. */
export function BasketState({ state }: { state: string }) {
  const words = codeWords('basket', state, currentLocale()) ?? t('approvals.state.other', { state });
  return (
    <>
      {words} <span class="muted">({state})</span>
    </>
  );
}

/** A basket's totals per currency as one phrase, without the payroll lines a person may not see. */
export function totalsText(
  deps: ConsoleDeps,
  req: PageRequest,
  basket: WaitingBasket,
  payroll: Parameters<typeof visibleTotals>[2],
): string {
  const locale = currentLocale();
  const shown = visibleTotals(payrollViewer(deps, req), basket.totals, payroll).totals;
  const parts = Object.entries(shown).map(([currency, minor]) => format.money({ minor, currency }, locale));
  return parts.length ? format.list(parts, locale) : '–';
}

/**
 * When an approval link expires, with the time left. It is marked "expires soon" only when little
 * of its life is left: within alerts.linkWarnBefore and, when its issue is known, past half of
 * its life, so a link issued minutes ago is never "soon" whatever its lifetime.
 */
export function LinkExpiry(props: { deps: ConsoleDeps; req: PageRequest; expiresAt?: Date; issuedAt?: Date }) {
  const { deps, req, expiresAt, issuedAt } = props;
  if (!expiresAt) return <>–</>;
  const now = deps.clock.now().getTime();
  const left = expiresAt.getTime() - now;
  const at = localAt(deps, req, expiresAt);
  if (left <= 0)
    return (
      <>
        {at} <span class="bad">({t('approvals.expiry.expired')})</span>
      </>
    );
  const warnBefore = deps.linkWarnBeforeMs ?? DEFAULT_LINK_WARN_BEFORE_MS;
  const lifetime = issuedAt ? expiresAt.getTime() - issuedAt.getTime() : undefined;
  const soon = left <= warnBefore && (lifetime === undefined || left < lifetime / 2);
  const days = Math.floor(left / DAY);
  const hours = Math.floor((left % DAY) / HOUR);
  const minutes = Math.floor((left % HOUR) / MINUTE);
  const remaining =
    days > 0
      ? t('approvals.expiry.left.days', { days, hours })
      : hours > 0
        ? t('approvals.expiry.left.hours', { hours, minutes })
        : t('approvals.expiry.left.minutes', { minutes });
  return (
    <>
      {at} <span class={soon ? 'warn' : 'muted'}>({remaining})</span>
      {soon && (
        <>
          {' '}
          <span class="warn">{t('approvals.expiry.soon')}</span>
        </>
      )}
    </>
  );
}

/** Where the approve job sent the link; when nowhere, that it reached no one and how to get it. */
export function LinkDestination({ deps, req }: { deps: ConsoleDeps; req: PageRequest }): Child {
  const goes = deps.companies.find((c) => c.id === req.company)?.approvalLink;
  if (!goes) return null;
  const code = (text: string) => <code>{text}</code>;
  const approvals = (text: string) => <Link href={href('/console/approvals', req)}>{text}</Link>;
  if (!goes.email && goes.folder === undefined)
    return (
      <p class="warn" role="note">
        <Sentence k="approvals.linkNowhere" tags={{ code, approvals }} />
      </p>
    );
  const to = goes.email ? (goes.folder === undefined ? 'email' : 'both') : 'folder';
  return <p>{t('approvals.linkWent', { to, folder: goes.folder ?? '' })}</p>;
}
