// The status job (issue part 3, polling half): asks the bank about every bulk it has and that is
// not final yet, with a wait that grows with the bulk's age and skipping bulks a webhook event
// updated recently (payments/poll-schedule.ts). Every status read goes through the same
// transition function as the events (payments/apply-status.ts), so the two paths never disagree.
import { isBankError } from '../src/bank/index.js';
import type { CompanyConfig } from '../src/config/index.js';
import { canonicalBankStatus } from '../src/domain/states.js';
import { applyLineStatus, applyPaymentStatus, closeFinished, toStoreTpp } from './payments/apply-status.js';
import type { PaymentJobDeps } from './payments/deps.js';
import { pollIntervalMs, pollLeaseName } from './payments/poll-schedule.js';

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
  const sent = await deps.store.bulks.listByState('sent');
  for (const company of companies) {
    for (const bulk of sent.filter((b) => b.company === company.id && b.bankPaymentId !== undefined)) {
      const now = deps.clock.now();
      const age = now.getTime() - (bulk.firstSentAt ?? now).getTime();
      if (!(await deps.store.leases.acquire(pollLeaseName(bulk.id), deps.holder, pollIntervalMs(age)))) {
        summary.notDue++;
        continue;
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
        continue;
      }
      summary.polled++;
      const at = deps.clock.now();
      // Lines first: a final bulk status then finds its lines already final. The bulk's lines
      // are matched by end-to-end id in one read, and the bulk is closed once at the end.
      const ours = new Map((await deps.store.payments.listByBulk(bulk.id)).map((p) => [p.endToEndId, p]));
      let linesChanged = 0;
      const statuses = new Set(
        info.paymentLines.map((l) =>
          l.transactionStatus === undefined ? '' : canonicalBankStatus(l.transactionStatus),
        ),
      );
      const [only] = statuses;
      if (
        statuses.size === 1 &&
        only &&
        info.paymentLines.length === ours.size &&
        info.paymentLines.every((l) => l.tppMessages.length === 0)
      ) {
        // Every line has the same status and nothing to say: one transaction for the whole bulk
        // (the repository still decides line by line, so lines further along keep theirs).
        const counts = await deps.store.bulks.applyBankStatusToLines(
          bulk.id,
          only,
          `poll ${only} at ${at.toISOString()}`,
        );
        linesChanged += counts.apply;
      } else
        for (const line of info.paymentLines) {
          const status = line.transactionStatus === undefined ? undefined : canonicalBankStatus(line.transactionStatus);
          const mine = line.endToEndIdentification === undefined ? undefined : ours.get(line.endToEndIdentification);
          if (status === undefined || mine === undefined) continue;
          // Unchanged lines need no transaction at all (the common case of a poll).
          if (
            mine.state === status &&
            JSON.stringify(mine.tppMessages) === JSON.stringify(line.tppMessages.map(toStoreTpp))
          )
            continue;
          const r = await applyLineStatus(
            deps,
            { id: mine.id, bulkId: bulk.id },
            status,
            `poll ${status} at ${at.toISOString()}`,
            line.tppMessages.map(toStoreTpp),
            'poll',
          );
          linesChanged += r.changed;
        }
      if (linesChanged > 0) await closeFinished(deps, bulk.id);
      summary.changed += linesChanged;
      const r = await applyPaymentStatus(deps, {
        level: 'bulk',
        bulkId: bulk.id,
        status: info.transactionStatus,
        tppMessages: info.tppMessages,
        at,
        source: 'poll',
      });
      summary.changed += r.changed;
    }
  }
  // Each polled bulk leaves a "not before" lease; a day after it lapsed it says nothing more.
  const purged = await deps.store.leases.purgeExpired(DAY_MS);
  deps.logger.info('status polled', { ...summary, ...(purged > 0 ? { expiredLeasesPurged: purged } : {}) });
  return summary;
}
