// Files: every payment file of the company with its state, lines and totals, newest first, and
// one file's page with its error report (what was wrong, line by line) and its accepted lines.
import { FILE_STATES } from '../../../domain/states.js';
import type { ConsolePage } from '../page.js';
import { esc, facts, href, link, pager, problem, table, totals, visibleLine, when } from './html.js';
import { loadPage } from './load-page.js';
import { reportLinks } from './reports.js';

export const filesPage: ConsolePage = {
  path: '/console/files',
  nav: 'Files',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const stateParam = req.query.get('state') ?? '';
    const state = (FILE_STATES as readonly string[]).includes(stateParam) ? stateParam : undefined;
    const page = await deps.store.consoleViews.files(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
      ...(state ? { state } : {}),
    });
    const rows = page.rows.map((f) => [
      when(deps, req, f.receivedAt),
      link(href(`/console/files/${encodeURIComponent(f.id)}`, req), f.fileName),
      esc(f.format),
      esc(f.state),
      esc(String(f.lineCount)),
      esc(String(f.acceptedCount)),
      esc(String(f.rejectedCount)),
      totals(f.totals),
      f.errorSummary !== undefined || f.rejectedCount > 0
        ? link(href(`/console/files/${encodeURIComponent(f.id)}`, req) + '#error-report', 'error report')
        : '',
    ]);
    const options = ['', ...FILE_STATES]
      .map((s) => `<option value="${esc(s)}"${s === (state ?? '') ? ' selected' : ''}>${esc(s || 'any')}</option>`)
      .join('');
    return {
      title: 'Payment files',
      body: [
        `<form method="get" action="/console/files"><input type="hidden" name="company" value="${esc(req.company)}">` +
          `<label for="file-state">State</label> <select id="file-state" name="state">${options}</select> ` +
          '<button type="submit">Show</button></form>',
        table(
          'Payment files, newest first',
          ['Received', 'File', 'Format', 'State', 'Lines', 'Accepted', 'Rejected', 'Totals', 'Error report'],
          rows,
        ),
        pager('/console/files', req, page.next),
      ].join('\n'),
    };
  }),
};

export const filePage: ConsolePage = {
  path: '/console/files/:id',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const file = await deps.store.consoleViews.file(req.company, req.params.id ?? '');
    if (!file) return problem('No such file', 'The company has no payment file with this id.', 404);
    const lines = await deps.store.consoleViews.fileLines(file.id, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const path = `/console/files/${encodeURIComponent(file.id)}`;
    const reports = reportLinks(
      deps,
      req,
      await deps.store.reports.about(req.company, { type: 'payment_file', id: file.id }),
    );
    const report =
      file.errorSummary !== undefined
        ? `<section id="error-report"><h2>Error report</h2>\n<pre>${esc(file.errorSummary)}</pre>${reports}</section>`
        : file.rejectedCount > 0 || reports
          ? `<section id="error-report"><h2>Error report</h2><p>${esc(String(file.rejectedCount))} lines were rejected or held.</p>${reports || "<p>Their report is in the company's error folder.</p>"}</section>`
          : '';
    return {
      title: `File ${file.fileName}`,
      body: [
        facts('The file', [
          ['Received', when(deps, req, file.receivedAt)],
          ['From', esc(file.source ?? '–')],
          ['Format', esc(file.format)],
          ['SHA-256', `<code>${esc(file.sha256)}</code>`],
          ['State', esc(file.state)],
          ['Lines', esc(`${file.lineCount} (${file.acceptedCount} accepted, ${file.rejectedCount} rejected)`)],
          ['Totals', totals(file.totals)],
        ]),
        report,
        table(
          'Accepted lines',
          ['Line', 'End-to-end id', 'Creditor', 'Amount', 'Execution date', 'State'],
          lines.rows.map((p) => {
            const v = visibleLine(deps, req, p);
            return [
              esc(String(p.lineNumber)),
              link(href(`/console/payments/${encodeURIComponent(p.id)}`, req), p.endToEndId),
              v.creditor,
              v.amount,
              esc(p.requestedExecutionDate),
              esc(p.state),
            ];
          }),
        ),
        pager(path, req, lines.next),
      ].join('\n'),
    };
  }),
};
