// Feedback to the ERP (issue part 4): after runs that changed payment statuses, each company gets,
// per original file whose lines changed, a status report in its status folder — pain.002.001.03
// or .10 and/or CSV (company.status.formats) — written atomically.
// Exactly once per change: a report is a full snapshot of the file's lines, identified by a
// fingerprint of their states. The exports table records (format, file, fingerprint); a snapshot
// already recorded is not written again, and a new one gets a new name, so an ERP import never
// sees the same change twice and nothing is overwritten. The name's time is the last change of
// the file, not the run's, so a crash between writing and recording rewrites the SAME file
// (same name, same bytes) on the next run instead of adding a second one.
import { createHash } from 'node:crypto';
import type { CompanyConfig } from '../src/config/index.js';
import type { PaymentLineStatus, PaymentStatusLine, PaymentStatusReport } from '../src/domain/payment-status.js';
import { writePain002 } from '../src/formats/pain002/index.js';
import { writeStatusCsv } from '../src/formats/status-csv/index.js';
import type { StoredFile, StoredPayment } from '../src/store/index.js';
import { removeStaleParts } from './part-leftovers.js';
import type { PaymentJobDeps } from './payments/deps.js';

export interface WrittenStatusReport {
  company: string;
  fileId: string;
  originalFile: string;
  paths: string[];
  lines: number;
}

/** Files that finished longer ago than this are not looked at again. */
const RECENT_MS = 3 * 24 * 3600_000;

export async function runStatusReport(
  deps: Pick<PaymentJobDeps, 'store' | 'clock' | 'logger' | 'fileStore' | 'timeZone'>,
  companies: readonly CompanyConfig[],
): Promise<WrittenStatusReport[]> {
  const written: WrittenStatusReport[] = [];
  const since = new Date(deps.clock.now().getTime() - RECENT_MS);
  for (const company of companies) {
    // Status file names carry the last change's time: a write cut short under an older name is never replaced.
    await removeStaleParts(await deps.fileStore(company), company.folders.status, deps.clock, deps.logger);
    const open = new Set([
      ...(await deps.store.files.listFiles({ company: company.id, state: 'submitted' })).map((f) => f.id),
      ...(await deps.store.files.listFiles({ company: company.id, state: 'attention' })).map((f) => f.id),
      ...(await deps.store.payments.filesChangedSince(company.id, since)),
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
  deps: Pick<PaymentJobDeps, 'store' | 'clock' | 'logger' | 'fileStore'>,
  company: CompanyConfig,
  file: StoredFile,
): Promise<WrittenStatusReport | undefined> {
  const payments = await deps.store.payments.listByFile(file.id);
  // Lines not yet at the bank: report when the whole file has been sent (or refused).
  if (payments.length === 0 || payments.some((p) => p.state === 'accepted' || p.state === 'queued')) return undefined;
  const fingerprint = createHash('sha256')
    .update(payments.map((p) => `${p.id}:${p.state}:${JSON.stringify(p.tppMessages)}`).join('\n'))
    .digest('hex')
    .slice(0, 40);
  const formats = company.status.formats;
  const pending: string[] = [];
  for (const format of formats)
    if ((await deps.store.exports.find(exportFormat(format), file.id, fingerprint)).length === 0) pending.push(format);
  if (pending.length === 0) return undefined;

  const times = await deps.store.payments.changeTimes(file.id);
  const { explanations, bankIds } = await bulkFacts(deps, payments);
  const groups = new Map<string, PaymentStatusLine[]>();
  for (const p of payments) {
    // By the ERP's own PmtInf when the file had them (pain.001), else by the bulk it became.
    const group = p.paymentInformationId ?? p.bulkId ?? 'unplanned';
    const line = statusLine(
      p,
      times.get(p.id) ?? deps.clock.now(),
      p.bulkId ? explanations.get(p.bulkId) : undefined,
      p.bulkId ? bankIds.get(p.bulkId) : undefined,
    );
    (groups.get(group) ?? groups.set(group, []).get(group)!).push(line);
  }
  const lastChange = new Date(Math.max(...[...times.values()].map((t) => t.getTime())));
  const stamp = lastChange.toISOString().replace(/[-:]/g, '').replace('.', '');
  const report: PaymentStatusReport = {
    messageId: `STS-${fingerprint.slice(0, 20)}`,
    createdAt: lastChange,
    originalFileName: file.fileName,
    // The ERP's own pain.001 MsgId; a CSV file has none, so settle's file id (32 hex) stands in.
    originalMessageId: file.messageId ?? file.id.replace(/-/g, ''),
    originalMessageNameId: file.format.startsWith('pain.001') ? file.format : 'pain.001.001.03',
    originalCreatedAt: file.receivedAt,
    groups: [...groups].map(([id, lines]) => ({ originalPaymentInformationId: id.slice(0, 35), lines })),
  };
  const store = await deps.fileStore(company);
  await store.ensureDir(company.folders.status);
  const paths: string[] = [];
  for (const format of pending) {
    const path = `${company.folders.status}/${file.fileName}.${stamp}.${format === 'csv' ? 'status.csv' : `${format}.xml`}`;
    const bytes =
      format === 'csv'
        ? writeStatusCsv(report).bytes
        : writePain002(report, { version: format === 'pain.002.001.10' ? '001.10' : '001.03' }).xml;
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
  return { company: company.id, fileId: file.id, originalFile: file.fileName, paths, lines: payments.length };
}

function exportFormat(format: string): string {
  return format === 'csv' ? 'csv-status' : format;
}

/** Per bulk: the explanation of a refusal or open outcome, and the bank's payment id. */
async function bulkFacts(
  deps: Pick<PaymentJobDeps, 'store'>,
  payments: readonly StoredPayment[],
): Promise<{ explanations: Map<string, string>; bankIds: Map<string, string> }> {
  const out = new Map<string, string>();
  const bankIds = new Map<string, string>();
  for (const bulkId of new Set(payments.map((p) => p.bulkId).filter((id): id is string => id !== undefined))) {
    const bulk = await deps.store.bulks.get(bulkId);
    if (bulk?.bankPaymentId !== undefined) bankIds.set(bulkId, bulk.bankPaymentId);
    const problem = bulk?.lastProblem as { explanation?: unknown } | undefined;
    if (
      bulk &&
      (bulk.state === 'rejected' || bulk.state === 'unknown' || bulk.state === 'attention') &&
      typeof problem?.explanation === 'string'
    )
      out.set(bulkId, problem.explanation);
    else if (bulk?.state === 'attention')
      out.set(bulkId, 'Not found at the bank; a person decides whether to pay it again.');
  }
  return { explanations: out, bankIds };
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
  explanation: string | undefined,
  bankPaymentId: string | undefined,
): PaymentStatusLine {
  const codes = p.tppMessages.map((m) => m.code).filter((c): c is string => typeof c === 'string' && c !== '');
  const texts = p.tppMessages.map((m) => m.message).filter((t): t is string => typeof t === 'string' && t !== '');
  const reasonText = [explanation, ...texts].filter((t) => t !== undefined).join(' ');
  return {
    lineNumber: p.lineNumber,
    endToEndId: p.endToEndId,
    status: LINE_STATUS[p.state] ?? 'PDNG',
    ...(codes.length ? { reasonCodes: codes } : {}),
    ...(reasonText !== '' ? { reasonText } : {}),
    // The bulk's id: the line ids of the bank are not stored (the bulk read lists them).
    ...(bankPaymentId !== undefined ? { bankPaymentId } : {}),
    amount: p.amount,
    time,
  };
}
