// Reconciliation: the company's findings, newest first, narrowed by the filters
// (finding-filters.tsx), with acknowledge/reopen and, for a proposed match, confirm/reject —
// for finance (and operators), one finding or several ticked at once (finding-work.tsx), and
// who each is assigned to; then the periods signed off (periods.tsx). Each decision goes
// through the findings repository, the same use case as `settle findings`, which writes the
// decision and its audit entry in one transaction.
import { decisionMismatch } from '../../../../jobs/reconcile/index.js';
import { isSettleError } from '../../../domain/errors.js';
import { t, type MessageKey } from '../../../i18n/index.js';
import type { FindingDecisionKind, StoredFinding } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Sentence, Table } from '../../../html/index.js';
import { atStake, FindingAbout } from './finding-about.js';
import { loadPage } from './load-page.js';
import { filtered, filterOf, FilterForm } from './finding-filters.js';
import { Assignment, BulkForm, RowCheckbox } from './finding-work.js';
import { CsrfField, href, may, Pager, problem, roleRefusal, Totals, when, withQuery } from './parts.js';
import { PeriodsSection } from './periods.js';
import { ReportLinks } from './reports.js';

const DECISIONS: { verb: 'ack' | 'confirm' | 'reject' | 'reopen'; kind: FindingDecisionKind }[] = [
  { verb: 'ack', kind: 'acknowledged' },
  { verb: 'confirm', kind: 'confirmed' },
  { verb: 'reject', kind: 'rejected' },
  { verb: 'reopen', kind: 'open' },
];

function DecisionForms({ req, finding: f }: { req: PageRequest; finding: StoredFinding }) {
  if (!may(req, 'decide-findings')) return null;
  const fitting = DECISIONS.filter(
    (d) => decisionMismatch(f.type, d.kind) === undefined && (d.kind === 'open') === (f.decision !== 'open'),
  );
  return (
    <>
      {fitting.map((d) => (
        <form method="post" action={withQuery(`/console/findings/${encodeURIComponent(f.id)}/${d.verb}`, req, {})}>
          <CsrfField req={req} />
          <label for={`reason-${f.id}-${d.verb}`}>{t('reconciliation.reason')}</label>{' '}
          <input id={`reason-${f.id}-${d.verb}`} name="reason" required />{' '}
          <button type="submit">{t(`reconciliation.decision.${d.verb}`)}</button>
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
    if ('problem' in filter) return problem(t('reconciliation.problem.filter'), filter.problem, 400);
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
    const head = (key: string) => t(`reconciliation.head.${key}` as MessageKey);
    return {
      title: t('reconciliation.title'),
      body: render(
        <>
          <p>
            {all ? (
              <Sentence
                k="reconciliation.onlyLatest"
                tags={{
                  link: (text) => <Link href={withQuery(list, req, { all: undefined, after: undefined })}>{text}</Link>,
                }}
              />
            ) : (
              <Sentence
                k="reconciliation.everyFinding"
                tags={{
                  link: (text) => <Link href={withQuery(list, req, { all: '1', after: undefined })}>{text}</Link>,
                }}
              />
            )}
          </p>
          <h2 id="reports">{t('reconciliation.reports')}</h2>
          {reports.rows.length > 0 ? (
            <ReportLinks deps={deps} req={req} reports={reports.rows} />
          ) : (
            <p>{t('reconciliation.noReports')}</p>
          )}
          {reports.next && (
            <nav aria-label={t('reconciliation.reportPages')}>
              <Link href={withQuery(list, req, { 'after-reports': reports.next }) + '#reports'}>
                {t('reconciliation.olderReports')}
              </Link>
            </nav>
          )}
          <h2 id="findings">{t('reconciliation.findings')}</h2>
          <FilterForm req={req} path={list} />
          {narrowed && (
            <p>
              {t('reconciliation.filtered')}{' '}
              <Link href={href(list, req, all ? { all: '1' } : {})}>{t('reconciliation.clearFilters')}</Link>
            </p>
          )}
          <p>
            <Sentence k="reconciliation.atStake" tags={{ totals: () => <Totals byCurrency={stake} /> }} />
          </p>
          <BulkForm req={req} />
          <Table
            caption={t('reconciliation.caption', { which: all ? 'all' : 'latest', filtered: narrowed ? 'yes' : 'no' })}
            head={[
              ...(may(req, 'decide-findings') ? [head('select')] : []),
              head('id'),
              head('type'),
              head('about'),
              head('firstSeen'),
              head('decision'),
              head('assignedTo'),
              head('decide'),
            ]}
            rows={page.rows}
            empty={t(narrowed ? 'reconciliation.noneMatch' : 'reconciliation.none')}
            cells={(f) => [
              ...(may(req, 'decide-findings') ? [<RowCheckbox req={req} finding={f} />] : []),
              <span id={`finding-${f.id}`}>{f.id}</span>,
              f.type,
              <FindingAbout deps={deps} req={req} finding={f} facts={facts} />,
              when(deps, req, f.firstSeenAt),
              f.decision === 'open'
                ? t('reconciliation.needsPerson')
                : [
                    <Sentence
                      k="reconciliation.decided"
                      values={{ decision: f.decision, who: f.decidedBy ?? t('reconciliation.someone') }}
                      tags={{ when: () => when(deps, req, f.decidedAt) }}
                    />,
                    f.decidedHash !== f.factHash && t('reconciliation.factsChanged'),
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

const noSuchFinding = () =>
  problem(t('reconciliation.problem.noSuchFinding'), t('reconciliation.problem.noFindingWithId'), 404);

function decisionAction(verb: string, kind: FindingDecisionKind): ConsoleAction {
  return {
    path: `/console/findings/:id/${verb}`,
    async handle(deps, req) {
      if (!may(req, 'decide-findings')) return roleRefusal('finance', t('reconciliation.problem.onlyDeciders'));
      const reason = (req.form.reason ?? '').trim();
      if (reason === '')
        return problem(t('reconciliation.problem.reasonMissing'), t('reconciliation.problem.sayWhy'), 400);
      const id = req.params.id ?? '';
      const [finding] = await deps.store.findings.find(id, req.company);
      if (!finding) return noSuchFinding();
      const mismatch = decisionMismatch(finding.type, kind);
      if (mismatch !== undefined)
        return problem(
          t('reconciliation.problem.doesNotFit'),
          mismatch === 'not-a-proposal'
            ? t('reconciliation.problem.notAProposal', { id, type: finding.type })
            : t('reconciliation.problem.isAProposal', { id }),
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
        if (isSettleError(error, 'ERR_FINDING_UNKNOWN')) return noSuchFinding();
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
