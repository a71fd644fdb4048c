// Ids in XML documents: never cut. An id that does not fit its field is written as its stand-in
// (src/domain/iso-identifier.ts); the writer collects the pairs for its caller to store, and
// writes the full id in a text field near it where its schema has room (docs/formats/identifiers.md).
import { fitIdentifier, type ShortIdentifier } from '../../domain/iso-identifier.js';

// Printable ASCII without leading or trailing space: fits as is when short enough.
const CLEAN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** One stand-in a document used, with the element it stands in. */
export interface StandIn extends ShortIdentifier {
  element: string;
}

/**
 * The id to write in `element` (at most `max` characters): the id itself, trimmed, or its stand-in,
 * which is added to `standIns` (when given). Undefined for no id or an empty one.
 */
export function identifier(
  value: string | undefined,
  max: number,
  element: string,
  standIns?: StandIn[],
): string | undefined {
  if (value === undefined) return undefined;
  if (value.length <= max && CLEAN.test(value)) return value;
  const id = value.trim();
  if (id === '') return undefined;
  const fitted = fitIdentifier(id, max);
  if (fitted.full !== undefined) standIns?.push({ element, short: fitted.value, full: fitted.full });
  return fitted.value;
}

/** "NtryRef STL-… = <full id>; …": what the stand-ins of one element group stand for. */
export function standInText(standIns: readonly StandIn[]): string | undefined {
  if (standIns.length === 0) return undefined;
  return standIns.map((s) => `${s.element} ${s.short} = ${s.full}`).join('; ');
}

/** The distinct pairs of a document, for its caller to store. */
export function distinctPairs(standIns: readonly StandIn[]): ShortIdentifier[] {
  const pairs = new Map<string, string>();
  for (const s of standIns) pairs.set(s.short, s.full);
  return [...pairs].map(([short, full]) => ({ short, full }));
}
