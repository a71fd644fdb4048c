// Where a picked-up file and its reports go: the original to archive/DAY/ or error/ under a free
// name, the report beside it (text, HTML, JSON, written atomically) and recorded in the ledger.
import { posix } from 'node:path';
import type { CompanyConfig } from '../../src/config/index.js';
import { dateInZone } from '../../src/domain/local-date.js';
import { jsonWithMore } from '../../src/formats/intake/index.js';
import { FALLBACK_LOCALE, type Locale } from '../../src/i18n/index.js';
import type { FileStore } from '../../src/transport/index.js';
import { freeName } from '../inbox/index.js';
import type { FileReport } from './report.js';
import type { CompanyInbox, PickupDeps } from './pickup-types.js';

/** The original into archive/DAY/ under a free name; returns where it went. */
export async function moveToArchive(at: CompanyInbox, name: string, now: Date): Promise<string> {
  const { deps, fileStore, company } = at;
  const dir = posix.join(company.folders.archive, dateInZone(now, deps.timeZone));
  await fileStore.ensureDir(dir);
  const movedTo = posix.join(dir, await freeName(fileStore, dir, name, now));
  await fileStore.move(posix.join(company.folders.inbox, name), movedTo);
  return movedTo;
}

export async function moveToError(
  at: CompanyInbox,
  name: string,
  report: { text: string; json: unknown },
): Promise<{ movedTo: string; report: string }> {
  const { deps, fileStore, company } = at;
  const errorName = await freeName(fileStore, company.folders.error, name, deps.clock.now());
  const reportPath = await writeReport(fileStore, company.folders.error, errorName, report);
  const movedTo = posix.join(company.folders.error, errorName);
  await fileStore.move(posix.join(company.folders.inbox, name), movedTo);
  return { movedTo, report: reportPath };
}

/**
 * The report of a file in the ledger, text and HTML, recorded after the ledger row it names (a
 * crash in between leaves the report in the error folder, only not linked from the console).
 */
export async function recordReport(at: CompanyInbox, fileId: string, path: string, report: FileReport): Promise<void> {
  const base = {
    company: at.company.id,
    kind: 'error' as const,
    subject: { type: 'payment_file' as const, id: fileId },
  };
  await at.deps.reports?.record({ ...base, name: posix.basename(path), mediaType: 'text/plain', content: report.text });
  await at.deps.reports?.record({
    ...base,
    name: posix.basename(path).replace(/\.txt$/, '.html'),
    mediaType: 'text/html',
    content: report.html,
  });
}

/** The language of the company's reports: its own `locale`, else the installation's. */
export function localeOf(deps: PickupDeps, company: CompanyConfig): Locale {
  return company.locale ?? deps.locale ?? FALLBACK_LOCALE;
}

/**
 * NAME.errors.txt and NAME.errors.html for people, NAME.errors.json for machines, written
 * atomically; the text last, as the one the run names.
 */
export async function writeReport(
  fileStore: FileStore,
  dir: string,
  name: string,
  report: { text: string; json: unknown; html?: string; moreJson?: Iterable<string | Buffer> },
): Promise<string> {
  const base = posix.join(dir, name);
  // Issues beyond the kept ones and held lines are streamed into the JSON's issues (jsonWithMore).
  const { moreJson } = report;
  const json = moreJson
    ? () => jsonWithMore(report.json as object, 'issues', moreJson)
    : JSON.stringify(report.json, null, 2) + '\n';
  await fileStore.writeAtomic(`${base}.errors.json`, json);
  if (report.html !== undefined) await fileStore.writeAtomic(`${base}.errors.html`, report.html);
  await fileStore.writeAtomic(`${base}.errors.txt`, report.text);
  return `${base}.errors.txt`;
}
