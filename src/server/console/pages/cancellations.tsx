// Cancellations: the company's open cancellation requests, oldest first — those waiting for a
// second operator where four eyes are configured (payments.cancelFourEyes), and those the bank
// has not confirmed yet. A different operator confirms one (then it is carried out, through
// jobs/cancel/cancel.ts as on the command line) or declines it (jobs/cancel/review.ts:
// nothing was sent, the request closes). The one who asked cannot confirm their own request.
import { declineCancellation, confirmCancellation } from '../../../../jobs/cancel/index.js';
import { samePerson } from '../../../domain/person.js';
import type { StoredCancellation } from '../../../store/index.js';
import { auditOrigin, type ConsoleAction, type ConsoleDeps, type ConsolePage, type PageRequest } from '../page.js';
import { Link, render, Table } from '../../../html/index.js';
import { loadPage } from './load-page.js';
import { DecisionForm, isOperator, reasonOf, refuseUnlessOperator, runDecision, withoutBank } from './operator.js';
import { href, Pager, problem, when } from './parts.js';

function fourEyes(deps: ConsoleDeps, company: string): boolean {
  return deps.operations?.companies.find((c) => c.id === company)?.payments.cancelFourEyes === true;
}

function stateOf(deps: ConsoleDeps, c: StoredCancellation): string {
  if (c.bankRequestedAt) return 'sent to the bank; waiting for its answer';
  if (fourEyes(deps, c.company) && !c.confirmedBy) return 'waiting for a second operator';
  return 'open';
}

function Decide({ req, c }: { req: PageRequest; c: StoredCancellation }) {
  if (!isOperator(req) || c.bankRequestedAt) return null;
  const path = `/console/cancellations/${encodeURIComponent(c.id)}`;
  const own = samePerson(c.requestedPerson ?? c.requestedBy, req.user.person);
  return (
    <>
      {own ? (
        <p>You asked for it: another operator confirms it.</p>
      ) : (
        <DecisionForm
          req={req}
          path={`${path}/confirm`}
          id={`confirm-${c.id}`}
          button="Confirm: cancel it"
          reason={false}
        />
      )}
      <DecisionForm
        req={req}
        path={`${path}/decline`}
        id={`decline-${c.id}`}
        button={own ? 'Withdraw my request' : 'Decline'}
      />
    </>
  );
}

export const cancellationsPage: ConsolePage = {
  path: '/console/cancellations',
  nav: 'nav.cancellations',
  load: loadPage(async (deps, req) => {
    const page = await deps.store.operatorViews.openCancellations(req.company, {
      ...(req.query.get('after') ? { after: req.query.get('after')! } : {}),
    });
    // The end-to-end ids of the single-line requests, in one read (the console names a line by its id).
    const single = page.rows.filter((c) => c.paymentIds.length === 1).map((c) => c.paymentIds[0]!);
    const e2e = new Map((await deps.store.cancellations.linesByIds(single)).map((l) => [l.id, l.endToEndId]));
    return {
      title: 'Cancellations',
      body: render(
        <>
          <p>
            Cancellation requests not finished yet. An operator asks from a payment's page (
            <Link href={href('/console/payments', req)}>Payments</Link>)
            {fourEyes(deps, req.company)
              ? '; in this company a second, different operator confirms each request before anything is sent.'
              : '.'}
          </p>
          <Table
            caption="Open cancellation requests, oldest first"
            head={['Request', 'Payment', 'Asked by', 'Reason', 'Bulk', 'State', 'Decide']}
            rows={page.rows}
            empty="none"
            cells={(c) => [
              <span id={`cancellation-${c.id}`}>{c.id}</span>,
              c.paymentIds.length === 1 ? (
                <Link href={href(`/console/payments/${encodeURIComponent(c.paymentIds[0]!)}`, req)}>
                  {e2e.get(c.paymentIds[0]!) ?? c.ref}
                </Link>
              ) : (
                `${c.ref} (${c.paymentIds.length} payments)`
              ),
              [`${c.requestedBy}, `, when(deps, req, c.requestedAt), ` (${c.channel})`],
              c.reason,
              c.bulkId ? `${c.bulkId}: the whole bulk is cancelled at the bank` : 'not at the bank yet',
              stateOf(deps, c),
              <Decide req={req} c={c} />,
            ]}
          />
          <Pager path="/console/cancellations" req={req} next={page.next} />
        </>,
      ),
    };
  }),
};

/** The request, when it is one of the chosen company's. */
async function requestOf(deps: ConsoleDeps, req: PageRequest): Promise<StoredCancellation | undefined> {
  const request = await deps.store.cancellations.get(req.params.id ?? '');
  return request?.company === req.company ? request : undefined;
}

const notFound = () => problem('No such request', 'The company has no cancellation request with this id.', 404);

export const confirmCancellationAction: ConsoleAction = {
  path: '/console/cancellations/:id/confirm',
  // Every person of the company reaches it; the action refuses all but operators, so the router records the refusal.
  async handle(deps, req) {
    const refused = refuseUnlessOperator(req, 'confirm a cancellation');
    if (refused) return refused;
    const ops = deps.operations;
    if (!ops) return withoutBank();
    const request = await requestOf(deps, req);
    if (!request) return notFound();
    return runDecision(deps, req, 'Not confirmed', async () => {
      const result = await confirmCancellation(
        { store: deps.store, bank: ops.bank(), logger: ops.logger },
        {
          requestId: request.id,
          actor: req.origin.actor,
          person: req.user.person,
          origin: auditOrigin(req.origin),
          companies: ops.companies,
        },
      );
      return {
        status: 200,
        title: `Cancellation ${request.id} confirmed`,
        body: render(
          <>
            <p>
              {result.outcome === 'at-bank'
                ? 'The bank took the cancellation but has not confirmed it yet; the status job finishes it.'
                : `Confirmed and carried out: ${result.outcome}.`}
            </p>
            <p>
              <Link href={href('/console/cancellations', req)}>Cancellations</Link>
            </p>
          </>,
        ),
      };
    });
  },
};

export const declineCancellationAction: ConsoleAction = {
  path: '/console/cancellations/:id/decline',
  // Every person of the company reaches it; the action refuses all but operators, so the router records the refusal.
  async handle(deps, req) {
    const refused = refuseUnlessOperator(req, 'decline a cancellation');
    if (refused) return refused;
    const reason = reasonOf(req);
    if ('refused' in reason) return reason.refused;
    const request = await requestOf(deps, req);
    if (!request) return notFound();
    return runDecision(deps, req, 'Not declined', async () => {
      await declineCancellation(deps, {
        requestId: request.id,
        reason: reason.reason,
        actor: req.origin.actor,
        origin: auditOrigin(req.origin),
        company: req.company,
      });
      return { redirect: href('/console/cancellations', req) };
    });
  },
};
