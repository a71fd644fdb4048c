// `settle controls test FILE`: which lines of a payment file pickup would hold, by which rule and
// why, without sending, storing or auditing anything. It reads the file with the company's
// validation, then asks the same rules as pickup (jobs/controls/controls.ts, src/domain/controls:
// duplicate-holds.ts, rules.ts) with the company's history as the database has it now.
import type { CompanyConfig } from '../../src/config/index.js';
import type { Clock } from '../../src/domain/clock.js';
import {
  controlHistoryOf,
  DUPLICATE_RULE,
  FileControls,
  NO_EARLIER_LINES,
  OtherFileDuplicates,
  releasesNeeded,
  SameFileLines,
} from '../../src/domain/controls/index.js';
import { today } from '../../src/domain/local-date.js';
import type { PaymentInstruction } from '../../src/domain/payment.js';
import type { CsvProfile } from '../../src/formats/csv-profile/index.js';
import { intakeValidation, validateFile } from '../../src/formats/intake/index.js';
import { pickupFacts, type Database } from '../../src/store/index.js';
import { loadControls } from './controls.js';

export interface WouldHold {
  line: number;
  endToEndId: string;
  rules: string[];
  /** The duplicate's reason and each control's evidence, joined with "; ". */
  why: string;
  releases: 1 | 2;
}

export interface ControlsTestResult {
  file: string;
  company: string;
  /** Lines that passed validation (only they are checked; `settle validate` lists the others). */
  payments: number;
  invalidLines: number;
  held: WouldHold[];
}

export async function testControls(
  deps: { db: Database; clock: Clock; timeZone: string; profile: CsvProfile },
  company: CompanyConfig,
  file: string,
): Promise<ControlsTestResult> {
  const timeZone = company.timeZone ?? deps.timeZone;
  const { setup } = await loadControls(company, { clock: deps.clock, timeZone });
  const payments: PaymentInstruction[] = [];
  const result = await validateFile(file, {
    profile: deps.profile,
    validation: intakeValidation(company.intake, today(deps.clock, timeZone), {}),
    onPayment: (p) => void payments.push(p),
    maxFileBytes: company.intake.maxFileSize,
  });
  const facts = pickupFacts(deps.db, company.id);
  const duplicates = await duplicateReasons(deps, company, payments);
  const controls = new FileControls({
    ...controlHistoryOf(await facts.controlHistory(setup.today), setup.known),
    settings: setup.settings,
    receivedAt: deps.clock.now(),
    timeZone,
    today: setup.today,
  });
  const held: WouldHold[] = [];
  for (const p of payments) {
    const duplicate = duplicates.get(p.endToEndId);
    const hit = controls.check(p, duplicate !== undefined);
    if (!duplicate && !hit) continue;
    const rules = [...(duplicate ? [DUPLICATE_RULE] : []), ...(hit?.rules ?? [])];
    const why = [...(duplicate ? [`${DUPLICATE_RULE}: ${duplicate}`] : []), ...(hit ? [hit.evidence] : [])].join('; ');
    held.push({ line: p.lineNumber, endToEndId: p.endToEndId, rules, why, releases: releasesNeeded(rules) });
  }
  return {
    file,
    company: company.id,
    payments: payments.length,
    invalidLines: result.payments - payments.length,
    held,
  };
}

/** The likely-duplicate reasons by end-to-end id: of other files' payments, then of earlier lines of this one. */
async function duplicateReasons(
  deps: { db: Database; clock: Clock },
  company: CompanyConfig,
  payments: readonly PaymentInstruction[],
): Promise<Map<string, string>> {
  const reasons = new Map<string, string>();
  const window = company.intake.duplicateWindow;
  if (window <= 0) return reasons;
  const since = new Date(deps.clock.now().getTime() - window);
  const other = new OtherFileDuplicates(since);
  await other.load(pickupFacts(deps.db, company.id), payments);
  for (const h of other.holds(payments)) reasons.set(h.endToEndId, h.reason);
  for (const r of await new SameFileLines().repeats(payments, NO_EARLIER_LINES))
    if (!reasons.has(r.payment.endToEndId))
      reasons.set(
        r.payment.endToEndId,
        `same creditor account, amount and reference as line ${r.firstLine} of this file`,
      );
  return reasons;
}

/** The result in words, one line a held line, as the command prints it. */
export function controlsTestText(r: ControlsTestResult): string {
  const head = `${r.file} (company ${r.company}): ${r.payments} valid line(s) checked${r.invalidLines > 0 ? `, ${r.invalidLines} invalid line(s) not checked (see settle validate)` : ''}; ${r.held.length} would be held\n`;
  return (
    head +
    r.held
      .map(
        (h) =>
          `line ${h.line} ${h.endToEndId}: held by ${h.rules.join(', ')}${h.releases === 2 ? ' (two people release it)' : ''}: ${h.why}\n`,
      )
      .join('')
  );
}
