// The issues of one file: kept up to a limit (the rest counted), errors and warnings counted.
import type { Issue } from '../../domain/issue.js';
import { IssueCode, WHOLE_FILE_CODES } from '../../domain/validation/codes.js';

export class IssueList {
  errors = 0;
  warnings = 0;
  /** Errors about the whole file (WHOLE_FILE_CODES), counted even when not kept in the list. */
  wholeFileErrors = 0;
  private readonly kept: Issue[] = [];
  private omitted = 0;

  constructor(private readonly max: number) {}

  add(issue: Issue): void {
    if (issue.severity === 'error') {
      this.errors++;
      if (WHOLE_FILE_CODES.has(issue.code as IssueCode)) this.wholeFileErrors++;
    } else this.warnings++;
    if (this.kept.length < this.max) this.kept.push(issue);
    else this.omitted++;
  }

  /** An issue that explains the others, listed first (it may push the last kept one out). */
  addFirst(issue: Issue): void {
    // Counted like any other; the kept list loses its last entry instead (that one is counted as omitted when the list was full).
    this.add(issue);
    this.kept.pop();
    this.kept.unshift(issue);
  }

  list(): Issue[] {
    if (this.omitted === 0) return this.kept;
    return [
      ...this.kept,
      {
        code: IssueCode.ISSUES_TRUNCATED,
        severity: 'warning',
        location: {},
        message: `${this.omitted} more issue(s) were found but not listed (limit ${this.max})`,
      },
    ];
  }
}
