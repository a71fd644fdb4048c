// `settle validate` lists every issue of a file, as pickup's NAME.errors.json does: the issues past
// the 1,000 a result keeps wait in a work file in the system's temporary folder, already in the
// form the output lists them in (a JSON entry, or the human listing's lines), and are copied to
// the output after the kept ones. A million-line file can have a million issues; memory holds a
// chunk of them at a time.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Issue } from '../../domain/issue.js';
import { IssueCode } from '../../domain/validation/codes.js';
import type { CsvProfile } from '../../formats/csv-profile/profile.js';
import { jsonListEntry, jsonWithMore } from '../../formats/intake/json-with-more.js';
import { issueJson, listingAfter, toJson } from '../../formats/intake/render-result.js';
import { SpilledIssues } from '../../formats/intake/spilled-issues.js';
import type { IntakeResult } from '../../formats/intake/validate-file.js';
import type { FileOutcome } from '../../formats/report/index.js';
import type { Locale } from '../../i18n/index.js';
import { validateHuman } from './validate-human.js';

/** Where the output goes; a promise when the output wants the writer to wait (a full pipe). */
export type Out = (text: string) => void | Promise<void>;

/**
 * A stream (the process's standard output) as an Out: a full pipe is waited for, as every issue
 * of a big file is megabytes of text; a reader that has gone (`settle validate big.csv | head`)
 * ends the output quietly, not the command, whose exit code stays the file's.
 */
export function streamOut(stream: NodeJS.WritableStream): Out {
  let gone = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    gone = true;
  });
  return async (text) => {
    if (gone || stream.write(text)) return;
    try {
      await once(stream, 'drain');
    } catch (error) {
      if (!gone) throw error;
    }
  };
}

/** The work file of the issues past the kept ones, each in the form the output will list it in. */
export function issuesWorkFile(json: boolean): SpilledIssues {
  const path = join(tmpdir(), `settle-validate-${randomUUID()}.issues`);
  return new SpilledIssues(path, json ? (issue) => jsonListEntry(issueJson(issue)) : listingAfter());
}

export async function printValidation(
  out: Out,
  input: {
    json: boolean;
    result: IntakeResult;
    spilled: SpilledIssues;
    outcome: FileOutcome;
    profile: CsvProfile | undefined;
    locale: Locale;
  },
): Promise<void> {
  const { result, spilled } = input;
  const more = spilled.count;
  const kept = result.issues.length - (more > 0 ? 1 : 0);
  if (input.json) {
    // Every issue in place of the count that stood for those past the kept ones.
    const issues = more > 0 ? result.issues.filter((i) => !isTruncated(i)) : result.issues;
    await copy(out, jsonWithMore(toJson({ ...result, issues }), 'issues', spilled.chunks()));
    return;
  }
  // The summary (the verdict, the errors and warnings of every issue) first, as always; the
  // count at the top of the listing says where the issues past the kept ones are.
  const shown =
    more > 0
      ? { ...result, issues: result.issues.map((i) => (isTruncated(i) ? listedAtEnd(i, more, kept) : i)) }
      : result;
  await out(
    await validateHuman({ result: shown, outcome: input.outcome, profile: input.profile, locale: input.locale }),
  );
  if (more === 0) return;
  await out(`\n${more} more issue(s), past the first ${kept}, in the order found:\n`);
  await copy(out, spilled.chunks());
}

function isTruncated(issue: Issue): boolean {
  return issue.code === IssueCode.ISSUES_TRUNCATED;
}

function listedAtEnd(issue: Issue, more: number, kept: number): Issue {
  return { ...issue, message: `${more} more issue(s) were found past the first ${kept}: they are listed at the end` };
}

/** UTF-8 chunks, cut anywhere, to the output as text, each written before the next is read. */
async function copy(out: Out, chunks: Iterable<Buffer>): Promise<void> {
  const decoder = new StringDecoder('utf8');
  for (const chunk of chunks) {
    const text = decoder.write(chunk);
    if (text !== '') await out(text);
  }
  const rest = decoder.end();
  if (rest !== '') await out(rest);
}
