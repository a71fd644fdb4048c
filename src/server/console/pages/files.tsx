// Files: every payment file of the company with its state, lines and totals, newest first, and
// one file's page with its error report (what was wrong, line by line) and its accepted lines.
import { FILE_STATES } from '../../../domain/states.js';
import { Facts, Link, render, Table } from '../../../html/index.js';
import { t } from '../../../i18n/index.js';
import type { ReportEntry } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { loadPage } from './load-page.js';
import {
  day,
  href,
  lineStateCell,
  Pager,
  payrollAccounts,
  problem,
  visibleLine,
  VisibleTotals,
  when,
} from './parts.js';
import { reportHref, ReportLinks } from './reports.js';

export const filesPage: ConsolePage = {
  path: '/console/files',
  nav: 'nav.files',
  load: loadPage(async (deps, req) => {
    const stateParam = req.query.get('state') ?? '';
    const state = (FILE_STATES as readonly string[]).includes(stateParam) ? stateParam : undefined;
    const page = await deps.store.consoleViews.files(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
      ...(state ? { state } : {}),
    });
    const payroll = await deps.store.consoleViews.payrollParts(
      'file',
      page.rows.map((f) => f.id),
      payrollAccounts(deps, req.company),
    );
    return {
      title: t('files.title'),
      body: render(
        <>
          <form method="get" action="/console/files">
            <input type="hidden" name="company" value={req.company} />
            <label for="file-state">{t('files.stateFilter')}</label>{' '}
            <select id="file-state" name="state">
              {['', ...FILE_STATES].map((s) => (
                <option value={s} selected={s === (state ?? '')}>
                  {s ? t('files.state', { state: s }) : t('files.anyState')}
                </option>
              ))}
            </select>{' '}
            <button type="submit">{t('files.show')}</button>
          </form>
          <Table
            caption={t('files.caption')}
            head={(
              ['received', 'file', 'format', 'state', 'lines', 'accepted', 'rejected', 'totals', 'errorReport'] as const
            ).map((c) => t(`files.column.${c}`))}
            rows={page.rows}
            empty={t('files.none')}
            cells={(f) => [
              when(deps, req, f.receivedAt),
              <Link href={href(`/console/files/${encodeURIComponent(f.id)}`, req)}>{f.fileName}</Link>,
              f.format,
              t('files.state', { state: f.state }),
              String(f.lineCount),
              String(f.acceptedCount),
              String(f.rejectedCount),
              <VisibleTotals deps={deps} req={req} byCurrency={f.totals} payroll={payroll.get(f.id)} />,
              (f.errorSummary !== undefined || f.rejectedCount > 0) && (
                <Link href={href(`/console/files/${encodeURIComponent(f.id)}`, req) + '#error-report'}>
                  {t('files.errorReportLink')}
                </Link>
              ),
            ]}
          />
          <Pager path="/console/files" req={req} next={page.next} />
        </>,
      ),
    };
  }),
};

export const filePage: ConsolePage = {
  path: '/console/files/:id',
  load: loadPage(async (deps, req) => {
    const file = await deps.store.consoleViews.file(req.company, req.params.id ?? '');
    if (!file) return problem(t('files.file.notFound'), t('files.file.notFoundBody'), 404);
    const lines = await deps.store.consoleViews.fileLines(file.id, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const reports = await deps.store.reports.about(req.company, { type: 'payment_file', id: file.id });
    // The latest text report, shown whole on the page: every problem at its row, wrapped.
    const latestText = reports.filter((r) => r.mediaType === 'text/plain').at(-1);
    const reportText = latestText && (await deps.store.reports.find(req.company, latestText.id))?.content;
    const payroll = await deps.store.consoleViews.payrollParts('file', [file.id], payrollAccounts(deps, req.company));
    return {
      title: t('files.file.title', { name: file.fileName }),
      body: render(
        <>
          <Facts
            caption={t('files.file.facts')}
            rows={[
              [t('files.column.received'), when(deps, req, file.receivedAt)],
              [t('files.file.from'), file.source ?? '–'],
              [t('files.column.format'), file.format],
              ['SHA-256', <code>{file.sha256}</code>],
              [t('files.column.state'), t('files.state', { state: file.state })],
              [
                t('files.column.lines'),
                t('files.file.lineCounts', {
                  lines: file.lineCount,
                  accepted: file.acceptedCount,
                  rejected: file.rejectedCount,
                }),
              ],
              [
                t('files.column.totals'),
                <VisibleTotals deps={deps} req={req} byCurrency={file.totals} payroll={payroll.get(file.id)} />,
              ],
            ]}
          />
          <ErrorReport deps={deps} req={req} file={file} reports={reports} text={reportText} />
          <Table
            caption={t('files.lines.caption')}
            head={[
              ...(['line', 'endToEndId', 'creditor', 'amount', 'executionDate'] as const).map((c) =>
                t(`files.lines.${c}`),
              ),
              t('files.column.state'),
            ]}
            rows={lines.rows}
            empty={{ note: t('files.noAcceptedLines') }}
            cells={(p) => {
              const v = visibleLine(deps, req, p);
              return [
                String(p.lineNumber),
                <Link href={href(`/console/payments/${encodeURIComponent(p.id)}`, req)}>{p.endToEndId}</Link>,
                v.creditor,
                v.amount,
                day(p.requestedExecutionDate),
                lineStateCell(p.state),
              ];
            }}
          />
          <Pager path={`/console/files/${encodeURIComponent(file.id)}`} req={req} next={lines.next} />
        </>,
      ),
    };
  }),
};

/**
 * A file's error report on its page: a link to the HTML report (the accountant's view), the text
 * report whole (every problem with its row, wrapping on any screen), and every report about the
 * file. A file without a recorded report shows its stored summary.
 */
function ErrorReport(props: {
  deps: ConsoleDeps;
  req: PageRequest;
  file: { errorSummary?: string | undefined; rejectedCount: number };
  reports: readonly ReportEntry[];
  text: string | undefined;
}) {
  const { deps, req, file, reports, text } = props;
  if (file.errorSummary === undefined && file.rejectedCount === 0 && reports.length === 0) return null;
  const html = reports.filter((r) => r.mediaType === 'text/html').at(-1);
  return (
    <section id="error-report">
      <h2>{t('files.errorReport')}</h2>
      {html && (
        <p>
          <Link href={reportHref(req, html)}>{t('files.openReport')}</Link>
        </p>
      )}
      {text !== undefined ? (
        <pre class="report">{text}</pre>
      ) : file.errorSummary !== undefined ? (
        <>
          <p>{t('files.summaryOnly')}</p>
          <pre class="report">{file.errorSummary}</pre>
        </>
      ) : (
        <>
          <p>{t('files.rejectedOrHeld', { count: file.rejectedCount })}</p>
          {reports.length === 0 && <p>{t('files.inErrorFolder')}</p>}
        </>
      )}
      {reports.length > 0 && <p>{t('files.allReports')}</p>}
      <ReportLinks deps={deps} req={req} reports={reports} />
    </section>
  );
}
