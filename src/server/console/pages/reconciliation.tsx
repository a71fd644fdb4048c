// Reconciliation: the company's findings, newest first, narrowed by the filters
// (finding-filters.tsx), with acknowledge/reopen and, for a proposed match, confirm/reject —
// for finance (and operators), one finding or several ticked at once (finding-work.tsx), and
// who each is assigned to; then the periods signed off (periods.tsx). Each decision goes
// through the findings repository, the same use case as `settle findings`, which writes the
// decision and its audit entry in one transaction.
import { decisionMismatch } from '../../../../jobs/reconcile/index.js';
import { isSettleError } from '../../../domain/errors.js';
import type { FindingDecisionKind, StoredFinding } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Table } from '../../../html/index.js';
import { atStake, FindingAbout } from './finding-about.js';
import { loadPage } from './load-page.js';
import { filtered, filterOf, FilterForm } from './finding-filters.js';
import { Assignment, BulkForm, DECIDERS, RowCheckbox } from './finding-work.js';
import { CsrfField, hasRole, href, Pager, problem, roleRefusal, Totals, when, withQuery } from './parts.js';
import { PeriodsSection } from './periods.js';
import { ReportLinks } from './reports.js';

const DECISIONS: { verb: string; kind: FindingDecisionKind; label: string }[] = [
  { verb: 'ack', kind: 'acknowledged', label: 'Acknowledge' },
  { verb: 'confirm', kind: 'confirmed', label: 'Confirm match' },
  { verb: 'reject', kind: 'rejected', label: 'Reject match' },
  { verb: 'reopen', kind: 'open', label: 'Reopen' },
];

function DecisionForms({ req, finding: f }: { req: PageRequest; finding: StoredFinding }) {
  if (!hasRole(req, ...DECIDERS)) return null;
  const fitting = DECISIONS.filter(
    (d) => decisionMismatch(f.type, d.kind) === undefined && (d.kind === 'open') === (f.decision !== 'open'),
  );
  return (
    <>
      {fitting.map((d) => (
        <form method="post" action={withQuery(`/console/findings/${encodeURIComponent(f.id)}/${d.verb}`, req, {})}>
          <CsrfField req={req} />
          <label for={`reason-${f.id}-${d.verb}`}>Reason</label>{' '}
          <input id={`reason-${f.id}-${d.verb}`} name="reason" required /> <button type="submit">{d.label}</button>
        </form>
      ))}
    </>
  );
}

export const reconciliationPage: ConsolePage = {
  path: '/console/reconciliation',
  nav: 'nav.reconciliation',
  load: loadPage(async (deps, req) => {
    const all = req.query.get('all') === '1';
    const filter = filterOf(deps, req);
    if ('problem' in filter) return problem('Filter does not read', filter.problem, 400);
    const page = await deps.store.consoleViews.findings(req.company, {
      all,
      ...filter,
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const facts = await deps.store.consoleViews.findingFacts(req.company, page.rows);
    const stake = atStake(deps, req, page.rows, facts);
    const reportsAfter = req.query.get('after-reports');
    const reports = await deps.store.reports.list(req.company, 'reconciliation', {
      limit: 10,
      ...(reportsAfter ? { after: reportsAfter } : {}),
    });
    const periods = await deps.store.signoffs.list(req.company);
    const list = '/console/reconciliation';
    const narrowed = filtered(req);
    return {
      title: 'Reconciliation findings',
      body: render(
        <>
          <p>
            {all ? (
              <Link href={withQuery(list, req, { all: undefined, after: undefined })}>Only the latest run</Link>
            ) : (
              <Link href={withQuery(list, req, { all: '1', after: undefined })}>Every finding ever recorded</Link>
            )}
            .
          </p>
          <h2 id="reports">Reports of the runs</h2>
          {reports.rows.length > 0 ? (
            <ReportLinks deps={deps} req={req} reports={reports.rows} />
          ) : (
            <p>No run has written a report yet.</p>
          )}
          {reports.next && (
            <nav aria-label="reports: pages">
              <Link href={withQuery(list, req, { 'after-reports': reports.next }) + '#reports'}>Older reports</Link>
            </nav>
          )}
          <h2 id="findings">Findings</h2>
          <FilterForm req={req} path={list} />
          {narrowed && (
            <p>
              Filtered: this address shows the same findings to anyone of the company.{' '}
              <Link href={href(list, req, all ? { all: '1' } : {})}>Clear the filters</Link>
            </p>
          )}
          <p>
            At stake in the open findings on this page: <Totals byCurrency={stake} />.
          </p>
          <BulkForm req={req} />
          <Table
            caption={
              (all ? 'Every finding, newest first' : 'Findings of the latest run, newest first') +
              (narrowed ? ' (filtered)' : '')
            }
            head={[
              ...(hasRole(req, ...DECIDERS) ? ['Select'] : []),
              'Id',
              'Type',
              'About',
              'First seen',
              'Decision',
              'Assigned to',
              'Decide',
            ]}
            rows={page.rows}
            empty={narrowed ? 'none match the filters' : 'none'}
            cells={(f) => [
              ...(hasRole(req, ...DECIDERS) ? [<RowCheckbox req={req} finding={f} />] : []),
              <span id={`finding-${f.id}`}>{f.id}</span>,
              f.type,
              <FindingAbout deps={deps} req={req} finding={f} facts={facts} />,
              when(deps, req, f.firstSeenAt),
              f.decision === 'open'
                ? 'needs a person'
                : [
                    `${f.decision} by ${f.decidedBy ?? '?'} `,
                    when(deps, req, f.decidedAt),
                    f.decidedHash !== f.factHash && ' (facts changed since: needs a person)',
                  ],
              <Assignment req={req} finding={f} />,
              <DecisionForms req={req} finding={f} />,
            ]}
          />
          <Pager path={list} req={req} next={page.next} />
          <PeriodsSection deps={deps} req={req} periods={periods} />
        </>,
      ),
    };
  }),
};

function decisionAction(verb: string, kind: FindingDecisionKind): ConsoleAction {
  return {
    path: `/console/findings/:id/${verb}`,
    async handle(deps, req) {
      if (!hasRole(req, ...DECIDERS))
        return roleRefusal('finance', 'Only finance (or an operator) of this company may decide about findings.');
      const reason = (req.form.reason ?? '').trim();
      if (reason === '')
        return problem('Reason missing', 'Say why, in your words; it is kept in the audit trail.', 400);
      const id = req.params.id ?? '';
      const [finding] = await deps.store.findings.find(id, req.company);
      if (!finding) return problem('No such finding', 'The company has no finding with this id.', 404);
      const mismatch = decisionMismatch(finding.type, kind);
      if (mismatch !== undefined)
        return problem(
          'Does not fit',
          mismatch === 'not-a-proposal'
            ? `Finding ${id} is a ${finding.type} finding, not a proposed match: acknowledge it instead.`
            : `Finding ${id} is a proposed match: confirm or reject it instead.`,
          409,
        );
      try {
        await deps.store.findings.decide(req.company, id, {
          decision: kind,
          actor: req.origin.actor,
          origin: auditOrigin(req.origin),
          reason,
        });
      } catch (error) {
        if (isSettleError(error, 'ERR_FINDING_UNKNOWN'))
          return problem('No such finding', 'The company has no finding with this id.', 404);
        throw error;
      }
      return {
        redirect: withQuery('/console/reconciliation', req, {}) + `#finding-${encodeURIComponent(id)}`,
        audited: true,
      };
    },
  };
}

export const findingActions: ConsoleAction[] = DECISIONS.map((d) => decisionAction(d.verb, d.kind));
