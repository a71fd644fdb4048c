// Issues a writer reports: text it had to change, identifiers it could not write as such.
// Writers never change data silently; the caller decides whether a warning stops the export.
import type { Issue } from '../../domain/issue.js';
import type { TextChange } from './text.js';

export type IssueListener = (issue: Issue) => void;

/** Turns a text change into an issue located by XPath. */
export function textIssue(change: TextChange, path: string, field: string, maxLength: number): Issue {
  return change === 'truncated'
    ? {
        code: 'TEXT_TRUNCATED',
        severity: 'warning',
        location: { path },
        field,
        message: `text longer than ${maxLength} characters was cut to ${maxLength}`,
      }
    : {
        code: 'TEXT_SANITISED',
        severity: 'warning',
        location: { path },
        field,
        message: 'line breaks, tabs or characters XML 1.0 cannot carry were replaced',
      };
}

/**
 * Collects issues into an array unless the caller listens itself (a listener keeps memory flat
 * when a million entries all carry an over-long text).
 */
export function issueCollector(listener: IssueListener | undefined): { issues: Issue[]; report: IssueListener } {
  const issues: Issue[] = [];
  return { issues, report: listener ?? ((issue) => void issues.push(issue)) };
}

/** A mandatory text that is empty: written as NOTPROVIDED (the ISO 20022 convention) and reported as an error. */
export function requiredTextIssue(path: string, field: string): Issue {
  return {
    code: 'REQUIRED_TEXT_MISSING',
    severity: 'error',
    location: { path },
    field,
    message: `${field} is empty; written as NOTPROVIDED`,
  };
}
