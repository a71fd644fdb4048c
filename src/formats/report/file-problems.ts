// A file's issues as the accountant reads them: each problem at its row, under the file's own
// column header (from the CSV profile's mapping, not settle's field name), with the value and what
// to change in plain words; and, apart, the advice for the operator (a profile's settings), which
// the accountant cannot act on. A separator or decimal mark other than the profile's is named for
// the whole file, before the rows it breaks.
import type { Issue } from '../../domain/issue.js';
import { translate, type Locale } from '../../i18n/index.js';

/** What the report needs of the CSV profile the file was read with. */
export interface ProfileView {
  name: string;
  delimiter: string;
  decimalSeparator: string;
  /** Payment field → the header the file has for it. */
  columns: Readonly<Partial<Record<string, string>>>;
}

export interface Problem {
  /** "Row 3", "Payment PmtInf[1]/CdtTrfTxInf[2]" or "The whole file". */
  where: string;
  row?: number;
  /** The file's own column header (CSV) or element (pain.001); none for the whole file. */
  column?: string;
  value?: string;
  problem: string;
  fix: string;
}

export interface FileProblems {
  problems: Problem[];
  /** Settings advice for the operator, each once. */
  operator: string[];
}

/** A separator as the select of `refusedReport.separator` names it. */
const MARKS: Readonly<Record<string, string>> = {
  ';': 'semicolon',
  ',': 'comma',
  '\t': 'tab',
  '|': 'bar',
  '.': 'point',
};

export function separatorName(mark: string, locale: Locale): string {
  return translate(locale, 'refusedReport.separator', { mark: MARKS[mark] ?? mark });
}

const PAIN_TX = /^\/Document\/CstmrCdtTrfInitn\/(PmtInf\[\d+\](?:\/CdtTrfTxInf\[\d+\])?)(?:\/(.*))?$/;
const QUOTED = /"([^"]*)"/;
const DELIMITER_FOUND = /this file uses (?:a tab|[^()]*\((.)\)) between columns/;
const DECIMAL_SEEMS = /decimalSeparator: "(.)"/;
const PROFILE_SETTING = /set (.+?) in CSV profile "[^"]+"/;

function whereOf(issue: Issue, locale: Locale): Pick<Problem, 'where' | 'row'> & { path?: string } {
  const { row, path } = issue.location;
  if (path) {
    const m = PAIN_TX.exec(path);
    if (m)
      return {
        where: translate(locale, 'refusedReport.where', { kind: 'path', path: m[1]!, row: '' }),
        path: m[2] ?? '',
      };
  }
  if (row !== undefined)
    return { where: translate(locale, 'refusedReport.where', { kind: 'row', row, path: '' }), row };
  return { where: translate(locale, 'refusedReport.where', { kind: 'file', row: '', path: '' }) };
}

function columnOf(issue: Issue, profile: ProfileView | undefined, path: string | undefined, locale: Locale) {
  if (path) return path;
  if (!issue.field) return undefined;
  return profile?.columns[issue.field] ?? translate(locale, 'refusedReport.field', { field: issue.field });
}

/** The operator's part of a message: a profile setting to change. */
function operatorAdvice(issue: Issue, profile: ProfileView | undefined): string | undefined {
  const setting = PROFILE_SETTING.exec(issue.message);
  if (setting) return `${setting[0]} (${issue.code})`;
  const found = DELIMITER_FOUND.exec(issue.message);
  if (found && profile)
    return `the file uses ${JSON.stringify(found[1] ?? '\t')} between columns: a CSV profile with delimiter ${JSON.stringify(found[1] ?? '\t')} reads it (profile "${profile.name}" has ${JSON.stringify(profile.delimiter)})`;
  return undefined;
}

/** The accountant's problems (errors only: warnings change nothing they must do) and the operator's advice. */
export function fileProblems(issues: readonly Issue[], profile: ProfileView | undefined, locale: Locale): FileProblems {
  const problems: Problem[] = [];
  const operator = new Set<string>();
  const say = (key: 'refusedReport.problem' | 'refusedReport.fix', issue: Issue) =>
    translate(locale, key, { code: issue.code, message: issue.message });
  let decimalNamed = false;
  for (const issue of issues) {
    const advice = operatorAdvice(issue, profile);
    if (advice) operator.add(advice);
    if (issue.severity !== 'error') continue;
    const found = issue.code === 'CSV_COLUMNS_MISSING' ? DELIMITER_FOUND.exec(issue.message) : null;
    if (found && profile) {
      const names = {
        found: separatorName(found[1] ?? '\t', locale),
        expected: separatorName(profile.delimiter, locale),
        profile: profile.name,
      };
      problems.push({
        where: translate(locale, 'refusedReport.where', { kind: 'file', row: '', path: '' }),
        problem: translate(locale, 'refusedReport.delimiter', names),
        fix: translate(locale, 'refusedReport.delimiterFix', names),
      });
      continue;
    }
    const seems = issue.code === 'AMOUNT_SYNTAX' ? DECIMAL_SEEMS.exec(issue.message) : null;
    if (seems && profile && !decimalNamed && seems[1] !== profile.decimalSeparator) {
      decimalNamed = true;
      const names = {
        found: separatorName(seems[1]!, locale),
        expected: separatorName(profile.decimalSeparator, locale),
        profile: profile.name,
      };
      problems.unshift({
        where: translate(locale, 'refusedReport.where', { kind: 'file', row: '', path: '' }),
        problem: translate(locale, 'refusedReport.decimalMark', names),
        fix: translate(locale, 'refusedReport.decimalMarkFix', names),
      });
    }
    const { path, ...where } = whereOf(issue, locale);
    const column = columnOf(issue, profile, path, locale);
    const value = issue.value?.trim() ?? QUOTED.exec(issue.message)?.[1];
    problems.push({
      ...where,
      ...(column ? { column } : {}),
      ...(value !== undefined ? { value } : {}),
      problem: say('refusedReport.problem', issue),
      fix: say('refusedReport.fix', issue),
    });
  }
  return { problems, operator: [...operator] };
}

/** One problem as a line of the text report. */
export function problemLine(p: Problem, locale: Locale): string {
  return translate(locale, 'refusedReport.line', {
    where: p.where,
    column: p.column ?? 'none',
    value: p.value === undefined ? 'none' : p.value === '' ? translate(locale, 'refusedReport.noValue') : p.value,
    problem: p.problem,
    fix: p.fix,
  });
}
