// Every area of the catalogue. A new page, report or command adds its file beside these and one
// line in AREAS; catalogues/en.ts and nb.ts take every area's sentences from here.
import { alerts } from './alerts.js';
import { audit } from './audit.js';
import { banks } from './banks.js';
import { board } from './board.js';
import { bulks } from './bulks.js';
import { cancellations } from './cancellations.js';
import { cli } from './cli.js';
import { held } from './held.js';
import { notice } from './notice.js';
import { operator } from './operator.js';
import { payments } from './payments.js';
import { signIn } from './sign-in.js';

const AREAS = {
  notice,
  payments,
  held,
  bulks,
  operator,
  cancellations,
  banks,
  audit,
  board,
  signIn,
  cli,
  alerts,
} as const;

type Areas = (typeof AREAS)[keyof typeof AREAS];

/** A union of objects as one object with every key (the areas' keys never overlap). */
type Merged<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

function merge<L extends 'en' | 'nb'>(language: L): Merged<Areas[L]> {
  return Object.assign({}, ...Object.values(AREAS).map((a: Areas) => a[language])) as Merged<Areas[L]>;
}

/** Every area's sentences in English (the reference) and in bokmål. */
export const areasEnglish = merge('en');
export const areasBokmal = merge('nb');
