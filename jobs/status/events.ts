// The event half of the status job (the poll half is jobs/status/poll.ts): what `settle serve` does
// with the bank's webhook events once src/server has authenticated, parsed and deduplicated them:
// payment and bulk status events go through the same transition function as polling
// (jobs/status/apply.ts), so a duplicate or an out-of-order event changes nothing;
// `banking.payment.authorized` with no approvals remaining closes the basket. An event that
// touched a bulk also postpones its next poll (the poll lease), since the bank just told us what
// a poll would read. A consent event updates the status of the consent it names (the consents
// table); one for a consent settle has not recorded waits for the next read. Account events: a
// status change updates which accounts are usable (the accounts rows); a transaction received or
// a balance updated asks for a fetch of that account (`onAccountActivity`, which `serve`
// coalesces: many events, one fetch per account). Every other type is acknowledged and ignored.
import { applyPaymentStatus, type StatusOutcome } from './apply.js';
import { EVENT_HOLDER, MIN_POLL_INTERVAL_MS, pollLeaseName } from './poll-schedule.js';
import type { BankingEvent } from '../../src/bank/index.js';
import type { Clock } from '../../src/domain/clock.js';
import type { Logger } from '../../src/log/index.js';
import type { Store } from '../../src/store/index.js';
import { cause } from '../../src/domain/transition-cause.js';

export interface WebhookHandlerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** How long a poll waits after an event updated the bulk (default 5 minutes). */
  quietAfterEventMs?: number;
  /** Asks for a fetch of the account's statements (serve: coalesced, within a minute). */
  onAccountActivity?: (accountId: string) => void;
}

export interface HandledEvent {
  id: string;
  kind: BankingEvent['kind'];
  outcome:
    | StatusOutcome
    | 'authorised'
    | 'approval-progress'
    | 'consent-updated'
    | 'account-status-updated'
    | 'fetch-requested'
    | 'ignored';
}

export async function handleBankEvents(
  deps: WebhookHandlerDeps,
  events: readonly BankingEvent[],
): Promise<HandledEvent[]> {
  const out: HandledEvent[] = [];
  for (const event of events) {
    const handled = await handleOne(deps, event);
    out.push(handled);
    deps.logger.debug('bank event handled', { eventId: event.meta.id, kind: event.kind, outcome: handled.outcome });
  }
  return out;
}

async function handleOne(deps: WebhookHandlerDeps, event: BankingEvent): Promise<HandledEvent> {
  const base = { id: event.meta.id, kind: event.kind };
  const at =
    event.meta.time !== undefined && !Number.isNaN(Date.parse(event.meta.time))
      ? new Date(event.meta.time)
      : deps.clock.now();
  if (event.kind === 'payment.status.updated' || event.kind === 'bulk_payment.status.updated') {
    const line = event.kind === 'payment.status.updated';
    const bulkHref = event.links.bulkPayment?.href;
    const result = await applyPaymentStatus(deps, {
      level: line ? 'line' : 'bulk',
      bankPaymentId: event.paymentId,
      ...(line && bulkHref !== undefined ? { bankBulkPaymentId: lastSegment(bulkHref) } : {}),
      ...(event.endToEndIdentification !== undefined ? { endToEndId: event.endToEndIdentification } : {}),
      status: event.transactionStatus,
      tppMessages: event.tppMessages,
      at,
      source: 'event',
    });
    if (result.bulkId !== undefined)
      await deps.store.leases.acquire(
        pollLeaseName(result.bulkId),
        EVENT_HOLDER,
        deps.quietAfterEventMs ?? Math.max(MIN_POLL_INTERVAL_MS, 5 * 60_000),
      );
    if (result.outcome === 'unmatched')
      deps.logger.info('bank event for a payment settle does not know; ignored', {
        eventId: event.meta.id,
        paymentId: event.paymentId,
      });
    return { ...base, outcome: result.outcome };
  }
  if (event.kind === 'payment.authorized') {
    const bulkId = await deps.store.bulks.idByBankPaymentId(event.paymentId);
    if (bulkId === undefined) return { ...base, outcome: 'ignored' };
    if ((event.remainingAuthorizations ?? 0) > 0) return { ...base, outcome: 'approval-progress' };
    for (const basketId of await deps.store.baskets.idsHolding([bulkId])) {
      const basket = await deps.store.baskets.get(basketId);
      if (basket && (basket.state === 'created' || basket.state === 'link_issued'))
        await deps.store.baskets.markAuthorised(basketId, cause.eventAuthorised(event.meta.id));
    }
    return { ...base, outcome: 'authorised' };
  }
  if (event.kind === 'consent.status.updated') {
    const known = await deps.store.consents.updateStatus(event.consentId, event.status, at);
    return { ...base, outcome: known ? 'consent-updated' : 'ignored' };
  }
  if (event.kind === 'account.status.updated' && event.account.status !== undefined) {
    const recorded = await deps.store.accountStatus.record(event.account.id, event.account.status, at);
    // An account settle has not fetched yet gets its status with the fetch's own read.
    return { ...base, outcome: recorded === 'recorded' ? 'account-status-updated' : 'ignored' };
  }
  const accountId =
    event.kind === 'account.transaction.received'
      ? (event.transaction.accountId ?? event.meta.resourceId)
      : event.kind === 'account.balance.updated'
        ? event.accountId
        : undefined;
  if (accountId !== undefined && deps.onAccountActivity) {
    deps.onAccountActivity(accountId);
    return { ...base, outcome: 'fetch-requested' };
  }
  return { ...base, outcome: 'ignored' };
}

function lastSegment(href: string): string | undefined {
  try {
    const last = new URL(href, 'http://bank.invalid').pathname.split('/').filter(Boolean).at(-1);
    return last === undefined ? undefined : decodeURIComponent(last);
  } catch {
    return undefined;
  }
}
