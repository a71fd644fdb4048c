// The report of a picked-up file that was refused, partly accepted or has held lines: the
// accountant's text and HTML in the company's language (src/formats/report/refused-file.tsx),
// and the JSON for machines (a held line's reason read from the words the hold recorded). The technical listing (`settle validate`'s form) closes the text
// and HTML, for the operator; the held lines are in it as located warnings too.
import type { Issue, IssueLocation } from '../../src/domain/issue.js';
import type { CsvProfile } from '../../src/formats/csv-profile/index.js';
import { toHuman, toJson, type IntakeResult } from '../../src/formats/intake/index.js';
import {
  renderRefusedFileHtml,
  renderRefusedFileText,
  type FileOutcome,
  type ProfileView,
} from '../../src/formats/report/index.js';
import { recordedSentence, type Locale } from '../../src/i18n/index.js';
import type { ReceivedHeldPayment } from '../../src/store/index.js';

export interface FileReport {
  text: string;
  html: string;
  json: unknown;
}

export function fileReport(input: {
  /** The result with the file's name and its quoted values clipped. */
  shown: IntakeResult;
  outcome: FileOutcome;
  holds: readonly ReceivedHeldPayment[];
  /** Where a held line is in the file: its row, or a pain.001 transaction's XPath. */
  locate: (line: number) => IssueLocation;
  profile: CsvProfile;
  locale: Locale;
}): FileReport {
  const { shown, holds, locale } = input;
  const heldShown = heldIssues(holds, input.locate);
  const withHeld = { ...shown, issues: [...shown.issues, ...heldShown], warnings: shown.warnings + holds.length };
  const profile: ProfileView | undefined = shown.format.startsWith('csv')
    ? {
        name: input.profile.name,
        delimiter: input.profile.delimiter,
        decimalSeparator: input.profile.decimalSeparator,
        columns: input.profile.columns,
      }
    : undefined;
  const report = {
    fileName: shown.file,
    outcome: input.outcome,
    issues: shown.issues,
    held: holds.map((h) => ({
      ...(h.lineNumber === undefined ? {} : { row: h.lineNumber }),
      reference: h.endToEndId,
      rules: h.rules ?? ['duplicate'],
      // The hold's own words in the company's language (its English for English and older holds).
      reason: recordedSentence(locale, h.reason, h.reasonText),
    })),
    ...(profile ? { profile } : {}),
    listing: toHuman(withHeld),
    locale,
  };
  return { text: renderRefusedFileText(report), html: renderRefusedFileHtml(report), json: toJson(withHeld) };
}

/**
 * The held lines as located warnings of the file's report, with what a person does next: a
 * likely duplicate as LIKELY_DUPLICATE, a line held by a payment control as HELD_BY_CONTROLS
 * with its rules and evidence (docs/controls.md).
 */
function heldIssues(holds: readonly ReceivedHeldPayment[], locate: (line: number) => IssueLocation): Issue[] {
  return holds.map((hold) => {
    const line = hold.lineNumber;
    const rules = hold.rules ?? ['duplicate'];
    const duplicate = rules.includes('duplicate');
    const controls = rules.filter((r) => r !== 'duplicate');
    const checked = duplicate && hold.evidence ? `; also ${hold.evidence}` : '';
    const twice = hold.releases === 2 ? ' (this rule wants two different people to release it)' : '';
    const what = duplicate
      ? 'If it is not a duplicate, release it'
      : `If a person checked it (${controls.join(', ')}${twice}), release it`;
    return {
      code: duplicate ? 'LIKELY_DUPLICATE' : 'HELD_BY_CONTROLS',
      severity: 'warning',
      location: line === undefined ? {} : locate(line),
      field: duplicate ? 'endToEndId' : 'creditorAccount',
      message: `payment "${hold.endToEndId}"${line === undefined ? '' : ` (line ${line})`} is held, not sent: ${hold.reason}${checked}. ${what}: settle payments release ${hold.endToEndId} --reason TEXT; otherwise drop it: settle payments drop ${hold.endToEndId} --reason TEXT`,
    };
  });
}
