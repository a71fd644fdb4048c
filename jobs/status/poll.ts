// The status job, polling half (the event half is events.ts): asks the bank about every
// bulk it has that is not final yet, with a wait that grows with the bulk's age, skipping bulks
// a webhook event updated recently (payments/poll-schedule.ts). Each read goes through the same
// entry point as the events (payments/apply-status.ts), so the two paths never disagree.
import { isBankError, type PaymentLineStatus } from '../../src/bank/index.js';
import type { CompanyConfig } from '../../src/config/index.js';
import { mapConcurrent } from '../../src/domain/concurrent.js';
import { addTo } from '../../src/domain/group.js';
import type { StoredBulk } from '../../src/store/index.js';
import { applyPaymentStatus, type LineStatus } from './apply.js';
import type { PaymentJobDeps } from '../payments/index.js';
import { MIN_POLL_INTERVAL_MS, pollIntervalMs, pollLeaseName } from './poll-schedule.js';

const DAY_MS = 86_400_000;

export interface StatusSummary {
  /** Bulks read from the bank. */
  polled: number;
  /** Bulks not due yet (recent poll or recent event). */
  notDue: number;
  /** Bulk and line rows whose status changed. */
  changed: number;
  /** Bulks whose read failed (tried again next run). */
  failed: number;
}

export async function runStatus(deps: PaymentJobDeps, companies: readonly CompanyConfig[]): Promise<StatusSummary> {
  const summary: StatusSummary = { polled: 0, notDue: 0, changed: 0, failed: 0 };
  const sent = await deps.store.bulks.listByState(
    'sent',
    companies.map((c) => c.id),
  );
  // The sent bulks by company, grouped once rather than filtered for each of a bureau's companies.
  const byCompany = new Map<string, StoredBulk[]>();
  for (const bulk of sent) if (bulk.bankPaymentId !== undefined) addTo(byCompany, bulk.company, bulk);
  for (const company of companies) {
    const due = byCompany.get(company.id) ?? [];
    // As many bulks in progress as the bank client has connections: while one bulk's lines are
    // written, the next answers are on their way (a bulk's poll and its write stay in order).
    await mapConcurrent(due, Math.max(1, deps.concurrency ?? 4), (bulk) => pollBulk(deps, company, bulk, summary));
  }
  // Each polled bulk leaves a "not before" lease; a day after it lapsed it says nothing more.
  const purged = await deps.store.leases.purgeExpired(DAY_MS);
  deps.logger.info('status polled', { ...summary, ...(purged > 0 ? { expiredLeasesPurged: purged } : {}) });
  return summary;
}

async function pollBulk(
  deps: PaymentJobDeps,
  company: CompanyConfig,
  bulk: StoredBulk,
  summary: StatusSummary,
): Promise<void> {
  const now = deps.clock.now();
  const age = now.getTime() - (bulk.firstSentAt ?? now).getTime();
  // A bulk sent less than the shortest wait ago has usually never been polled, so its lease row
  // is absent and the INSERT is tried first: one statement instead of a missed UPDATE and an
  // INSERT for every bulk of the night (an event's lease, if one came first, is found as before).
  const usuallyFree = age < MIN_POLL_INTERVAL_MS;
  if (!(await deps.store.leases.acquire(pollLeaseName(bulk.id), deps.holder, pollIntervalMs(age), { usuallyFree }))) {
    summary.notDue++;
    return;
  }
  let info;
  try {
    info = await deps.bank.getBulkPayment(company.organisationNumber, bulk.bankPaymentId!);
  } catch (error) {
    if (!isBankError(error)) throw error;
    summary.failed++;
    deps.logger.warn('status read failed; tried again next run', {
      company: company.id,
      bulkId: bulk.id,
      code: error.code,
      status: error.status,
    });
    return;
  }
  summary.polled++;
  // One call for the bulk and all its lines: the same entry point as the webhook events.
  const r = await applyPaymentStatus(deps, {
    level: 'bulk',
    bulkId: bulk.id,
    status: info.transactionStatus,
    tppMessages: info.tppMessages,
    lines: info.paymentLines.map(lineStatus),
    at: deps.clock.now(),
    source: 'poll',
    company: company.id,
  });
  summary.changed += r.changed;
}

/** A line of the bank's answer as applyPaymentStatus reads it (built field by field: a poll has a thousand). */
function lineStatus(l: PaymentLineStatus): LineStatus {
  const out: LineStatus = { tppMessages: l.tppMessages };
  if (l.endToEndIdentification !== undefined) out.endToEndId = l.endToEndIdentification;
  if (l.transactionStatus !== undefined) out.status = l.transactionStatus;
  return out;
}
