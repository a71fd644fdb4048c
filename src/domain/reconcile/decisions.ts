// What a person decided about a finding, applied to the next run. A finding's id is the
// identity of its fact (which payment, which booking, which statement break, basket or
// consent), so it is the same in every run; its fact hash covers what the finding says about
// that fact (type, amounts, booking, dates, status). An acknowledgement holds while the hash is
// the one the person saw: when the amount changes, a booking appears or the type changes, the
// finding needs a person again, and says that it was acknowledged before.
import { createHash } from 'node:crypto';
import type { Money } from '../money.js';
import { dateFigure, recorded } from '../recorded-text.js';
import type { Finding } from './findings.js';
import { proposalKey } from './receivables.js';

export interface FindingDecision {
  decision: 'acknowledged' | 'confirmed' | 'rejected' | 'open';
  /** The fact hash the person decided on. */
  factHash: string;
  by: string;
  at: Date;
  reason?: string;
}

/** What the finding is about, in words that stay the same from run to run. */
export function findingSubject(f: Finding): string {
  if (f.paymentIds.length > 0) return `payment ${f.paymentIds[0]!}`;
  // Unexpected debits and every incoming payment: the booking is the fact.
  if (f.transactionId) return `booking ${f.transactionId}`;
  if (f.type === 'statement_gap') return `statement ${f.accountIban ?? ''} ${f.reference ?? ''}`;
  if (f.type === 'approval_waiting' || f.type === 'approval_link_expired') return `basket ${f.reference ?? ''}`;
  if (f.type === 'consent_expired' || f.type === 'consent_expiring') return `consent ${f.reference ?? ''}`;
  return `${f.type} ${f.reference ?? f.transactionId ?? ''}`;
}

/** The stable id of a finding of a company: "F-" and 16 hex digits of the hash of its subject. */
export function findingId(company: string, f: Finding): string {
  return `F-${sha256(`${company}\n${findingSubject(f)}`).slice(0, 16)}`;
}

/** The hash of what the finding says about its fact; the message text is left out (wording may change). */
export function factHash(f: Finding): string {
  const money = (m: Money | undefined) => (m ? `${m.minor.toString()} ${m.currency}` : null);
  return sha256(
    JSON.stringify([
      f.type,
      f.paymentIds,
      f.accountIban ?? null,
      f.transactionId ?? null,
      money(f.amount),
      money(f.bookedAmount),
      money(f.amountDifference),
      f.executionDate ?? null,
      f.bookingDate ?? null,
      f.reference ?? null,
      f.due ?? null,
      f.invoice ?? null,
    ]),
  );
}

/**
 * Gives every finding that needs a person its id, and honours the decisions: a finding
 * acknowledged with its current facts needs no person any more (it keeps its place in the
 * report, in the acknowledged section); one whose facts changed since needs a person again.
 */
export function applyDecisions(
  company: string,
  findings: readonly Finding[],
  decisions: ReadonlyMap<string, FindingDecision>,
): Finding[] {
  return findings.map((f) => {
    if (!f.needsPerson) return f;
    const id = findingId(company, f);
    const decision = decisions.get(id);
    // Confirming is a decision about a proposal only; rejected proposals never reach here
    // (the run left their pair unmatched), unless their facts changed.
    const kind =
      decision?.decision === 'acknowledged'
        ? 'acknowledged'
        : decision?.decision === 'confirmed' && f.type === 'match_proposed'
          ? 'confirmed'
          : undefined;
    // A rejected pair is left unmatched, so what the run says about the payment or booking now is a new question.
    const proposalAgain = decision?.decision === 'rejected' && f.type === 'match_proposed';
    if (!decision || (kind === undefined && !proposalAgain)) return { ...f, id };
    const day = decision.at.toISOString().slice(0, 10);
    if (kind === undefined || decision.factHash !== factHash(f))
      return {
        ...f,
        id,
        message: `${f.message} ${DECIDED[decision.decision]} by ${decision.by} on ${day}, but its facts changed since; it needs a person again.`,
        // Recorded text only when the finding's own sentence is (else readers get the English).
        said: f.said
          ? recorded('findingText.factsChanged', {
              message: f.said,
              decision: decision.decision,
              by: decision.by,
              day: dateFigure(day),
            })
          : undefined,
      };
    return {
      ...f,
      id,
      needsPerson: false,
      acknowledged: {
        kind,
        by: decision.by,
        at: decision.at,
        ...(decision.reason ? { reason: decision.reason } : {}),
      },
    };
  });
}

const DECIDED = {
  acknowledged: 'Acknowledged',
  confirmed: 'Confirmed',
  rejected: 'Rejected',
  open: 'Reopened',
} as const;

/**
 * The proposed pairs a person rejected, for the run to leave unmatched: a proposal whose
 * decision is "rejected" and whose facts are still the ones the person saw.
 */
export function rejectedProposals(
  company: string,
  findings: readonly Finding[],
  decisions: ReadonlyMap<string, FindingDecision>,
): Set<string> {
  const out = new Set<string>();
  for (const f of findings) {
    if (f.type !== 'match_proposed' || !f.transactionId) continue;
    const decision = decisions.get(findingId(company, f));
    if (decision?.decision !== 'rejected' || decision.factHash !== factHash(f)) continue;
    out.add(proposalKey(f.paymentIds[0] ?? f.invoice ?? '', f.transactionId));
  }
  return out;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
