// What a wrong encoding did to a file, in the user's words: which encoding the file seems to be
// in, a word as read and as meant, and the setting to change (the CSV profile's encoding, or the
// XML declaration). Per field, so the rows are named; once per file, so the fix is said once.
import type { Issue } from '../../domain/issue.js';
import { IssueCode } from '../../domain/validation/codes.js';
import type { PaymentField, RawPaymentLine } from '../../domain/validation/raw-line.js';
import { encodingName, looksLikeUtf8ReadAs, type EncodingSign } from './encoding-sniff.js';

export interface EncodingContext {
  /** The encoding the file was read with. */
  encoding: string;
  /** The CSV profile that chose it; undefined for XML (the declaration chose it) or a byte order mark. */
  profile?: string;
}

export function encodingAdvice(sign: EncodingSign, ctx: EncodingContext): string {
  if (sign.seems === undefined)
    return 'the file holds U+FFFD replacement characters: characters were lost before settle read it; export the file again';
  if (ctx.profile === undefined)
    return `save the file in the encoding its XML declaration names (${ctx.encoding}), or correct the declaration`;
  return `set encoding: ${sign.seems} in CSV profile "${ctx.profile}" (or use a profile for that encoding), or export the file from the ERP as ${encodingName(ctx.encoding)}`;
}

/** The file-level issue: the encoding the file seems to be in, with an example. */
export function fileEncodingIssue(sign: EncodingSign, ctx: EncodingContext): Issue | undefined {
  if (sign.seems === undefined) return undefined;
  const example =
    sign.asRead !== undefined && sign.asMeant !== undefined && sign.asRead !== sign.asMeant
      ? `: "${sign.asMeant}" reads as "${sign.asRead}"`
      : '';
  return {
    code: IssueCode.ENCODING_MISMATCH,
    severity: 'error',
    location: sign.row !== undefined && ctx.profile !== undefined ? { row: sign.row } : {},
    message: `the file seems to be in ${encodingName(sign.seems)}, but it is read as ${encodingName(ctx.encoding)}${example}; ${encodingAdvice(sign, ctx)}`,
  };
}

/** Fields of a line that the wrong encoding damaged: undecodable bytes (U+FFFD), or UTF-8 read as a single-byte encoding. */
export function lineEncodingIssues(
  line: RawPaymentLine,
  sign: EncodingSign | undefined,
  ctx: EncodingContext,
): Issue[] {
  let issues: Issue[] | undefined;
  const fields = line.fields;
  for (const key in fields) {
    const raw = fields[key as PaymentField];
    if (!raw) continue;
    let issue: Pick<Issue, 'code' | 'message'> | undefined;
    if (raw.value.includes('\uFFFD')) {
      const advice = sign ? `; ${encodingAdvice(sign, ctx)}` : '';
      issue = {
        code: IssueCode.ENCODING_INVALID,
        message: `"${raw.value}" holds bytes that are not valid ${encodingName(ctx.encoding)}${advice}`,
      };
    } else if (sign?.seems === 'utf-8') {
      const meant = looksLikeUtf8ReadAs(raw.value, ctx.encoding);
      if (meant !== undefined && meant !== raw.value)
        issue = {
          code: IssueCode.ENCODING_MISMATCH,
          message: `"${raw.value}" is UTF-8 text read as ${encodingName(ctx.encoding)} (as UTF-8 it reads "${meant}"); ${encodingAdvice(sign, ctx)}`,
        };
    }
    if (issue) (issues ??= []).push({ ...issue, severity: 'error', location: raw.location, field: key });
  }
  return issues ?? NONE;
}

const NONE: Issue[] = [];
