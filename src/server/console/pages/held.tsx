// Held payments: the company's lines held as likely duplicates of a payment accepted from
// another file or of an earlier line of their own (same creditor account, amount and
// reference), or by a payment control (docs/controls.md), oldest first. An operator releases
// one (the next submit sends it) or drops it (never sent; the ERP's status file shows it
// cancelled) through the same use case as `settle payments release|drop` (jobs/held-payments.ts),
// which keeps the decision on the held row and writes it to the audit trail.
import { decideHold } from '../../../../jobs/held-payments.js';
import type { HeldPayment, HoldDecision } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Table } from '../../../html/index.js';
import { loadPage } from './load-page.js';
import { DecisionForm, isOperator, reasonOf, refuseUnlessOperator, runDecision } from './operator.js';
import { href, Pager, when } from './parts.js';

const DECISIONS: { verb: string; decision: HoldDecision; label: string }[] = [
  { verb: 'release', decision: 'released', label: 'Release (send it)' },
  { verb: 'drop', decision: 'dropped', label: 'Reject (never send it)' },
];

function DecisionForms({ req, held }: { req: PageRequest; held: HeldPayment }) {
  if (!isOperator(req)) return null;
  return (
    <>
      {DECISIONS.map((d) => (
        <DecisionForm
          req={req}
          path={`/console/held/${encodeURIComponent(held.id)}/${d.verb}`}
          id={`held-${held.id}-${d.verb}`}
          button={d.label}
        />
      ))}
    </>
  );
}

export const heldPage: ConsolePage = {
  path: '/console/held',
  nav: 'nav.held',
  role: 'viewer',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.operatorViews.heldPayments(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    const payment = (id: string) => href(`/console/payments/${encodeURIComponent(id)}`, req);
    return {
      title: 'Held payments',
      body: render(
        <>
          <p>
            These lines look like a payment already accepted from another file, or an earlier line of their own file, or
            a payment control held them (a changed or new creditor account, a limit, a file at an unusual time; see
            docs/controls.md). Nothing is sent until a person decides.
          </p>
          <Table
            caption="Lines held for a person, oldest first"
            head={['File and line', 'End-to-end id', 'Rule', 'Why held', 'Held', 'Decide']}
            rows={page.rows}
            empty="none"
            cells={(h) => [
              <span id={`held-${h.id}`}>
                <Link href={href(`/console/files/${encodeURIComponent(h.fileId)}`, req)}>{h.fileName}</Link>, line{' '}
                {String(h.lineNumber)}
              </span>,
              <Link href={payment(h.paymentId)}>{h.endToEndId}</Link>,
              <>
                {h.rules.join(', ')}
                {h.releasesNeeded === 2 ? (
                  <>
                    <br />
                    {h.firstRelease
                      ? `needs two people: released once by ${h.firstRelease.by}, waiting for a second person`
                      : 'needs two people'}
                  </>
                ) : null}
              </>,
              <>
                {h.reason}
                {h.rules.includes('duplicate') ? (
                  <>
                    {h.evidence ? (
                      <>
                        <br />
                        {h.evidence}
                      </>
                    ) : null}
                    <br />
                    <Link href={payment(h.matchedPaymentId)}>The payment it looks like</Link>
                  </>
                ) : null}
              </>,
              when(deps, req, h.heldAt),
              <DecisionForms req={req} held={h} />,
            ]}
          />
          <Pager path="/console/held" req={req} next={page.next} />
        </>,
      ),
    };
  }),
};

function holdAction(verb: string, decision: HoldDecision): ConsoleAction {
  return {
    path: `/console/held/:id/${verb}`,
    // Every person of the company reaches it; the action refuses all but operators, so the router records the refusal.
    role: 'viewer',
    async handle(deps, req) {
      const refused = refuseUnlessOperator(req, 'release or reject a held payment');
      if (refused) return refused;
      const reason = reasonOf(req);
      if ('refused' in reason) return reason.refused;
      return runDecision(deps, req, 'Not decided', async () => {
        await decideHold(deps.store, {
          ref: req.params.id ?? '',
          decision,
          reason: reason.reason,
          actor: req.origin.actor,
          origin: auditOrigin(req.origin),
          company: req.company,
          person: req.user.person,
        });
        return { redirect: href('/console/held', req) };
      });
    },
  };
}

export const holdActions: ConsoleAction[] = DECISIONS.map((d) => holdAction(d.verb, d.decision));
