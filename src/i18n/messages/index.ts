// Every area of the catalogue. A new page, report or command adds its file beside these and one
// line in AREAS; catalogues/en.ts and nb.ts take every area's sentences from here.
import { alerts } from './alerts.js';
import { approvals } from './approvals.js';
import { audit } from './audit.js';
import { auditEntry } from './audit-entry.js';
import { banks } from './banks.js';
import { board } from './board.js';
import { bulks } from './bulks.js';
import { cancellations } from './cancellations.js';
import { cli } from './cli.js';
import { consoleError } from './console-error.js';
import { evidence } from './evidence.js';
import { files } from './files.js';
import { findingText } from './finding-text.js';
import { findingType } from './finding-types.js';
import { held } from './held.js';
import { heldEvidence } from './held-evidence.js';
import { historyCause } from './history-cause.js';
import { lineState } from './line-state.js';
import { lineText } from './line-text.js';
import { notice } from './notice.js';
import { operator } from './operator.js';
import { payments } from './payments.js';
import { periods } from './periods.js';
import { receivables } from './receivables.js';
import { reasonAction } from './reason-action.js';
import { reconciliation } from './reconciliation.js';
import { refusal } from './refusal.js';
import { refusedLines } from './refused-lines.js';
import { refusedReport } from './refused-report.js';
import { reportReconciliation } from './report-reconciliation.js';
import { reportSignoff } from './report-signoff.js';
import { reports } from './reports.js';
import { rules } from './rules.js';
import { run } from './run.js';
import { signIn } from './sign-in.js';
import { signoffCsv } from './signoff-csv.js';
import { states } from './states.js';
import { statements } from './statements.js';
import { today } from './today.js';

const AREAS = {
  alerts,
  approvals,
  audit,
  auditEntry,
  banks,
  board,
  bulks,
  cancellations,
  cli,
  consoleError,
  evidence,
  files,
  findingText,
  findingType,
  held,
  heldEvidence,
  historyCause,
  lineState,
  lineText,
  notice,
  operator,
  payments,
  periods,
  receivables,
  reasonAction,
  reconciliation,
  refusal,
  refusedLines,
  refusedReport,
  reportReconciliation,
  reportSignoff,
  reports,
  rules,
  run,
  signIn,
  signoffCsv,
  states,
  statements,
  today,
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
