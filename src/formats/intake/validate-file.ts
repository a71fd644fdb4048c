// The one entry point for payment intake: read a file (CSV by profile, or pain.001), validate
// every line in one streaming pass, and report the file's hash, totals and every issue. The
// payments themselves are handed to `onPayment` one by one and not kept, so memory does not
// grow with the file (apart from the set of end-to-end ids, see docs/validation.md).
import { stat } from 'node:fs/promises';
import { iconvLite } from './iconv.js';
import { SettleError } from '../../domain/errors.js';
import type { Issue } from '../../domain/issue.js';
import type { Money } from '../../domain/money.js';
import type { PaymentInstruction } from '../../domain/payment.js';
import { charsetRule } from '../../domain/validation/charset.js';
import { IssueCode } from '../../domain/validation/codes.js';
import type { LineFormat } from '../../domain/validation/line-rules.js';
import { PaymentValidator, type ValidationOptions } from '../../domain/validation/payment-validator.js';
import type { ReaderItem } from '../../domain/validation/reader-item.js';
import type { CsvProfile } from '../csv-profile/profile.js';
import { DEFAULT_MAX_FILE_BYTES, fileTooLargeMessage } from '../../domain/validation/file-size.js';
import type { Pain001Reader, Pain001Limits } from '../pain001/read-pain001.js';
import { ByteSource, decodeChunks, readHead } from './byte-source.js';
import { detectFormat, type Detected } from './detect-format.js';
import { fileEncodingIssue, lineEncodingIssues, type EncodingContext } from './encoding-issues.js';
import { EncodingSniffer } from './encoding-sniff.js';
import { IntakeTally } from './intake-tally.js';
import { IssueList } from './issue-list.js';
import type { LinePlaces } from './line-places.js';

export interface IntakeOptions {
  /** Profile for CSV files; a CSV file without one is a usage error. */
  profile?: CsvProfile;
  validation: ValidationOptions;
  /** Called with every valid payment, in file order (the pickup job stores them). */
  onPayment?: (payment: PaymentInstruction) => void | Promise<void>;
  /** Issues kept in the result (default 1,000); the rest are counted, not listed. */
  maxIssues?: number;
  /**
   * Told every issue beyond maxIssues, in the order found (the file's encoding issue, listed
   * first once the file is read, pushes the last kept one here at the end), for a caller that
   * keeps them elsewhere: pickup's complete JSON of a file.
   */
  moreIssues?: (issue: Issue) => void;
  xmlLimits?: Pain001Limits;
  /** Largest file in bytes (intake.maxFileSize; default 1 GiB): a larger one is refused unread. */
  maxFileBytes?: number;
  /** Longest CSV record in characters (default 65,536). */
  maxCsvRecordSize?: number;
  /**
   * The end-to-end ids among `ids` already used by accepted payments (the pickup job asks the
   * ledger): asked once for each batch of lines the reader hands out, not once per line, and
   * used instead of `validation.alreadyAccepted`.
   */
  knownEndToEndIds?: (ids: readonly string[]) => Promise<ReadonlySet<string>>;
  /** The file's SHA-256 when the caller already has it (pickup hashes while downloading): not computed again. */
  sha256?: string;
  /** Told where each payment block starts, so a line can be located after the file (pickup's held lines). */
  places?: LinePlaces;
}

export interface IntakeResult {
  file: string;
  /** "pain.001.001.09", "csv:generic", or "unknown". */
  format: string;
  /** pain.001 GrpHdr/MsgId (the ERP's message id); absent for CSV. */
  messageId?: string;
  sha256: string;
  /** Payments read (valid or not). */
  payments: number;
  validPayments: number;
  /** Sum per currency of every amount that could be read, in first-seen order. */
  totals: Money[];
  issues: Issue[];
  errors: number;
  /** Of `errors`, those about the whole file (a control total): no line of it may be kept. */
  wholeFileErrors: number;
  warnings: number;
  valid: boolean;
}

export async function validateFile(file: string, options: IntakeOptions): Promise<IntakeResult> {
  const head = await readHead(file);
  const detected = detectFormat(head);
  const source = new ByteSource(file, options.sha256 === undefined);
  const issues = new IssueList(options.maxIssues ?? 1000, options.moreIssues);
  const report = (issue: Issue): void => issues.add(issue);

  const fileBytes = (await stat(file)).size;
  const opened = await openReader(file, detected, source, options, tooLarge(fileBytes, options.maxFileBytes));
  opened.refused?.forEach(report);
  const { items, xml, sniffer, encoding } = opened;
  let format = opened.format;
  // With a batch look-up of used end-to-end ids, each reader batch's ids are asked at once.
  let known: ReadonlySet<string> = NO_IDS;
  const lookup = options.knownEndToEndIds;
  const validation = lookup
    ? { ...opened.validation, alreadyAccepted: (e2e: string) => known.has(e2e) }
    : opened.validation;
  const validator = new PaymentValidator(validation, opened.lineFormat);
  const tally = new IntakeTally(validator, {
    report,
    encodingIssues: (line) =>
      sniffer?.sign || opened.textSuspect.value ? lineEncodingIssues(line, sniffer?.sign, encoding) : NONE,
    ...(options.onPayment ? { onPayment: options.onPayment } : {}),
    ...(options.places ? { places: options.places } : {}),
  });
  let estimated = false;
  if (items) {
    for await (const batch of items) {
      if (lookup) known = await lookup(endToEndIds(batch));
      const waiting = tally.take(batch);
      if (waiting) await waiting;
      // Once a few MiB are read, the file's payments are estimated from them (the lines so far
      // scaled by the file's size), so the end-to-end id set sizes its table once and early.
      if (!estimated && source.bytesRead >= ESTIMATE_AFTER_BYTES) {
        estimated = true;
        validator.expectLines(Math.ceil((tally.payments * fileBytes) / source.bytesRead));
      }
    }
    if (xml?.version) format = xml.version;
    // The encoding the file seems to be in, said once and first: it explains the other issues.
    const fileLevel = sniffer?.sign ? fileEncodingIssue(sniffer.sign, encoding) : undefined;
    if (fileLevel) issues.addFirst(fileLevel);
    if (tally.payments === 0 && issues.errors === 0)
      report({ code: IssueCode.FILE_EMPTY, severity: 'error', location: {}, message: 'the file holds no payments' });
  }
  if (options.sha256 !== undefined) await source.close();
  return {
    file,
    format,
    ...(xml?.messageId ? { messageId: xml.messageId } : {}),
    sha256: options.sha256 ?? (await source.sha256()),
    payments: tally.payments,
    validPayments: tally.validPayments,
    totals: [...tally.totals].map(([currency, minor]) => ({ currency, minor })),
    issues: issues.list(),
    errors: issues.errors,
    wholeFileErrors: issues.wholeFileErrors,
    warnings: issues.warnings,
    valid: issues.errors === 0,
  };
}

interface OpenedReader {
  format: string;
  items?: AsyncIterable<ReaderItem[]>;
  xml?: Pain001Reader;
  sniffer?: EncodingSniffer;
  encoding: EncodingContext;
  /** Set when decoded text contained U+FFFD (an encoding the sniffer does not watch, e.g. UTF-16). */
  textSuspect: { value: boolean };
  lineFormat: LineFormat;
  validation: ValidationOptions;
  /** Issues that stop the file before any reading. */
  refused?: Issue[];
}

/**
 * The reader for the detected format, reading the file's bytes through the encoding sniffer.
 * Each reader is loaded only when its format is read: a CSV intake does not pay for the XML
 * parser at start-up, nor a pain.001 intake for csv-parse (docs/performance.md, start-up).
 */
async function openReader(
  file: string,
  detected: Detected,
  source: ByteSource,
  options: IntakeOptions,
  refused: Issue | undefined,
): Promise<OpenedReader> {
  const textSuspect = { value: false };
  const base = {
    format: 'unknown',
    textSuspect,
    lineFormat: PAIN001_FORMAT,
    validation: options.validation,
    encoding: { encoding: 'utf-8' },
  };
  if (refused) return { ...base, refused: [refused] };
  if (detected.kind === 'empty')
    return {
      ...base,
      refused: [{ code: IssueCode.FILE_EMPTY, severity: 'error', location: {}, message: 'the file is empty' }],
    };
  if (detected.kind === 'xml') {
    const encoding = detected.encoding ?? 'utf-8';
    if (!canDecode(encoding))
      return {
        ...base,
        refused: [
          {
            code: IssueCode.ENCODING_INVALID,
            severity: 'error',
            location: { row: 1 },
            message: `the XML declaration names encoding "${encoding}", which settle cannot read`,
          },
        ],
      };
    const { Pain001Reader } = await import('../pain001/read-pain001.js');
    const sniffer = new EncodingSniffer(encoding);
    const xml = new Pain001Reader({
      maxChars: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
      ...options.xmlLimits,
    });
    const text = watchText(decodeChunks(sniffer.watch(source.chunks()), encoding), textSuspect);
    return { ...base, format: 'pain.001', items: xml.read(text), xml, sniffer, encoding: { encoding } };
  }
  const profile = options.profile;
  if (!profile)
    throw new SettleError(
      'ERR_INTAKE_PROFILE_REQUIRED',
      `${file} is a CSV file: name a CSV profile (--profile) to read it`,
    );
  const { readCsv } = await import('../csv-profile/read-csv.js');
  const encoding = detected.encoding ?? profile.encoding;
  const sniffer = new EncodingSniffer(encoding);
  const bytes = sniffer.watch(source.chunks());
  // csv-parse decodes UTF-8 itself (and drops its BOM); other encodings go through iconv-lite.
  const text = encoding === 'utf-8' ? bytes : watchText(decodeChunks(bytes, encoding), textSuspect);
  const decimalFormat = profile.thousandsSeparator
    ? { decimalSeparator: profile.decimalSeparator, thousandsSeparator: profile.thousandsSeparator }
    : { decimalSeparator: profile.decimalSeparator };
  return {
    ...base,
    format: `csv:${profile.name}`,
    items: readCsv(text, profile, { maxRecordSize: options.maxCsvRecordSize ?? 65_536 }),
    sniffer,
    // A byte order mark chose the encoding, not the profile: then no profile setting is to blame.
    encoding: detected.encoding ? { encoding } : { encoding, profile: profile.name },
    lineFormat: { decimalFormat, dateFormat: profile.dateFormat, profile: profile.name },
    validation: { ...options.validation, charset: charsetRule(profile.charset.extra, profile.charset.base) },
  };
}

const PAIN001_FORMAT: LineFormat = { decimalFormat: { decimalSeparator: '.' }, dateFormat: 'YYYY-MM-DD' };

/** Bytes read before the file's payments are estimated (validator.expectLines). */
const ESTIMATE_AFTER_BYTES = 4 * 1024 * 1024;

/** A file over the configured size is refused before it is read, with the limit and the setting. */
function tooLarge(bytes: number, maxBytes: number | undefined): Issue | undefined {
  const limit = maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (bytes <= limit) return undefined;
  return {
    code: IssueCode.FILE_TOO_LARGE,
    severity: 'error',
    location: {},
    message: fileTooLargeMessage(bytes, limit, 'payments'),
  };
}

async function* watchText(text: AsyncIterable<string>, suspect: { value: boolean }): AsyncGenerator<string> {
  for await (const chunk of text) {
    if (!suspect.value && chunk.includes('\uFFFD')) suspect.value = true;
    yield chunk;
  }
}

// A plain boolean: iconv's type guard would narrow the name to `never` in the error branch.
function canDecode(encoding: string): boolean {
  return iconvLite().encodingExists(encoding);
}

const NONE: Issue[] = [];
const NO_IDS: ReadonlySet<string> = new Set();

/** The end-to-end ids of a reader batch's payments, as the validator checks them (trimmed). */
function endToEndIds(batch: readonly ReaderItem[]): string[] {
  const ids: string[] = [];
  for (const item of batch) {
    if (item.kind !== 'line') continue;
    const id = item.line.fields.endToEndId?.value.trim();
    if (id) ids.push(id);
  }
  return ids;
}
