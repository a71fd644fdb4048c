// Two people release a hold that needs two (a changed account, a limit; docs/controls.md): the
// first release is recorded and sends nothing; a release by another person sends it. Who is who
// goes by person identity (../person.ts), so two logins of one person are one release. The store
// applies the step this function decides, inside the transaction that reads the hold.
import { samePerson } from '../person.js';

export interface HoldForRelease {
  releasesNeeded: 1 | 2;
  /** The person of the first release, when one was recorded. */
  firstReleasedPerson?: string;
}

export type ReleaseStep =
  /** The hold is released: the next submit sends the line. */
  | { kind: 'release' }
  /** The first of two releases: recorded, the line still waits for a second person. */
  | { kind: 'first' }
  /** Refused: the same person released it before. */
  | { kind: 'same-person'; person: string };

export function releaseStep(hold: HoldForRelease, person: string): ReleaseStep {
  if (hold.releasesNeeded < 2) return { kind: 'release' };
  if (hold.firstReleasedPerson === undefined) return { kind: 'first' };
  if (samePerson(hold.firstReleasedPerson, person)) return { kind: 'same-person', person: hold.firstReleasedPerson };
  return { kind: 'release' };
}

/**
 * "held by changed-account, released by kari and ola": how an approver's notice and the console
 * mark a line a person released from a hold (docs/controls.md).
 */
export function releasedFromHoldText(hold: { rules: readonly string[]; releasedBy: readonly string[] }): string {
  const by = hold.releasedBy.length > 0 ? hold.releasedBy.join(' and ') : 'a person';
  return `held by ${hold.rules.join(', ')}, released by ${by}`;
}
