// Feedback to the ERP: after runs that changed payment statuses, each company gets,
// per original file whose lines changed, a status report in its status folder — pain.002.001.03
// or .10 and/or CSV (company.status.formats) — written atomically.
// Exactly once per change: a report is a full snapshot of the file's lines, identified by a
// fingerprint of their states. The exports table records (format, file, fingerprint); a snapshot
// already recorded is not written again, and a new one gets a new name, so an ERP import never
// sees the same change twice and nothing is overwritten. The name's time is the last change of
// the file, not the run's, so a crash between writing and recording rewrites the SAME file
// (same name, same bytes) on the next run instead of adding a second one.
import { createHash } from 'node:crypto';
import { FALLBACK_LOCALE, recordedWords, type Locale } from '../../src/i18n/index.js';
import { recorded } from '../../src/domain/recorded-text.js';
import type { CompanyConfig } from '../../src/config/index.js';
import {
  messageForReturn,
  messageForTpp,
  messagesForRefusal,
  type BankProblem,
  type LineMessage,
} from '../../src/domain/line-message.js';
import type { PaymentLineStatus, PaymentStatusLine, PaymentStatusReport } from '../../src/domain/payment-status.js';
import { shortIdentifier } from '../../src/domain/iso-identifier.js';
import { writePain002 } from '../../src/formats/pain002/index.js';
import {
  renderRefusedLinesHtml,
  renderRefusedLinesText,
  reportFormats,
  type RefusedLine,
} from '../../src/formats/report/index.js';
import { writeStatusCsv } from '../../src/formats/status-csv/index.js';
import { formatAmount } from '../../src/domain/money.js';
import type { BookedReturn, StoredFile, StoredPayment } from '../../src/store/index.js';
import { removeStaleParts } from '../inbox/index.js';
import type { PaymentJobDeps } from '../payments/index.js';
import { writeFinalCamt029Answers } from './camt029-final.js';
import { addTo } from '../../src/domain/group.js';

export interface WrittenStatusReport {
  company: string;
  fileId: string;
  originalFile: string;
  paths: string[];
  lines: number;
  /** Lines the bank refused or whose outcome is open, with what the bank said and what to do. */
  refused: RefusedLine[];
  /** The accountant's report of those lines (text; an HTML twin beside it), in the reports folder. */
  humanReport?: string;
}

/** Files that finished longer ago than this are not looked at again. */
const RECENT_MS = 3 * 24 * 3600_000;

export async function runStatusReport(
  deps: Pick<PaymentJobDeps, 'store' | 'clock' | 'logger' | 'fileStore' | 'timeZone' | 'locale'>,
  companies: readonly CompanyConfig[],
): Promise<WrittenStatusReport[]> {
  const written: WrittenStatusReport[] = [];
  const since = new Date(deps.clock.now().getTime() - RECENT_MS);
  for (const company of companies) {
    // Status file names carry the last change's time: a write cut short under an older name is never replaced.
    const fileStore = await deps.fileStore(company);
    await removeStaleParts(fileStore, company.folders.status, deps.clock, deps.logger);
    // camt.055 requests first answered PDCR that have ended since: their final camt.029.
    await writeFinalCamt029Answers(deps, company, fileStore);
    const open = new Set([
      ...(await deps.store.files.listFiles({ company: company.id, state: 'submitted' })).map((f) => f.id),
      ...(await deps.store.files.listFiles({ company: company.id, state: 'attention' })).map((f) => f.id),
      ...(await deps.store.payments.filesChangedSince(company.id, since)),
      // A payment the bank booked back after it was accepted changes its file's report too.
      ...(await deps.store.statements.filesReturnedSince(company.id, since)),
    ]);
    for (const fileId of [...open].sort()) {
      const file = await deps.store.files.getFile(fileId);
      if (
        !file ||
        file.state === 'accepted' ||
        file.state === 'rejected' ||
        file.state === 'duplicate' ||
        file.state === 'received'
      )
        continue;
      const report = await reportFor(deps, company, file);
      if (report) written.push(report);
    }
  }
  return written;
}

async function reportFor(
  deps: Pick<PaymentJobDeps, 'store' | 'clock' | 'logger' | 'fileStore' | 'timeZone' | 'locale'>,
  company: CompanyConfig,
  file: StoredFile,
): Promise<WrittenStatusReport | undefined> {
  const payments = await deps.store.payments.listByFile(file.id);
  // Lines not yet at the bank: report when the whole file has been sent (or refused).
  if (payments.length === 0 || payments.some((p) => p.state === 'accepted' || p.state === 'queued')) return undefined;
  const returns = await deps.store.statements.bookedReturns(company.id, payments.filter(settled));
  const fingerprint = createHash('sha256')
    .update(
      payments
        .map(
          (p) =>
            `${p.id}:${p.state}:${JSON.stringify(p.tppMessages.map(asBefore))}${returnedMark(returns.get(p.endToEndId))}`,
        )
        .join('\n'),
    )
    .digest('hex')
    .slice(0, 40);
  const formats = company.status.formats;
  // The formats already written for these lines' states, in one read for all of them.
  const done = await deps.store.exports.formatsWith(formats.map(exportFormat), file.id, fingerprint);
  const pending = formats.filter((format) => !done.has(exportFormat(format)));
  if (pending.length === 0) return undefined;

  const times = await deps.store.payments.changeTimes(file.id);
  const { messages, bankIds } = await bulkFacts(deps, payments);
  for (const p of payments) {
    const returned = returns.get(p.endToEndId);
    if (returned === undefined) continue;
    messages.set(p.id, [messageForReturn(returned.returnReason!, returned.additionalInfo, p.lineNumber)]);
    times.set(p.id, returned.firstSeenAt);
  }
  const locale = company.locale ?? deps.locale ?? FALLBACK_LOCALE;
  const groups = new Map<string, PaymentStatusLine[]>();
  const refused: RefusedLine[] = [];
  // Stand-ins written for ids longer than their field (a CSV bulk's group id, a long bank id), stored to map back.
  const standIns = new Map<string, string>();
  for (const p of payments) {
    // By the ERP's own PmtInf when the file had them (pain.001), else by the bulk it became.
    const group = p.paymentInformationId ?? paymentInformationIdOf(p.bulkId ?? 'unplanned');
    if (p.paymentInformationId === undefined) standIns.set(group, p.bulkId ?? 'unplanned');
    let said = [...(messages.get(p.id) ?? []), ...p.tppMessages.map((m) => messageForTpp(m, p.lineNumber))];
    for (const m of said)
      deps.logger.warn('payment refused', {
        company: company.id,
        file: file.fileName,
        line: m.lineNumber ?? 'none named',
        code: m.code,
        field: m.field,
        reason: m.bankText,
        action: m.action,
      });
    // Logged in English above; the ERP's files and the accountant's report get settle's words in the company's language.
    said = said.map((m) => inLanguage(m, locale));
    const line = statusLine(p, times.get(p.id) ?? deps.clock.now(), said, p.bulkId ? bankIds.get(p.bulkId) : undefined);
    const returned = returns.get(p.endToEndId);
    if (returned !== undefined) {
      // Booked back after it was accepted: refused (RJCT) with the return's reason, marked as a return.
      line.status = 'RJCT';
      line.returned = {
        bookingDate: returned.bookingDate!,
        ...(returned.bankTransactionCode === undefined ? {} : { bankTransactionCode: returned.bankTransactionCode }),
      };
    }
    if (said.length > 0 && (line.status === 'RJCT' || messages.has(p.id)))
      refused.push({
        lineNumber: p.lineNumber,
        endToEndId: p.endToEndId,
        creditorName: p.creditorName,
        amount: formatAmount(p.amount),
        currency: p.amount.currency,
        status: line.status,
        messages: said,
      });
    (groups.get(group) ?? groups.set(group, []).get(group)!).push(line);
  }
  // A loop, not Math.max(...): a file of a million payments has more times than a call has arguments.
  let latest = -Infinity;
  for (const t of times.values()) latest = Math.max(latest, t.getTime());
  const lastChange = new Date(latest);
  const stamp = lastChange.toISOString().replace(/[-:]/g, '').replace('.', '');
  const report: PaymentStatusReport = {
    messageId: `STS-${fingerprint.slice(0, 20)}`,
    createdAt: lastChange,
    initiatingParty: { name: company.name, organisationNumber: company.organisationNumber },
    originalFileName: file.fileName,
    // The ERP's own pain.001 MsgId; a CSV file has none, so settle's file id (32 hex) stands in.
    originalMessageId: file.messageId ?? file.id.replace(/-/g, ''),
    originalMessageNameId: file.format.startsWith('pain.001') ? file.format : 'pain.001.001.03',
    originalCreatedAt: file.receivedAt,
    groups: [...groups].map(([id, lines]) => ({ originalPaymentInformationId: id, lines })),
  };
  const store = await deps.fileStore(company);
  await store.ensureDir(company.folders.status);
  const paths: string[] = [];
  for (const format of pending) {
    const path = `${company.folders.status}/${file.fileName}.${stamp}.${format === 'csv' ? 'status.csv' : `${format}.xml`}`;
    let bytes: Buffer | string;
    if (format === 'csv') bytes = writeStatusCsv(report).bytes;
    else {
      const out = writePain002(report, { version: format === 'pain.002.001.10' ? '001.10' : '001.03' });
      for (const pair of out.shortIdentifiers) standIns.set(pair.short, pair.full);
      bytes = out.xml;
    }
    await deps.store.shortIdentifiers.remember([...standIns].map(([short, full]) => ({ short, full })));
    await store.writeAtomic(path, bytes);
    await deps.store.exports.record({
      company: company.id,
      format: exportFormat(format),
      subjectId: file.id,
      period: fingerprint,
      fileName: path,
      entryCount: payments.length,
    });
    paths.push(path);
  }
  deps.logger.info('status report written', { company: company.id, fileId: file.id, paths });
  const written = { company: company.id, fileId: file.id, originalFile: file.fileName, paths, lines: payments.length };
  if (refused.length === 0) return { ...written, refused };
  refused.sort((a, b) => a.lineNumber - b.lineNumber);
  // Same name for the same snapshot: a crash before the exports were recorded rewrites it, never adds one.
  const base = `${company.folders.reports}/refused-${file.fileName}.${stamp}`;
  const human = {
    company: company.name,
    fileName: file.fileName,
    // As the company's language writes a time: "2026-01-08 04:00 GMT+1" in English, "08.01.2026, 04:00" in bokmål.
    asOf: reportFormats(locale).when(lastChange, company.timeZone ?? deps.timeZone, 'abbreviation'),
    lines: refused,
    locale,
  };
  await store.ensureDir(company.folders.reports);
  await store.writeAtomic(`${base}.html`, Buffer.from(renderRefusedLinesHtml(human)));
  await store.writeAtomic(`${base}.txt`, Buffer.from(renderRefusedLinesText(human)));
  return { ...written, refused, humanReport: `${base}.txt` };
}

/**
 * A stored message as it was before recorded text: the snapshot's fingerprint (and so the status
 * file's name and MsgId) does not change because a catalogue key was stored beside the words.
 */
function asBefore({ key: _key, values: _values, ...before }: StoredPayment['tppMessages'][number]) {
  return before;
}

/** `m` with settle's own words in `locale` (English stays as recorded); the bank's words as they came. */
function inLanguage(m: LineMessage, locale: Locale): LineMessage {
  if (m.words === undefined) return m;
  return { ...m, bankText: recordedWords(locale, { message: m.bankText, ...m.words }) ?? m.bankText };
}

/** Lines the bank may have paid (not refused or cancelled): only those can come back. */
function settled(p: StoredPayment): boolean {
  return p.state !== 'RJCT' && p.state !== 'CANC';
}

/** What a return adds to a line's fingerprint: nothing when there is none, so other reports keep theirs. */
function returnedMark(returned: BookedReturn | undefined): string {
  return returned === undefined ? '' : `:returned:${returned.id}`;
}

function exportFormat(format: string): string {
  return format === 'csv' ? 'csv-status' : format;
}

/**
 * A CSV file has no PmtInfId: each bulk it became gets the stand-in of the bulk's id, the same in
 * every report and in the status CSV, within the 35 characters of OrgnlPmtInfId.
 */
export function paymentInformationIdOf(bulkId: string): string {
  return shortIdentifier(bulkId);
}

/** Per line of a refused or open bulk: what the bank said about it; per bulk: the bank's payment id. */
async function bulkFacts(
  deps: Pick<PaymentJobDeps, 'store'>,
  payments: readonly StoredPayment[],
): Promise<{ messages: Map<string, LineMessage[]>; bankIds: Map<string, string> }> {
  const messages = new Map<string, LineMessage[]>();
  const bankIds = new Map<string, string>();
  // The file's lines by bulk, in the file's order: the bank's paymentLines[i] is a bulk's i-th line.
  // Grouped once, not filtered out of every line of the file for each of its bulks.
  const byBulk = new Map<string, StoredPayment[]>();
  for (const p of payments) if (p.bulkId !== undefined) addTo(byBulk, p.bulkId, p);
  for (const [bulkId, lines] of byBulk) {
    const bulk = await deps.store.bulks.get(bulkId);
    if (bulk?.bankPaymentId !== undefined) bankIds.set(bulkId, bulk.bankPaymentId);
    let said: Map<number, LineMessage[]> | undefined;
    if (bulk?.state === 'rejected')
      said = messagesForRefusal(
        bankProblem(bulk.lastProblem),
        lines.map((p) => p.lineNumber),
      );
    else if (bulk?.state === 'unknown' || bulk?.state === 'attention') {
      const bankText =
        bulk.state === 'attention' ? 'Not found at the bank' : 'No answer from the bank yet; the outcome is open';
      const words = recorded(bulk.state === 'attention' ? 'lineText.notFound' : 'lineText.noAnswer');
      const action =
        bulk.state === 'attention'
          ? 'A person decides whether to pay it again; do not send it again from the ERP.'
          : 'Wait: settle looks it up at the bank; do not send it again from the ERP.';
      said = new Map(
        lines.map((p) => [p.lineNumber, [{ code: 'NARR', bankText, words, lineNumber: p.lineNumber, action }]]),
      );
    }
    for (const p of lines) if (said?.has(p.lineNumber)) messages.set(p.id, said.get(p.lineNumber) ?? []);
  }
  return { messages, bankIds };
}

/** The bank's own words kept with a refused bulk (status, title, detail, field list). */
function bankProblem(stored: unknown): BankProblem {
  const o = (stored ?? {}) as Record<string, unknown>;
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const errors = Array.isArray(o.errors)
    ? o.errors.filter(
        (e): e is { field: string; message: string } =>
          typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string',
      )
    : [];
  const problem: BankProblem = { errors };
  if (typeof o.status === 'number') problem.status = o.status;
  const title = str(o.title);
  const detail = str(o.detail);
  if (title !== undefined) problem.title = title;
  if (detail !== undefined) problem.detail = detail;
  return problem;
}

const LINE_STATUS: Readonly<Record<string, PaymentLineStatus>> = {
  sent: 'RCVD',
  unknown: 'PDNG',
  RCVD: 'RCVD',
  PDNG: 'PDNG',
  PATC: 'PDNG',
  ACTC: 'ACTC',
  ACCP: 'ACCP',
  ACFC: 'ACCP',
  ACWP: 'ACSP',
  PART: 'ACSP',
  ACSP: 'ACSP',
  ACWC: 'ACWC',
  ACSC: 'ACSC',
  ACCC: 'ACSC',
  RJCT: 'RJCT',
  CANC: 'CANC',
};

function statusLine(
  p: StoredPayment,
  time: Date,
  messages: readonly LineMessage[],
  bankPaymentId: string | undefined,
): PaymentStatusLine {
  // The ERP's files get the codes and the bank's words; the actions go to the log and human reports.
  const codes = [...new Set(messages.map((m) => m.code))];
  // A hold's codes after the first carry no words of their own (the first holds them all).
  const reasonText = messages
    .map((m) => m.bankText)
    .filter((t) => t !== '')
    .join('; ');
  return {
    lineNumber: p.lineNumber,
    endToEndId: p.endToEndId,
    // The ERP's InstrId, quoted back as OrgnlInstrId (ERPs look payments up by it).
    ...(p.instructionId === undefined ? {} : { originalInstructionId: p.instructionId }),
    status: LINE_STATUS[p.state] ?? 'PDNG',
    ...(codes.length ? { reasonCodes: codes } : {}),
    ...(reasonText !== '' ? { reasonText } : {}),
    // The bulk's id: the line ids of the bank are not stored (the bulk read lists them).
    ...(bankPaymentId !== undefined ? { bankPaymentId } : {}),
    amount: p.amount,
    time,
  };
}
