// Every area of the catalogue. A new page, report or command adds its file beside these and one
// line in AREAS; catalogues/en.ts and nb.ts take every area's sentences from here.
import { approvals } from './approvals.js';
import { notice } from './notice.js';
import { today } from './today.js';

const AREAS = { notice, approvals, today } as const;

type Areas = (typeof AREAS)[keyof typeof AREAS];

/** A union of objects as one object with every key (the areas' keys never overlap). */
type Merged<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

function merge<L extends 'en' | 'nb'>(language: L): Merged<Areas[L]> {
  return Object.assign({}, ...Object.values(AREAS).map((a: Areas) => a[language])) as Merged<Areas[L]>;
}

/** Every area's sentences in English (the reference) and in bokmål. */
export const areasEnglish = merge('en');
export const areasBokmal = merge('nb');
