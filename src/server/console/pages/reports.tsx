// Reports: a report settle wrote (a file's error report, a reconciliation run's CSV or HTML) is
// opened by the id recorded when it was written (src/store/reports.ts), looked up within the
// signed-in person's company and sent from the recorded content, sandboxed (the router's
// sendDownload: HTML and text open in the browser, CSV downloads). Nothing of
// the request names a file: an unknown id, a path, or another company's id is a 404.
import type { ReportEntry } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { Link, render } from '../../../html/index.js';
import { href, mayRead, problem, when } from './parts.js';

const NOT_FOUND = 'The company has no report with this id.';

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
          <Link href={reportHref(req, r)}>{r.name}</Link> ({when(deps, req, r.createdAt)})
        </li>
      ))}
    </ul>
  );
}

export const reportPage: ConsolePage = {
  path: '/console/reports/:id',
  async load(deps, req) {
    const report = await deps.store.reports.find(req.company, req.params.id ?? '');
    if (!report) return problem('No such report', NOT_FOUND, 404);
    // A reconciliation report lists every line of the period, payroll too: for the people who
    // decide about findings (and see payroll lines), as with the findings' decisions.
    if (report.kind === 'reconciliation' && !mayRead(req, '/console/reconciliation'))
      return problem('Not allowed', 'Reconciliation reports are for finance, payroll and operators.', 403);
    return {
      title: 'Report',
      body: render(<></>),
      download: { fileName: report.name, mediaType: report.mediaType, content: report.content },
    };
  },
};
