// An error report about a file that was not accepted must not become a way to read that file:
// each value a message quotes is clipped, so a report shows what is wrong and where, never a
// whole line (which could be a password or a key that was dropped or linked into an inbox).
import type { Issue } from '../../domain/issue.js';

/** Longest quoted value an error report shows, in characters. */
export const MAX_QUOTED = 40;

const QUOTED = /"([^"]*)"/g;

/** The message with every "quoted value" longer than MAX_QUOTED characters clipped. */
export function clipQuoted(message: string): string {
  return message.replace(QUOTED, (whole, value: string) =>
    value.length > MAX_QUOTED ? `"${value.slice(0, MAX_QUOTED)}…"` : whole,
  );
}

export function clipIssues(issues: readonly Issue[]): Issue[] {
  return issues.map(clipIssue);
}

/** The issue with its value and each value its message quotes clipped. */
export function clipIssue({ value, ...issue }: Issue): Issue {
  return {
    ...issue,
    ...(value === undefined ? {} : { value: value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value }),
    message: clipQuoted(issue.message),
  };
}
