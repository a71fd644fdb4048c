// What the operator's pages share (Unknown bulks, Held, Cancellations): the role check inside
// each action, the reason every decision carries, the forms, and the answer to a refusal of the
// use case (jobs/) in the reader's words. The router refuses anyone the access table
// (../access.ts) does not let `operate`; the check here keeps an action safe when called directly,
// and its refusal (`roleRefusal`) is audited like the router's: counted per person, route, company and minute.
import { isSettleError } from '../../../domain/errors.js';
import type { Role } from '../../../domain/roles.js';
import { auditOrigin, type ActionRequest, type ActionResult, type ConsoleDeps, type PageRequest } from '../page.js';
import type { Child } from '../../../html/index.js';
import { t } from '../../../i18n/index.js';
import { CsrfField, may, problem, refusalProblem, roleRefusal } from './parts.js';
import { isBankError } from '../../../bank/index.js';

/** The role that decides about bulks, held lines and cancellations. */
export const OPERATOR: Role = 'operator';

export function isOperator(req: PageRequest): boolean {
  return may(req, 'operate');
}

/** The refusal for anyone but an operator of the company, or undefined for an operator. */
export function refuseUnlessOperator(
  req: ActionRequest,
  what: 'releaseHeld' | 'resolveBulk' | 'confirmCancellation' | 'declineCancellation' | 'cancelPayment',
): ActionResult | undefined {
  return isOperator(req) ? undefined : roleRefusal(OPERATOR, t('operator.notAllowed.body', { what }));
}

/** The answer of a cancellation when the console was built without the bank (ConsoleDeps.operations). */
export function withoutBank(): ReturnType<typeof problem> {
  return problem(t('operator.withoutBank.title'), t('operator.withoutBank.body'), 503);
}

/** The reason of the form, trimmed, or the refusal that asks for one. */
export function reasonOf(req: ActionRequest): { reason: string } | { refused: ActionResult } {
  const reason = (req.form.reason ?? '').trim();
  return reason === ''
    ? { refused: problem(t('operator.reasonMissing.title'), t('operator.reasonMissing.body'), 400) }
    : { reason };
}

/** A POST form to `path` in the chosen company, with the CSRF token, a required reason (unless left out) and a button. */
export function DecisionForm(props: {
  req: PageRequest;
  path: string;
  id: string;
  button: string;
  fields?: Child;
  reason?: boolean;
}) {
  const { req, id } = props;
  return (
    <form method="post" action={`${props.path}?company=${encodeURIComponent(req.company)}`}>
      <CsrfField req={req} />
      {props.fields}
      {props.reason !== false && (
        <>
          <label for={`reason-${id}`}>{t('operator.reason')}</label>{' '}
          <input id={`reason-${id}`} name="reason" required />{' '}
        </>
      )}
      <button type="submit">{props.button}</button>
    </form>
  );
}

const STATUS: Partial<Record<string, number>> = {
  ERR_USAGE: 400,
  ERR_CANCEL_SAME_PERSON: 403,
  ERR_CANCEL_NOT_FOUND: 404,
  ERR_PAYMENT_BULK_UNKNOWN: 404,
};

/**
 * Runs a use case of jobs/ and answers what it refused (a SettleError: not found, too late, the
 * same person; a bank that failed: 502) as a page that says why; anything else is a failure the
 * router records. A success is `audited` when the use case wrote its own audit entry for this
 * person and address (one entry per change), so the router adds none; a call that changed
 * nothing (a repeat) and every refusal or failure get the router's entry as well.
 */
export async function runDecision(
  deps: ConsoleDeps,
  req: ActionRequest,
  title: string,
  decide: () => Promise<ActionResult>,
): Promise<ActionResult> {
  const [head] = await deps.store.audit.page({ limit: 1, scope: 'all' });
  const wroteOwn = async () =>
    (await deps.store.audit.page({ limit: 20, scope: 'all' })).some(
      (e) => e.seq > (head?.seq ?? 0) && e.actor === req.origin.actor && e.origin === auditOrigin(req.origin),
    );
  let result: ActionResult;
  try {
    result = await decide();
  } catch (error) {
    if (!isSettleError(error)) throw error;
    // The bank did not answer or failed: the request is kept, and sending the form again continues it.
    const status = STATUS[error.code] ?? (isBankError(error) ? 502 : 409);
    result = refusalProblem(title, error, status);
  }
  const failed = 'status' in result && result.status >= 400;
  return !failed && (await wroteOwn()) ? { ...result, audited: true } : result;
}
