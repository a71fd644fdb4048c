// Unknown bulks: the company's bulks whose outcome at the bank is not known (`unknown`: no
// answer to the send; `attention`: not found at the bank days after its execution date), oldest
// first. settle never sends such a bulk again by itself (architecture §2.3); an operator who
// checked with the bank records what it said — the bank has it (its payment id), or it does not
// (its lines are reported to the ERP as rejected) — through the same use case as
// `settle payments resolve` (jobs/payments/resolve-by-hand.ts).
import { resolveBulkByHand, type HandResolution } from '../../../../jobs/payments/index.js';
import type { StoredBulk } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Table } from '../../../html/index.js';
import { t, type MessageKey } from '../../../i18n/index.js';
import { loadPage } from './load-page.js';
import { DecisionForm, isOperator, reasonOf, refuseUnlessOperator, runDecision } from './operator.js';
import { codeText, day, href, Pager, payrollAccounts, problem, VisibleTotals, when } from './parts.js';

const RESOLUTIONS: { value: HandResolution; label: MessageKey }[] = [
  { value: 'at-bank', label: 'bulks.atBank' },
  { value: 'not-at-bank', label: 'bulks.notAtBank' },
];

function ResolveForm({ req, bulk }: { req: PageRequest; bulk: StoredBulk }) {
  if (!isOperator(req)) return null;
  const id = `bulk-${bulk.id}`;
  return (
    <DecisionForm
      req={req}
      path={`/console/bulks/${encodeURIComponent(bulk.id)}/resolve`}
      id={id}
      button={t('bulks.record')}
      fields={
        <>
          <fieldset>
            <legend>{t('bulks.bankSaid')}</legend>
            {RESOLUTIONS.map((r) => (
              <label>
                <input type="radio" name="as" value={r.value} required /> {t(r.label)}
              </label>
            ))}
          </fieldset>
          <label for={`${id}-payment`}>{t('bulks.paymentId')}</label> <input id={`${id}-payment`} name="paymentId" />
        </>
      }
    />
  );
}

export const bulksPage: ConsolePage = {
  path: '/console/bulks',
  nav: 'nav.bulks',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.operatorViews.unknownBulks(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const payroll = await deps.store.consoleViews.payrollParts(
      'bulk',
      page.rows.map((b) => b.id),
      payrollAccounts(deps, req.company),
    );
    return {
      title: t('bulks.title'),
      body: render(
        <>
          <p>{t('bulks.intro')}</p>
          <Table
            caption={t('bulks.caption')}
            head={(
              [
                'bulk',
                'state',
                'debtorAccount',
                'executionDate',
                'payments',
                'totals',
                'firstSent',
                'attempts',
                'resolve',
              ] as const
            ).map((h) => t(`bulks.column.${h}`))}
            rows={page.rows}
            empty={t('bulks.none')}
            cells={(b) => [
              <span id={`bulk-${b.id}`}>
                <Link href={href(`/console/files/${encodeURIComponent(b.fileId)}`, req)}>{b.id}</Link>
              </span>,
              codeText('bulk', b.state),
              b.debtorIban,
              day(b.executionDate),
              String(b.lineCount),
              <VisibleTotals deps={deps} req={req} byCurrency={b.totals} payroll={payroll.get(b.id)} />,
              when(deps, req, b.firstSentAt),
              String(b.attempts),
              <ResolveForm req={req} bulk={b} />,
            ]}
          />
          <Pager path="/console/bulks" req={req} next={page.next} />
        </>,
      ),
    };
  }),
};

export const resolveBulkAction: ConsoleAction = {
  path: '/console/bulks/:id/resolve',
  // Every person of the company reaches the action, which refuses all but operators itself: so
  // the router records a refusal in the audit trail (console/pages/operator.tsx).
  async handle(deps, req) {
    const refused = refuseUnlessOperator(req, 'resolveBulk');
    if (refused) return refused;
    const reason = reasonOf(req);
    if ('refused' in reason) return reason.refused;
    const as = RESOLUTIONS.find((r) => r.value === req.form.as)?.value;
    if (!as) return problem(t('bulks.chooseAnswer.title'), t('bulks.chooseAnswer.body'), 400);
    if (as === 'at-bank' && !(req.form.paymentId ?? '').trim())
      return problem(t('bulks.paymentIdMissing.title'), t('bulks.paymentIdMissing.body'), 400);
    const id = req.params.id ?? '';
    return runDecision(deps, req, t('bulks.notResolved'), async () => {
      await resolveBulkByHand(deps.store, {
        bulkId: id,
        as,
        ...(req.form.paymentId ? { paymentId: req.form.paymentId } : {}),
        reason: reason.reason,
        actor: req.origin.actor,
        origin: auditOrigin(req.origin),
        company: req.company,
      });
      return { redirect: href('/console/bulks', req) };
    });
  },
};
