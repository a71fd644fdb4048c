// What a person's decision on a held line moves (jobs/controls): a drop sends the line to CANC
// (never sent; the ERP's status file shows it cancelled, with one reason code per rule that held
// it); a release sends it back to accepted (the next submit sends it), unless the hold needs two
// releases and this is the first, which is recorded and moves nothing (../controls/release.ts).
// The decision is kept on the held row, in the same plan: who, when and why.
import { droppedReasonCodes, DUPLICATE_RULE, holdMessages } from '../controls/index.js';
import { recorded } from '../recorded-text.js';
import { releaseStep } from '../controls/release.js';
import { SettleError } from '../errors.js';
import type { Plan, PlanStep } from './plan.js';
import { cause as causes } from '../transition-cause.js';

/** What the plan needs of a held line, as the store reads it. */
export interface HoldRead {
  id: string;
  paymentId: string;
  rules: readonly string[];
  releasesNeeded: 1 | 2;
  firstRelease?: { by: string; person: string };
  decision?: 'released' | 'dropped';
  decidedBy?: string;
}

export interface HoldDecider {
  /** Who decides, as they gave their name, and as a person (src/domain/person.ts). */
  by: string;
  person: string;
  reason: string;
  /** Whether this person may give a hold's second release (signed in to the console). */
  secondRelease?: boolean;
}

/**
 * The plan of `decision` on `held` by `who`; throws when the hold is decided already, or the
 * release is one the four eyes refuse (the same person again; a second release not signed in).
 */
export function planHoldDecision(held: HoldRead, decision: 'released' | 'dropped', who: HoldDecider): Plan {
  const { id } = held;
  if (held.decision !== undefined)
    throw new SettleError(
      'ERR_PAYMENT_NOT_HELD',
      `${id} was already ${held.decision} by ${held.decidedBy ?? ''}; see settle payments held`,
      { values: { why: 'decided', id, decision: held.decision, by: held.decidedBy ?? '' } },
    );
  const first = held.firstRelease;
  const step =
    decision === 'released'
      ? releaseStep(
          { releasesNeeded: held.releasesNeeded, ...(first ? { firstReleasedPerson: first.person } : {}) },
          who.person,
        )
      : undefined;
  if (step?.kind === 'same-person')
    throw new SettleError(
      'ERR_HOLD_SAME_PERSON',
      `${id} was released once by ${first!.by} (${step.person}); it needs a release by a second, different person (four eyes)`,
      { values: { id, by: first!.by, person: step.person } },
    );
  if (step?.kind === 'release' && first !== undefined && who.secondRelease !== true)
    throw new SettleError(
      'ERR_HOLD_SECOND_IN_CONSOLE',
      `${id} was released once by ${first.by}; its second release is given in the console, signed in, not on the command line (four eyes)`,
      { values: { id, by: first.by } },
    );
  const expect: PlanStep = {
    step: 'expect-undecided-hold',
    id,
    ...(first ? { firstReleasedPerson: first.person } : {}),
  };
  if (step?.kind === 'first')
    return { steps: [expect, { step: 'first-release', id, by: who.by, person: who.person, reason: who.reason }] };
  const rules = held.rules;
  // One reason code per rule, distinct from any a bank gives (docs/formats/pain002.md).
  const messages =
    decision === 'released'
      ? []
      : rules.includes(DUPLICATE_RULE)
        ? holdMessages(
            droppedReasonCodes(rules),
            `dropped as a duplicate by ${who.by}: ${who.reason}`,
            recorded('lineText.droppedDuplicate', { by: who.by, reason: who.reason }),
          )
        : holdMessages(
            droppedReasonCodes(rules),
            `dropped after a hold by ${rules.join(', ')} by ${who.by}: ${who.reason}`,
            recorded('lineText.droppedAfterHold', { rules: rules.join(', '), by: who.by, reason: who.reason }),
          );
  return {
    steps: [
      expect,
      { step: 'decide-hold', id, decision, by: who.by, reason: who.reason },
      {
        step: 'move',
        kind: 'payment',
        ids: [held.paymentId],
        to: decision === 'released' ? 'accepted' : 'CANC',
        cause: causes.holdDecided(decision, who.by, who.reason),
        source: 'operator',
        messages,
      },
    ],
  };
}
