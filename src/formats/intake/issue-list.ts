// The issues of one file: kept up to a limit (the rest counted, and handed to `overflow` when the
// caller keeps them elsewhere: pickup's complete JSON of a refused file), errors and warnings counted.
import type { Issue } from '../../domain/issue.js';
import { IssueCode, WHOLE_FILE_CODES } from '../../domain/validation/codes.js';

export class IssueList {
  errors = 0;
  warnings = 0;
  /** Errors about the whole file (WHOLE_FILE_CODES), counted even when not kept in the list. */
  wholeFileErrors = 0;
  private readonly kept: Issue[] = [];
  private omitted = 0;

  constructor(
    private readonly max: number,
    private readonly overflow?: (issue: Issue) => void,
  ) {}

  add(issue: Issue): void {
    this.count(issue);
    if (this.kept.length < this.max) this.kept.push(issue);
    else this.omit(issue);
  }

  /** An issue that explains the others, listed first (it may push the last kept one out). */
  addFirst(issue: Issue): void {
    this.count(issue);
    this.kept.unshift(issue);
    if (this.kept.length > this.max) this.omit(this.kept.pop()!);
  }

  private count(issue: Issue): void {
    if (issue.severity === 'error') {
      this.errors++;
      if (WHOLE_FILE_CODES.has(issue.code as IssueCode)) this.wholeFileErrors++;
    } else this.warnings++;
  }

  private omit(issue: Issue): void {
    this.omitted++;
    this.overflow?.(issue);
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

/**
 * The errors a result counts but does not keep (those past its first issues; IssueList counts
 * every one): the problems an accountant's report counts without describing them.
 */
export function errorsNotKept(result: { errors: number; issues: readonly Issue[] }): number {
  let kept = 0;
  for (const issue of result.issues) if (issue.severity === 'error') kept++;
  return result.errors - kept;
}
