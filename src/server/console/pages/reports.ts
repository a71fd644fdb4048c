// Reports: a report settle wrote (a file's error report, a reconciliation run's CSV or HTML) is
// opened by the id recorded when it was written (src/store/reports.ts), looked up within the
// signed-in person's company and sent as an attachment from the recorded content. Nothing of
// the request names a file: an unknown id, a path, or another company's id is a 404.
import type { ReportEntry } from '../../../store/index.js';
import type { ConsoleDeps, ConsolePage, PageRequest } from '../page.js';
import { hasRole, href, link, problem, when } from './html.js';

const NOT_FOUND = 'The company has no report with this id.';

export function reportHref(req: PageRequest, report: ReportEntry): string {
  return href(`/console/reports/${encodeURIComponent(report.id)}`, req);
}

/** A list of links to reports, each with its name and time. */
export function reportLinks(deps: ConsoleDeps, req: PageRequest, reports: readonly ReportEntry[]): string {
  if (reports.length === 0) return '';
  const items = reports.map((r) => `<li>${link(reportHref(req, r), r.name)} (${when(deps, req, r.createdAt)})</li>`);
  return `<ul class="reports">${items.join('')}</ul>`;
}

export const reportPage: ConsolePage = {
  path: '/console/reports/:id',
  role: 'viewer',
  async load(deps, req) {
    const report = await deps.store.reports.find(req.company, req.params.id ?? '');
    if (!report) return problem('No such report', NOT_FOUND, 404);
    // A reconciliation report lists every line of the period, payroll too: for the people who
    // decide about findings (and see payroll lines), as with the findings' decisions.
    if (report.kind === 'reconciliation' && !hasRole(req, 'finance', 'operator', 'payroll'))
      return problem('Not allowed', 'Reconciliation reports are for finance, payroll and operators.', 403);
    return {
      title: 'Report',
      body: '',
      download: { fileName: report.name, mediaType: report.mediaType, content: report.content },
    };
  },
};
