// Period sign-off on the Reconciliation page: the company's signed periods (and those a later
// finding reopened, with the reason), their exports as CSV and HTML with the signer, and for
// finance the form that signs a month or a day off. Signing goes through the same use case as
// `settle reconcile signoff` (jobs/reconcile/period-signoff.ts): refused, with the list of the findings
// that still need a person, until none does; recorded with its audit entry otherwise.
import { today } from '../../../domain/local-date.js';
import { signOffPeriod } from '../../../../jobs/reconcile/index.js';
import { isSettleError } from '../../../domain/errors.js';
import { parseSignoffPeriod } from '../../../domain/reconcile/index.js';
import { renderSignoffHtml, signoffCsvForPeople } from '../../../formats/report/index.js';
import { Link, render, Sentence, Table } from '../../../html/index.js';
import { currentLocale, findingSubjectWords, t } from '../../../i18n/index.js';
import type { StoredSignoff } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsoleDeps, type ConsolePage, type PageRequest } from '../page.js';
import { day } from './finding-about.js';
import { CsrfField, href, may, mayRead, problem, roleRefusal, timeZoneOf, when } from './parts.js';

const LIST = '/console/reconciliation';

function exportHref(req: PageRequest, p: StoredSignoff, format: 'csv' | 'html'): string {
  return href(`/console/periods/${encodeURIComponent(p.period)}/${format}`, req);
}

/** The signed periods, latest first, and the sign-off form for finance. */
export function PeriodsSection(props: { deps: ConsoleDeps; req: PageRequest; periods: readonly StoredSignoff[] }) {
  const { deps, req, periods } = props;
  return (
    <section aria-labelledby="periods">
      <h2 id="periods">{t('periods.heading')}</h2>
      <Table
        caption={t('periods.caption')}
        head={(['period', 'state', 'signedBy', 'export'] as const).map((h) => t(`periods.head.${h}`))}
        rows={periods}
        empty={t('periods.none')}
        cells={(p) => [
          <span id={`period-${p.period}`}>
            {p.from === p.to ? p.period : t('periods.range', { period: p.period, from: day(p.from), to: day(p.to) })}
          </span>,
          p.state === 'signed' ? (
            t('periods.signed')
          ) : (
            <Sentence
              k="periods.reopened"
              values={{ reason: p.reopenedReason ?? '' }}
              tags={{ b: (text) => <strong>{text}</strong>, when: () => when(deps, req, p.reopenedAt) }}
            />
          ),
          <Sentence
            k="periods.signer"
            values={{ who: p.signedBy }}
            tags={{ when: () => when(deps, req, p.signedAt) }}
          />,
          [
            <Link href={exportHref(req, p, 'csv')}>CSV</Link>,
            ' · ',
            <Link href={exportHref(req, p, 'html')}>HTML</Link>,
          ],
        ]}
      />
      {may(req, 'sign-off') && (
        <form method="post" action={href('/console/periods/signoff', req)}>
          <CsrfField req={req} />
          <fieldset>
            <legend>{t('periods.form')}</legend>
            <label for="signoff-period">{t('periods.monthOrDay')}</label>{' '}
            <input id="signoff-period" name="period" required placeholder={t('periods.placeholder')} />{' '}
            <label for="signoff-note">{t('periods.note')}</label> <input id="signoff-note" name="note" />{' '}
            <button type="submit">{t('periods.signOff')}</button>
          </fieldset>
        </form>
      )}
    </section>
  );
}

export const signoffAction: ConsoleAction = {
  path: '/console/periods/signoff',
  async handle(deps, req) {
    if (!may(req, 'sign-off')) return roleRefusal('finance', t('periods.problem.onlyDeciders'));
    const text = (req.form.period ?? '').trim();
    let period: string;
    try {
      period = parseSignoffPeriod(text).period;
    } catch {
      return problem(t('periods.problem.which'), t('periods.problem.notAPeriod', { period: text }), 400);
    }
    const note = (req.form.note ?? '').trim();
    try {
      await signOffPeriod(deps.store, {
        today: today(deps.clock, timeZoneOf(deps, req.company)),
        company: req.company,
        period,
        actor: req.origin.actor,
        person: req.user.person,
        origin: auditOrigin(req.origin),
        ...(note ? { note } : {}),
      });
    } catch (error) {
      if (isSettleError(error, 'ERR_PERIOD_NOT_ENDED'))
        return problem(t('periods.problem.notEnded'), t('periods.problem.notEndedBody', { period }), 409);
      if (isSettleError(error, 'ERR_PERIOD_SIGNED'))
        return problem(t('periods.problem.signedAlready'), t('periods.problem.isSigned', { period }), 409);
      if (!isSettleError(error, 'ERR_PERIOD_NEEDS_PERSON')) throw error;
      const { from, to } = parseSignoffPeriod(period);
      const open = await deps.store.signoffs.needingPerson(req.company, from, to);
      return {
        status: 409,
        title: t('periods.problem.notYet'),
        body: render(
          <>
            <p>{t('periods.problem.open', { period, count: open.length })}</p>
            <ul>
              {open.map((f) => (
                <li>
                  <Link href={href(LIST, req, { all: '1', period }) + `#finding-${encodeURIComponent(f.id)}`}>
                    {f.id}
                  </Link>{' '}
                  {t('periods.problem.openLine', {
                    type: f.type,
                    subject: findingSubjectWords(currentLocale(), f.subject),
                    day: f.factDate ? day(f.factDate) : '',
                  })}
                </li>
              ))}
            </ul>
            <p>
              <Link href={href(LIST, req, { period, decision: 'needs-person' })}>{t('periods.problem.showThem')}</Link>
            </p>
          </>,
        ),
      };
    }
    return { redirect: href(LIST, req) + `#period-${encodeURIComponent(period)}`, audited: true };
  },
};

/** A signed period as CSV (downloads) or HTML (opens in the browser, sandboxed), with its signer and state. */
export const periodExportPage: ConsolePage = {
  path: '/console/periods/:period/:format',
  async load(deps, req) {
    // The balances cover every account, payroll ones too: for finance, payroll and operators, like the reports.
    if (!mayRead(req, '/console/periods/:period/:format'))
      return problem(t('periods.problem.notAllowed'), t('periods.problem.exportsFor'), 403);
    const kind = req.params.format;
    if (kind !== 'csv' && kind !== 'html')
      return problem(t('periods.problem.noSuchExport'), t('periods.problem.formats'), 404);
    const p = await deps.store.signoffs.get(req.company, req.params.period ?? '');
    if (!p) return problem(t('periods.problem.noSuchPeriod'), t('periods.problem.notSigned'), 404);
    const company = deps.companies.find((c) => c.id === req.company);
    const name = `signoff-${p.company}-${p.period}.${kind}`;
    // A person opens it: in their language, the CSV as their spreadsheet reads one.
    const locale = currentLocale();
    return {
      title: t('periods.export.title'),
      body: render(<></>),
      download:
        kind === 'csv'
          ? {
              fileName: name,
              mediaType: 'text/csv',
              content: signoffCsvForPeople(p, locale, timeZoneOf(deps, req.company)),
            }
          : {
              fileName: name,
              mediaType: 'text/html',
              content: renderSignoffHtml(p, {
                timeZone: timeZoneOf(deps, req.company),
                locale,
                ...(company ? { companyName: company.name } : {}),
              }),
            },
    };
  },
};
