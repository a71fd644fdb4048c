// Period sign-off on the Reconciliation page: the company's signed periods (and those a later
// finding reopened, with the reason), their exports as CSV and HTML with the signer, and for
// finance the form that signs a month or a day off. Signing goes through the same use case as
// `settle reconcile signoff` (jobs/reconcile/period-signoff.ts): refused, with the list of the findings
// that still need a person, until none does; recorded with its audit entry otherwise.
import { signOffPeriod } from '../../../../jobs/reconcile/index.js';
import { isSettleError } from '../../../domain/errors.js';
import { parseSignoffPeriod } from '../../../domain/reconcile/index.js';
import { renderSignoffCsv, renderSignoffHtml } from '../../../formats/report/index.js';
import { Link, render, Table } from '../../../html/index.js';
import type { StoredSignoff } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsoleDeps, type ConsolePage, type PageRequest } from '../page.js';
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
      <h2 id="periods">Periods signed off</h2>
      <Table
        caption="Signed periods, latest first"
        head={['Period', 'State', 'Signed by', 'Export']}
        rows={periods}
        empty="No period has been signed off yet."
        cells={(p) => [
          <span id={`period-${p.period}`}>{p.from === p.to ? p.period : `${p.period} (${p.from} to ${p.to})`}</span>,
          p.state === 'signed' ? (
            'signed'
          ) : (
            <>
              <strong>reopened</strong> {when(deps, req, p.reopenedAt)}: {p.reopenedReason ?? ''}
            </>
          ),
          [`${p.signedBy} `, when(deps, req, p.signedAt)],
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
            <legend>Sign a period off</legend>
            <label for="signoff-period">Month or day</label>{' '}
            <input id="signoff-period" name="period" required placeholder="2026-01 or 2026-01-05" />{' '}
            <label for="signoff-note">Note</label> <input id="signoff-note" name="note" />{' '}
            <button type="submit">Sign off</button>
          </fieldset>
        </form>
      )}
    </section>
  );
}

export const signoffAction: ConsoleAction = {
  path: '/console/periods/signoff',
  async handle(deps, req) {
    if (!may(req, 'sign-off'))
      return roleRefusal('finance', 'Only finance (or an operator) of this company may sign a period off.');
    const text = (req.form.period ?? '').trim();
    let period: string;
    try {
      period = parseSignoffPeriod(text).period;
    } catch {
      return problem('Which period?', `"${text}" is not a period: give a month (2026-01) or a day (2026-01-05).`, 400);
    }
    const note = (req.form.note ?? '').trim();
    try {
      await signOffPeriod(deps.store, {
        company: req.company,
        period,
        actor: req.origin.actor,
        person: req.user.person,
        origin: auditOrigin(req.origin),
        ...(note ? { note } : {}),
      });
    } catch (error) {
      if (isSettleError(error, 'ERR_PERIOD_SIGNED'))
        return problem('Signed already', `${period} is signed off, and nothing reopened it since.`, 409);
      if (!isSettleError(error, 'ERR_PERIOD_NEEDS_PERSON')) throw error;
      const { from, to } = parseSignoffPeriod(period);
      const open = await deps.store.signoffs.needingPerson(req.company, from, to);
      return {
        status: 409,
        title: 'Not yet: findings need a person',
        body: render(
          <>
            <p>
              {period} cannot be signed off while {open.length} finding{open.length === 1 ? '' : 's'} about its days
              need{open.length === 1 ? 's' : ''} a person. Nothing was signed.
            </p>
            <ul>
              {open.map((f) => (
                <li>
                  <Link href={href(LIST, req, { all: '1', period }) + `#finding-${encodeURIComponent(f.id)}`}>
                    {f.id}
                  </Link>{' '}
                  {`${f.type}: ${f.subject} (${f.factDate ?? ''})`}
                </li>
              ))}
            </ul>
            <p>
              <Link href={href(LIST, req, { period, decision: 'needs-person' })}>Show them on Reconciliation</Link>
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
      return problem('Not allowed', 'Signed periods are for finance, payroll and operators.', 403);
    const format = req.params.format;
    if (format !== 'csv' && format !== 'html')
      return problem('No such export', 'A period exports as csv or html.', 404);
    const p = await deps.store.signoffs.get(req.company, req.params.period ?? '');
    if (!p) return problem('No such period', 'The company has not signed this period off.', 404);
    const company = deps.companies.find((c) => c.id === req.company);
    const name = `signoff-${p.company}-${p.period}.${format}`;
    return {
      title: 'Signed period',
      body: render(<></>),
      download:
        format === 'csv'
          ? { fileName: name, mediaType: 'text/csv', content: renderSignoffCsv(p) }
          : {
              fileName: name,
              mediaType: 'text/html',
              content: renderSignoffHtml(p, {
                timeZone: timeZoneOf(deps, req.company),
                ...(company ? { companyName: company.name } : {}),
              }),
            },
    };
  },
};
