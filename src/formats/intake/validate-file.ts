// The one entry point for payment intake: read a file (CSV by profile, or pain.001), validate
// every line in one streaming pass, and report the file's hash, totals and every issue. The
// payments themselves are handed to `onPayment` one by one and not kept, so memory does not
// grow with the file (apart from the set of end-to-end ids, see docs/validation.md).
import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import { ExitCode, SettleError } from '../../domain/errors.js';
import type { Issue } from '../../domain/issue.js';
import type { Money } from '../../domain/money.js';
import type { PaymentInstruction } from '../../domain/payment.js';
import { charsetRule } from '../../domain/validation/charset.js';
import { IssueCode } from '../../domain/validation/codes.js';
import type { LineFormat } from '../../domain/validation/line-rules.js';
import { PaymentValidator, type ValidationOptions } from '../../domain/validation/payment-validator.js';
import type { PaymentField, RawPaymentLine } from '../../domain/validation/raw-line.js';
import type { ReaderItem } from '../../domain/validation/reader-item.js';
import type { CsvProfile } from '../csv-profile/profile.js';
import { readCsv } from '../csv-profile/read-csv.js';
import { Pain001Reader, type Pain001Limits } from '../pain001/read-pain001.js';
import { ByteSource, readHead } from './byte-source.js';
import { detectFormat } from './detect-format.js';

export interface IntakeOptions {
  /** Profile for CSV files; a CSV file without one is a usage error. */
  profile?: CsvProfile;
  validation: ValidationOptions;
  /** Called with every valid payment, in file order (the pickup job stores them). */
  onPayment?: (payment: PaymentInstruction) => void | Promise<void>;
  /** Issues kept in the result (default 1,000); the rest are counted, not listed. */
  maxIssues?: number;
  xmlLimits?: Pain001Limits;
  /** Longest CSV record in characters (default 65,536). */
  maxCsvRecordSize?: number;
  /** The file's SHA-256 when the caller already has it (pickup hashes while downloading): not computed again. */
  sha256?: string;
}

export interface IntakeResult {
  file: string;
  /** "pain.001.001.09", "csv:generic", or "unknown". */
  format: string;
  /** pain.001 GrpHdr/MsgId (the ERP's message id); absent for CSV. */
  messageId?: string;
  sha256: string;
  /** Payment lines read (valid or not). */
  payments: number;
  validPayments: number;
  /** Sum per currency of every amount that could be read, in first-seen order. */
  totals: Money[];
  issues: Issue[];
  errors: number;
  warnings: number;
  valid: boolean;
}

export async function validateFile(file: string, options: IntakeOptions): Promise<IntakeResult> {
  const head = await readHead(file);
  const detected = detectFormat(head);
  const source = new ByteSource(file, options.sha256 === undefined);
  const issues: Issue[] = [];
  const maxIssues = options.maxIssues ?? 1000;
  let errors = 0;
  let warnings = 0;
  let omitted = 0;
  const report = (issue: Issue): void => {
    if (issue.severity === 'error') errors++;
    else warnings++;
    if (issues.length < maxIssues) issues.push(issue);
    else omitted++;
  };

  // Set when a chunk may hold undecodable bytes; only then are fields searched for U+FFFD.
  const encodingSuspect = { value: false };
  let format = 'unknown';
  let items: AsyncIterable<ReaderItem[]> | undefined;
  let lineFormat: LineFormat = { decimalFormat: { decimalSeparator: '.' }, dateFormat: 'YYYY-MM-DD' };
  let validation = options.validation;
  let xml: Pain001Reader | undefined;
  if (detected.kind === 'empty') {
    report({ code: IssueCode.FILE_EMPTY, severity: 'error', location: {}, message: 'the file is empty' });
  } else if (detected.kind === 'xml') {
    const encoding = detected.encoding ?? 'utf-8';
    if (!canDecode(encoding)) {
      report({
        code: IssueCode.ENCODING_INVALID,
        severity: 'error',
        location: { row: 1 },
        message: `the XML declaration names encoding "${encoding}", which settle cannot read`,
      });
    } else {
      xml = new Pain001Reader(options.xmlLimits);
      items = xml.read(watchText(source.text(encoding), encodingSuspect));
      format = 'pain.001';
    }
  } else {
    const profile = options.profile;
    if (!profile)
      throw new SettleError(
        'ERR_INTAKE_PROFILE_REQUIRED',
        `${file} is a CSV file: name a CSV profile (--profile) to read it`,
        { exitCode: ExitCode.usage },
      );
    format = `csv:${profile.name}`;
    const encoding = detected.encoding ?? profile.encoding;
    // csv-parse decodes UTF-8 itself (and drops its BOM); other encodings go through iconv-lite.
    const text =
      encoding === 'utf-8'
        ? watchUtf8(source.chunks(), encodingSuspect)
        : watchText(source.text(encoding), encodingSuspect);
    items = readCsv(text, profile, { maxRecordSize: options.maxCsvRecordSize ?? 65_536 });
    const decimalFormat = profile.thousandsSeparator
      ? { decimalSeparator: profile.decimalSeparator, thousandsSeparator: profile.thousandsSeparator }
      : { decimalSeparator: profile.decimalSeparator };
    lineFormat = { decimalFormat, dateFormat: profile.dateFormat };
    validation = { ...validation, charset: charsetRule(profile.charset.extra, profile.charset.base) };
  }

  const validator = new PaymentValidator(validation, lineFormat);
  const totals = new Map<string, bigint>();
  let payments = 0;
  let validPayments = 0;
  // pain.001 transactions inherit PmtInf fields: a bad debtor IBAN is reported once per block, not per line.
  let block: string | undefined;
  let reportedInBlock = new Set<string>();
  if (items) {
    for await (const batch of items) {
      for (const item of batch) {
        if (item.kind === 'issue') report(item.issue);
        else if (item.kind === 'control') validator.control(item.declaration).forEach(report);
        else {
          payments++;
          const encodingIssues = encodingSuspect.value
            ? checkEncoding(item.line, detected.encoding ?? (xml ? 'utf-8' : (options.profile?.encoding ?? 'utf-8')))
            : NONE;
          encodingIssues.forEach(report);
          const pending = validator.line(item.line);
          const result = pending instanceof Promise ? await pending : pending;
          if (encodingIssues.length > 0) delete result.payment;
          if (item.line.block !== block) {
            block = item.line.block;
            reportedInBlock = new Set();
          }
          const own = item.line.location.path;
          for (const issue of result.issues) {
            const inherited =
              own !== undefined && issue.location.path !== undefined && !issue.location.path.startsWith(own);
            const key = `${issue.code} ${issue.location.path}`;
            if (inherited && reportedInBlock.has(key)) continue;
            if (inherited) reportedInBlock.add(key);
            report(issue);
          }
          if (result.amount)
            totals.set(result.amount.currency, (totals.get(result.amount.currency) ?? 0n) + result.amount.minor);
          if (result.payment) {
            validPayments++;
            const stored = options.onPayment?.(result.payment);
            if (stored instanceof Promise) await stored;
          }
        }
      }
    }
    if (xml?.version) format = xml.version;
    if (payments === 0 && errors === 0)
      report({ code: IssueCode.FILE_EMPTY, severity: 'error', location: {}, message: 'the file holds no payments' });
  }
  if (omitted > 0) {
    issues.push({
      code: IssueCode.ISSUES_TRUNCATED,
      severity: 'warning',
      location: {},
      message: `${omitted} more issue(s) were found but not listed (limit ${maxIssues})`,
    });
  }
  if (options.sha256 !== undefined) await source.close();
  return {
    file,
    format,
    ...(xml?.messageId ? { messageId: xml.messageId } : {}),
    sha256: options.sha256 ?? (await source.sha256()),
    payments,
    validPayments,
    totals: [...totals].map(([currency, minor]) => ({ currency, minor })),
    issues,
    errors,
    warnings,
    valid: errors === 0,
  };
}

/** Passes UTF-8 chunks through; a chunk that is not valid UTF-8 on its own (bad bytes, or a character split at its end) sets the flag. */
async function* watchUtf8(chunks: AsyncIterable<Buffer>, suspect: { value: boolean }): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    if (!suspect.value && (!isUtf8(chunk) || chunk.includes(REPLACEMENT_UTF8))) suspect.value = true;
    yield chunk;
  }
}

async function* watchText(text: AsyncIterable<string>, suspect: { value: boolean }): AsyncGenerator<string> {
  for await (const chunk of text) {
    if (!suspect.value && chunk.includes('\uFFFD')) suspect.value = true;
    yield chunk;
  }
}

const REPLACEMENT_UTF8 = Buffer.from('\uFFFD', 'utf8');

// A plain boolean: iconv's type guard would narrow the name to `never` in the error branch.
function canDecode(encoding: string): boolean {
  return iconv.encodingExists(encoding);
}

/** A U+FFFD in a field means bytes that are not valid in the encoding used: a wrong profile, usually. */
function checkEncoding(line: RawPaymentLine, encoding: string): Issue[] {
  let issues: Issue[] | undefined;
  const fields = line.fields;
  for (const key in fields) {
    const raw = fields[key as PaymentField];
    if (raw && raw.value.includes('\uFFFD')) {
      (issues ??= []).push({
        code: IssueCode.ENCODING_INVALID,
        severity: 'error',
        location: raw.location,
        field: key,
        message: `"${raw.value}" holds bytes that are not valid ${encoding} (is the file in another encoding? choose a profile that matches)`,
      });
    }
  }
  return issues ?? NONE;
}

const NONE: Issue[] = [];
