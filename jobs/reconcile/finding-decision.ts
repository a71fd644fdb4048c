// Which decision fits which finding, the one rule `settle findings` and the console's
// Reconciliation page share: a proposed match is confirmed or rejected, any other finding is
// acknowledged; any decided finding can be reopened.
import type { FindingDecisionKind } from '../../src/store/index.js';

export const PROPOSAL_TYPE = 'match_proposed';

/** Why the decision does not fit the finding, or undefined when it does. */
export function decisionMismatch(
  findingType: string,
  kind: FindingDecisionKind,
): 'not-a-proposal' | 'a-proposal' | undefined {
  if (kind === 'open') return undefined;
  const proposalDecision = kind === 'confirmed' || kind === 'rejected';
  const isProposal = findingType === PROPOSAL_TYPE;
  if (proposalDecision === isProposal) return undefined;
  return proposalDecision ? 'not-a-proposal' : 'a-proposal';
}
