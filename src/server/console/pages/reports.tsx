// Reports: a report settle wrote (a file's error report, a reconciliation run's CSV or HTML) is
// opened by the id recorded when it was written (src/store/reports.ts), looked up within the
// signed-in person's company and sent from the recorded content as its parts are read, sandboxed
// (the router's sendDownload: HTML and text open in the browser, CSV downloads). Nothing of
// the request names a file: an unknown id, a path, or another company's id is a 404.
import { ReportGoneError, type ReportEntry } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { findingsCsvForPeopleChunks } from '../../../formats/report/index.js';
import { Link, render, Sentence } from '../../../html/index.js';
import { currentLocale, t } from '../../../i18n/index.js';
import { href, mayRead, problem, when } from './parts.js';

export function reportHref(req: PageRequest, report: ReportEntry): string {
  return href(`/console/reports/${encodeURIComponent(report.id)}`, req);
}

/** A list of links to reports, each with its name and time; nothing when there are none. */
export function ReportLinks(props: { deps: ConsoleDeps; req: PageRequest; reports: readonly ReportEntry[] }) {
  const { deps, req, reports } = props;
  if (reports.length === 0) return null;
  return (
    <ul class="reports">
      {reports.map((r) => (
        <li>
          <Sentence
            k="reports.link"
            values={{ name: r.name }}
            tags={{
              link: (text) => <Link href={reportHref(req, r)}>{text}</Link>,
              when: () => when(deps, req, r.createdAt),
            }}
          />
        </li>
      ))}
    </ul>
  );
}

export const reportPage: ConsolePage = {
  path: '/console/reports/:id',
  async load(deps, req) {
    // The report's entry only: its content is read part by part as it is sent (the router's
    // sendDownload), so a reconciliation report of tens of MB is never held whole.
    const report = await deps.store.reports.open(req.company, req.params.id ?? '');
    const notFound = () => problem(t('reports.noSuchReport'), t('reports.noReportWithId'), 404);
    if (!report) return notFound();
    // A reconciliation report lists every line of the period, payroll too: for the people who
    // decide about findings (and see payroll lines), as with the findings' decisions.
    if (report.kind === 'reconciliation' && !mayRead(req, '/console/reconciliation'))
      return problem(t('reports.notAllowed'), t('reports.reconciliationFor'), 403);
    // A person opens a reconciliation run's CSV in a spreadsheet: its heads, numbers and the
    // findings' sentences in their language, made as the parts are read (the sentences looked up
    // a chunk of rows at a time). The file in the reports folder keeps the machine columns and
    // the English for programs.
    const forPeople = report.kind === 'reconciliation' && report.mediaType === 'text/csv';
    const locale = currentLocale();
    const company = req.company;
    const translated = forPeople && locale !== 'en';
    const content = translated
      ? findingsCsvForPeopleChunks(parts(report.content), locale, (ids) => deps.store.findings.sentences(company, ids))
      : report.content;
    return {
      title: t('reports.title'),
      body: render(<></>),
      download: {
        fileName: report.name,
        mediaType: report.mediaType,
        content,
        // The recorded size, sent as the Content-Length; a translated CSV's is known only once made.
        sizeBytes: translated ? undefined : report.sizeBytes,
        // Purged between its row and its first part: as if it had never been found.
        gone: (error) => (error instanceof ReportGoneError ? notFound() : undefined),
      },
    };
  },
};

/** A report's content as pieces: a report recorded before the parts is one. */
async function* parts(content: string | AsyncIterable<string>): AsyncGenerator<string> {
  if (typeof content === 'string') yield content;
  else yield* content;
}
