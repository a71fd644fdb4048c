// Working through the findings on the Reconciliation page: one decision on several findings at
// once (the rows' checkboxes, one reason; each finding still gets its own audit entry, all in
// one transaction), and assigning a finding to a person. The same rules as a single decision:
// finance or an operator of the company, checked here as well as by the shell; a decision that
// does not fit a finding (acknowledging a proposed match) refuses the whole batch.
import { decisionMismatch } from '../../../../jobs/reconcile/index.js';
import { isSettleError } from '../../../domain/errors.js';
import { normaliseIdentity } from '../../../domain/person.js';
import { render } from '../../../html/index.js';
import { t } from '../../../i18n/index.js';
import type { FindingDecisionKind, StoredFinding } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type PageRequest } from '../page.js';
import { CsrfField, may, problem, roleRefusal, withQuery } from './parts.js';

/** Who may decide about and assign findings (finance, and operators who run the install): ../access.ts. */

const LIST = '/console/reconciliation';
/** A row's checkbox: `f-<finding id>`, so the form needs no repeated field names. */
const CHECKBOX = 'f-';

const BULK: { verb: 'ack' | 'confirm' | 'reject'; kind: Exclude<FindingDecisionKind, 'open'> }[] = [
  { verb: 'ack', kind: 'acknowledged' },
  { verb: 'confirm', kind: 'confirmed' },
  { verb: 'reject', kind: 'rejected' },
];

/** The form the rows' checkboxes belong to (`form="bulk"`): one reason, one button per decision. */
export function BulkForm({ req }: { req: PageRequest }) {
  if (!may(req, 'decide-findings')) return null;
  return (
    <form id="bulk" method="post" action={withQuery('/console/findings/bulk', req, { after: undefined })}>
      <CsrfField req={req} />
      <fieldset>
        <legend>{t('reconciliation.bulk.legend')}</legend>
        <label for="bulk-reason">{t('reconciliation.reason')}</label> <input id="bulk-reason" name="reason" required />{' '}
        {BULK.map((b) => (
          <>
            <button type="submit" name="verb" value={b.verb}>
              {t(`reconciliation.bulk.${b.verb}`)}
            </button>{' '}
          </>
        ))}
      </fieldset>
    </form>
  );
}

/** A row's checkbox, in the bulk form. */
export function RowCheckbox({ req, finding: f }: { req: PageRequest; finding: StoredFinding }) {
  if (!may(req, 'decide-findings')) return null;
  return (
    <input
      type="checkbox"
      form="bulk"
      name={`${CHECKBOX}${f.id}`}
      value="1"
      aria-label={t('reconciliation.bulk.selectFinding', { id: f.id })}
    />
  );
}

/** Who the finding is assigned to and, for finance, the form that assigns it. */
export function Assignment({ req, finding: f }: { req: PageRequest; finding: StoredFinding }) {
  const who = f.assignedTo ?? t('reconciliation.assign.nobody');
  if (!may(req, 'decide-findings')) return <>{who}</>;
  const id = `assign-${f.id}`;
  return (
    <>
      {who}
      <form method="post" action={withQuery(`/console/findings/${encodeURIComponent(f.id)}/assign`, req, {})}>
        <CsrfField req={req} />
        <label for={id}>{t('reconciliation.assign.to')}</label>{' '}
        <input id={id} name="to" placeholder={t('reconciliation.assign.placeholder')} />{' '}
        <button type="submit" name="who" value="named">
          {t('reconciliation.assign.named')}
        </button>{' '}
        <button type="submit" name="who" value="me">
          {t('reconciliation.assign.me')}
        </button>
      </form>
    </>
  );
}

const notAllowed = () => roleRefusal('finance', t('reconciliation.problem.onlyDeciders'));
const noSuchFinding = (message: string) => problem(t('reconciliation.problem.noSuchFinding'), message, 404);

/** The list the person came from, filters kept, the action's own fields left out. */
const back = (req: PageRequest, anchor = '') => withQuery(LIST, req, {}) + anchor;

export const bulkDecisionAction: ConsoleAction = {
  path: '/console/findings/bulk',
  async handle(deps, req) {
    if (!may(req, 'decide-findings')) return notAllowed();
    const bulk = BULK.find((b) => b.verb === req.form.verb);
    if (!bulk) return problem(t('reconciliation.bulk.whichDecision'), t('reconciliation.bulk.choose'), 400);
    const reason = (req.form.reason ?? '').trim();
    if (reason === '')
      return problem(t('reconciliation.problem.reasonMissing'), t('reconciliation.problem.sayWhy'), 400);
    const ids = Object.keys(req.form)
      .filter((k) => k.startsWith(CHECKBOX) && req.form[k] === '1')
      .map((k) => k.slice(CHECKBOX.length));
    if (ids.length === 0) return problem(t('reconciliation.bulk.nothingTicked'), t('reconciliation.bulk.tick'), 400);
    const misfits: string[] = [];
    for (const id of ids) {
      const [finding] = await deps.store.findings.find(id, req.company);
      if (!finding) return noSuchFinding(t('reconciliation.bulk.unknown', { id }));
      if (decisionMismatch(finding.type, bulk.kind) !== undefined)
        misfits.push(t('reconciliation.bulk.misfit', { id, type: finding.type }));
    }
    if (misfits.length > 0)
      return {
        status: 409,
        title: t('reconciliation.problem.doesNotFit'),
        body: render(
          <>
            <p>
              {t(
                bulk.kind === 'acknowledged'
                  ? 'reconciliation.bulk.proposalsNotAcknowledged'
                  : 'reconciliation.bulk.onlyProposals',
              )}
            </p>
            <ul>
              {misfits.map((m) => (
                <li>{m}</li>
              ))}
            </ul>
            <p>{t('reconciliation.bulk.nothingDecided')}</p>
          </>,
        ),
      };
    try {
      await deps.store.findings.decideMany(req.company, ids, {
        decision: bulk.kind,
        actor: req.origin.actor,
        origin: auditOrigin(req.origin),
        reason,
      });
    } catch (error) {
      if (isSettleError(error, 'ERR_FINDING_UNKNOWN')) return noSuchFinding(t('reconciliation.bulk.gone'));
      throw error;
    }
    return { redirect: back(req), audited: true };
  },
};

export const assignAction: ConsoleAction = {
  path: '/console/findings/:id/assign',
  async handle(deps, req) {
    if (!may(req, 'decide-findings')) return notAllowed();
    const named = (req.form.to ?? '').trim();
    const to = req.form.who === 'me' ? req.user.person : named === '' ? undefined : normaliseIdentity(named);
    if (to === undefined) return problem(t('reconciliation.assign.toWhom'), t('reconciliation.assign.giveWho'), 400);
    const id = req.params.id ?? '';
    try {
      await deps.store.findings.assign(req.company, id, {
        to: to.slice(0, 200),
        actor: req.origin.actor,
        origin: auditOrigin(req.origin),
      });
    } catch (error) {
      if (isSettleError(error, 'ERR_FINDING_UNKNOWN'))
        return noSuchFinding(t('reconciliation.problem.noFindingWithId'));
      throw error;
    }
    return { redirect: back(req, `#finding-${encodeURIComponent(id)}`), audited: true };
  },
};
