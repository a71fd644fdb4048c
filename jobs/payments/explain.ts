// What a bank refusal means for a bulk, in words an accountant understands, and what settle does
// about it. The decision follows architecture §2.2–2.3: a final 4xx rejects the bulk, an answer
// that proves the bank did not take it (429, 503 on a first attempt) sends it back to the queue,
// and anything that leaves the outcome open keeps the bulk `sending` (retried with the same
// Idempotency-Key) until the idempotency retention has passed, then `unknown`.
import type { BankError } from '../../src/bank/index.js';

export type SendVerdict =
  /** The bank refused this bulk for good: reject it and tell the ERP why. */
  | 'rejected'
  /** The bank certainly did not take it: queue it again (same key). */
  | 'retry'
  /** The bank may have taken it: keep it `sending`, retry with the same key, never without. */
  | 'uncertain'
  /** A settle bug or an outcome nobody can decide from here: `unknown`, for a lookup or a person. */
  | 'unknown';

export interface Explained {
  verdict: SendVerdict;
  /** One or two sentences for the status report and the log. */
  explanation: string;
}

export interface BulkContext {
  debtorIban: string;
  company: string;
  executionDate: string;
  /** Today at the bank (its calendar day): an execution date not after it is refused. */
  today: string;
  /** Whether an earlier attempt may have reached the bank (the first attempt got no clear answer). */
  earlierAttemptUncertain: boolean;
}

/** Masks an IBAN to its country, check digits and last four: account numbers stay out of logs. */
export function maskIban(iban: string): string {
  return iban.length <= 8 ? iban : `${iban.slice(0, 4)}…${iban.slice(-4)}`;
}

export function explainSendFailure(error: BankError, ctx: BulkContext): Explained {
  const status = error.status;
  const title = (error.title ?? '').toLowerCase();
  const detail = error.detail ?? '';
  const account = maskIban(ctx.debtorIban);
  if (error.code === 'ERR_BANK_INVALID_RESPONSE' || error.code === 'ERR_BANK_ANSWER_TOO_LARGE') {
    // The bank answered, but not in the API's shape (a number for an id, an endless body): it
    // may have taken the bulk. Sending again cannot make that clearer; a lookup can.
    return {
      verdict: 'unknown',
      explanation: `The bank's answer could not be read (${error.code}); it may have received the payment. Nothing is re-sent: settle looks it up at the bank.`,
    };
  }
  if (error.outcomeUnknown || status === undefined) {
    return {
      verdict: 'uncertain',
      explanation: `No answer from the bank (${error.code}); the payment may or may not have been received. settle asks again with the same key, so it cannot be paid twice.`,
    };
  }
  if (status === 429 || status === 503) {
    // Both are answered before the bank does any work. Only on a first attempt is that proof the
    // bulk is not at the bank: an earlier unanswered attempt may still have landed.
    const why =
      status === 429
        ? 'The bank asked settle to slow down (too many requests)'
        : 'The bank was temporarily unavailable';
    return ctx.earlierAttemptUncertain
      ? {
          verdict: 'uncertain',
          explanation: `${why}; an earlier attempt got no answer, so settle retries with the same key.`,
        }
      : { verdict: 'retry', explanation: `${why}; nothing was received. settle sends it again on the next run.` };
  }
  if (status >= 500 || status === 408 || status === 409) {
    return {
      verdict: 'uncertain',
      explanation: `The bank answered ${status} (${error.title ?? 'server error'}); it may have received the payment. settle asks again with the same key.`,
    };
  }
  if (status === 422) {
    return {
      verdict: 'unknown',
      explanation:
        "The bank says this bulk's idempotency key was already used for a different request. That is a settle defect (the bulk changed after it was first sent); the first request may have been paid. Nothing is re-sent: check `settle payments show` and the bank before doing anything.",
    };
  }
  if (status === 401) {
    return {
      verdict: 'retry',
      explanation:
        'settle could not sign in to the bank (credentials or consent). Nothing was received; fix the bank client credentials or the consent (`settle consents list`), then run submit again.',
    };
  }
  if (status === 403) {
    return {
      verdict: 'retry',
      explanation: `settle has no access to company ${ctx.company} at the bank (subscription or resource group not granted). Nothing was received; ask the bank administrator to grant access, then run submit again.`,
    };
  }
  if (status === 404 && title.includes('account')) {
    return {
      verdict: 'rejected',
      explanation: `The debtor account ${account} is not onboarded for company ${ctx.company} at the bank, so it cannot pay from it (check \`settle accounts list\` and the company's consent).`,
    };
  }
  if (status === 404) {
    return {
      verdict: 'rejected',
      explanation: `The bank could not find what the payment refers to (${error.title ?? 'not found'}${detail ? `: ${detail}` : ''}).`,
    };
  }
  // The date is checked here too, not only in the bank's field list: the bank takes only dates
  // after its today (spec §8), whatever words its problem uses.
  if (
    status === 400 &&
    (ctx.executionDate <= ctx.today ||
      /requestedexecutiondate|execution date|future/i.test(detail + problemFields(error)))
  ) {
    return {
      verdict: 'rejected',
      explanation: `The execution date ${ctx.executionDate} is not accepted by the bank: it must be a future business day. Correct the date in the ERP and send a new file.`,
    };
  }
  if (status === 400 && /currency/i.test(detail + problemFields(error))) {
    return {
      verdict: 'rejected',
      explanation: `The bank refused the amounts: every payment must be in the currency of the debtor account ${account}.`,
    };
  }
  if (status === 400) {
    return {
      verdict: 'rejected',
      explanation: `The bank refused the payment as invalid${detail ? `: ${detail.replace(/\.+$/, '')}` : ''}. Correct the lines named and send a new file.`,
    };
  }
  return {
    verdict: 'rejected',
    explanation: `The bank refused the payment (${status} ${error.title ?? ''}${detail ? `: ${detail}` : ''}).`.replace(
      ' )',
      ')',
    ),
  };
}

/** The problem-details fields kept with a rejected bulk (no secrets: the bank's own words). */
export function problemOf(error: BankError, explanation: string): Record<string, unknown> {
  return {
    code: error.code,
    status: error.status,
    type: error.type,
    title: error.title,
    detail: error.detail,
    traceId: error.traceId,
    ...(error.fieldErrors.length > 0 ? { errors: error.fieldErrors } : {}),
    explanation,
  };
}

function problemFields(error: BankError): string {
  return `${error.message} ${error.fieldErrors.map((e) => `${e.field} ${e.message}`).join(' ')}`;
}
