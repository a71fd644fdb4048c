// `settle validate`'s human output for a company whose language is not English: the accountant's
// report pickup would write for the file (src/formats/report/refused-file.tsx) — first what pickup
// would do with it, then each problem at its row under the file's own column header (the first
// 1,000 issues' problems, then how many more there are and that they follow the listing) — and
// last the technical listing for the operator. English keeps the technical listing alone, as scripts and
// runbooks read it (docs/validation.md).
import type { CsvProfile } from '../../formats/csv-profile/profile.js';
import { clipIssues } from '../../formats/intake/clip-issues.js';
import { errorsNotKept } from '../../formats/intake/issue-list.js';
import { toHuman } from '../../formats/intake/render-result.js';
import type { IntakeResult } from '../../formats/intake/validate-file.js';
import type { FileOutcome } from '../../formats/report/index.js';
import { FALLBACK_LOCALE } from '../../i18n/fallback-locale.js';
import type { Locale } from '../../i18n/index.js';

/** What pickup would do with the file: the same rule as jobs/pickup (acceptValidLines, whole-file errors). */
export function wouldBe(result: IntakeResult, valid: number, acceptValidLines: boolean): FileOutcome {
  const partial = !result.valid && acceptValidLines && valid > 0 && result.wholeFileErrors === 0;
  const kind = result.valid ? 'accepted' : partial ? 'partially-accepted' : 'rejected';
  return { kind, payments: result.payments, accepted: kind === 'rejected' ? 0 : valid, held: 0 };
}

export async function validateHuman(input: {
  result: IntakeResult;
  outcome: FileOutcome;
  profile: CsvProfile | undefined;
  locale: Locale;
}): Promise<string> {
  const { result, profile, locale } = input;
  if (locale === FALLBACK_LOCALE) return toHuman(result);
  // Imported here, not at the top: the report writers bring hono, csv-stringify and negotiator
  // (about 40 modules), which an English run never uses (docs/decisions/0020).
  const { renderRefusedFileText } = await import('../../formats/report/index.js');
  // The problems past the issues the result keeps are counted here, and listed after the
  // technical listing (validate-output.ts).
  const notDescribed = errorsNotKept(result);
  return renderRefusedFileText({
    fileName: result.file,
    outcome: input.outcome,
    issues: clipIssues(result.issues),
    held: [],
    ...(notDescribed > 0 ? { problemsNotDescribed: { count: notDescribed, listedIn: 'listing' as const } } : {}),
    ...(profile && result.format.startsWith('csv')
      ? {
          profile: {
            name: profile.name,
            delimiter: profile.delimiter,
            decimalSeparator: profile.decimalSeparator,
            columns: profile.columns,
          },
        }
      : {}),
    listing: toHuman(result),
    locale,
  });
}
