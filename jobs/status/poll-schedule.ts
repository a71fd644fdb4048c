// When to ask the bank about a payment again. Statuses move fast in the first minutes (RCVD →
// ACSP within a minute at the bank) and slowly afterwards (ACSC on the execution day, approvals
// over days), so the wait between polls grows with the bulk's age: a quarter of its age, at
// least MIN and at most MAX. The wait is held as a named lease per bulk (src/store leases), so
// it is shared by every settle instance and survives restarts; a webhook event that updated the
// bulk takes the same lease, which is how "skip what an event updated recently" works.

export const MIN_POLL_INTERVAL_MS = 30_000;
export const MAX_POLL_INTERVAL_MS = 60 * 60_000;

export function pollIntervalMs(ageMs: number): number {
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, Math.floor(ageMs / 4)));
}

export function pollLeaseName(bulkId: string): string {
  return `status-poll:${bulkId}`;
}

/** The holder an event uses for the poll lease (a poll run uses its own holder). */
export const EVENT_HOLDER = 'webhook-event';
