// What the rules of one line share: the line, the issues found so far, and how an issue is
// located and a field's text read. One small object per line, so the hot path allocates little.
import type { Issue, IssueLocation, Severity } from '../issue.js';
import type { IssueCode } from './codes.js';
import type { PaymentField, RawField, RawPaymentLine } from './raw-line.js';

export interface Ctx {
  line: RawPaymentLine;
  issues: Issue[];
}

function at(ctx: Ctx, field: PaymentField): IssueLocation {
  return ctx.line.fields[field]?.location ?? ctx.line.location;
}

/** An issue about a field of the line, located where the field is (or at the line), quoting its text. */
export function add(ctx: Ctx, code: IssueCode, severity: Severity, field: PaymentField, message: string): void {
  const value = ctx.line.fields[field]?.value;
  ctx.issues.push({
    code,
    severity,
    location: at(ctx, field),
    field,
    ...(value === undefined ? {} : { value }),
    message,
  });
}

/** A field's text without surrounding blanks; undefined when absent or blank. */
export function value(field: RawField | undefined): string | undefined {
  if (field === undefined) return undefined;
  const raw = field.value;
  // Most values start and end with a visible ASCII character, which is never white space:
  // then trim() (a call into the runtime) is not needed.
  const first = raw.charCodeAt(0);
  const last = raw.charCodeAt(raw.length - 1);
  if (first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f) return raw;
  const v = raw.trim();
  return v === '' ? undefined : v;
}
