// The report of a picked-up file that was refused, partly accepted or has held lines: the
// accountant's text and HTML in the company's language (src/formats/report/refused-file.tsx),
// and the JSON for machines (a held line's reason read from the words the hold recorded). The technical listing (`settle validate`'s form) closes the text
// and HTML, for the operator; the held lines are in it as located warnings too.
import type { Issue, IssueLocation } from '../../src/domain/issue.js';
import { IssueCode } from '../../src/domain/validation/codes.js';
import type { CsvProfile } from '../../src/formats/csv-profile/index.js';
import {
  errorsNotKept,
  issueJson,
  jsonListEntry,
  toHuman,
  toJson,
  type IntakeJson,
  type IntakeResult,
} from '../../src/formats/intake/index.js';
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
  /** The JSON for machines, its issues those the file kept; `moreJson` follows them (jsonWithMore). */
  json: IntakeJson;
  /**
   * Every issue past the kept ones (their work file's bytes as they are) and every held line, as
   * the JSON text of issues (jsonListEntry's form), the held lines made one by one as it is written.
   */
  moreJson?: Iterable<string | Buffer>;
}

/**
 * Held lines a person's report (text and HTML) lists one by one, as many as the issues a file
 * keeps (validateFile's maxIssues). A full-size file held 233,000 lines: listed in words, twice
 * (the held part and the technical listing), that was 63 MB of text and 64 MB of HTML per
 * 100,000 held lines and 847 MB peak to build them. The counts stay exact; the JSON lists every one.
 */
export const MAX_HELD_LISTED = 1000;

export function fileReport(input: {
  /** The result with the file's name and its quoted values clipped. */
  shown: IntakeResult;
  outcome: FileOutcome;
  holds: readonly ReceivedHeldPayment[];
  /** Where a held line is in the file: its row, or a pain.001 transaction's XPath. */
  locate: (line: number) => IssueLocation;
  profile: CsvProfile;
  locale: Locale;
  /** The name the report is written under (NAME.errors.*), for the sentences saying where every held line and problem is. */
  reportName?: string;
  /** The issues beyond those the result keeps, as JSON entries (SpilledIssues): the JSON lists them too. */
  spilled?: { count: number; chunks(): Iterable<Buffer> };
}): FileReport {
  const { holds, locale } = input;
  const spilled = input.spilled !== undefined && input.spilled.count > 0 ? input.spilled : undefined;
  // With every issue in the JSON, the listing's last word on the issues it leaves out says so.
  const shown = spilled ? { ...input.shown, issues: input.shown.issues.map(pointToJson) } : input.shown;
  const listed = holds.length > MAX_HELD_LISTED ? holds.slice(0, MAX_HELD_LISTED) : holds;
  const notListed = holds.length - listed.length;
  const warnings = shown.warnings + holds.length;
  // The person's listing names the first held lines and counts the rest, as the issues do; the
  // JSON lists the same issues of the first, not made again.
  const listedHeld = listed.map((h) => heldIssue(h, input.locate));
  const withListed = {
    ...shown,
    issues: [...shown.issues, ...listedHeld, ...(notListed > 0 ? [heldTruncated(notListed)] : [])],
    warnings,
  };
  const profile: ProfileView | undefined = shown.format.startsWith('csv')
    ? {
        name: input.profile.name,
        delimiter: input.profile.delimiter,
        decimalSeparator: input.profile.decimalSeparator,
        columns: input.profile.columns,
      }
    : undefined;
  const jsonName = `${input.reportName ?? shown.file}.errors.json`;
  const notDescribed = spilled ? errorsNotKept(shown) : 0;
  const report = {
    fileName: shown.file,
    outcome: input.outcome,
    issues: shown.issues,
    held: listed.map((h) => ({
      ...(h.lineNumber === undefined ? {} : { row: h.lineNumber }),
      reference: h.endToEndId,
      rules: h.rules ?? ['duplicate'],
      // The hold's own words in the company's language (its English for English and older holds).
      reason: recordedSentence(locale, h.reason, h.reasonText),
    })),
    ...(notListed > 0 ? { heldNotListed: { count: notListed, jsonName } } : {}),
    // The problems past the issues the result keeps: counted for the person, every one in the JSON.
    ...(notDescribed > 0 ? { problemsNotDescribed: { count: notDescribed, listedIn: 'json' as const, jsonName } } : {}),
    ...(profile ? { profile } : {}),
    listing: toHuman(withListed),
    locale,
  };
  const text = renderRefusedFileText(report);
  const html = renderRefusedFileHtml(report);
  // The machine's JSON lists every held line (what a script or a search reads in full), each
  // past the listed ones made as it is written: a million-line file can hold hundreds of thousands.
  // The issues past the kept ones come first, in place of the count that stood for them.
  const locate = input.locate;
  const moreJson = {
    *[Symbol.iterator]() {
      if (spilled) yield* spilled.chunks();
      for (const issue of listedHeld) yield jsonListEntry(issueJson(issue));
      for (let i = listed.length; i < holds.length; i++) yield jsonListEntry(issueJson(heldIssue(holds[i]!, locate)));
    },
  };
  const json = toJson(spilled ? { ...shown, issues: shown.issues.filter((i) => !isIssuesTruncated(i)) } : shown);
  return { text, html, json, ...(holds.length > 0 || spilled ? { moreJson } : {}) };
}

/** The count of the issues a result leaves out (IssueList's last entry). */
function isIssuesTruncated(issue: Issue): boolean {
  return issue.code === IssueCode.ISSUES_TRUNCATED;
}

function pointToJson(issue: Issue): Issue {
  return isIssuesTruncated(issue) ? { ...issue, message: `${issue.message}; the JSON report lists every one` } : issue;
}

/** The listing's last word on the held lines it leaves out: how many, and where they all are. */
function heldTruncated(count: number): Issue {
  return {
    code: IssueCode.ISSUES_TRUNCATED,
    severity: 'warning',
    location: {},
    message: `${count} more held line(s) are not listed here (limit ${MAX_HELD_LISTED}); the JSON report lists every one`,
  };
}

/**
 * A held line as a located warning of the file's report, with what a person does next: a
 * likely duplicate as LIKELY_DUPLICATE, a line held by a payment control as HELD_BY_CONTROLS
 * with its rules and evidence (docs/controls.md).
 */
function heldIssue(hold: ReceivedHeldPayment, locate: (line: number) => IssueLocation): Issue {
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
}
