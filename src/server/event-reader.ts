// The one place the webhook route turns a delivery into events: the bank client's CloudEvents
// reader (structured, binary and batched modes). Kept apart so it can be swapped.
import { readEventDelivery } from '../bank/cloud-events.js';
import { isBankError, type BankingEvent, type EventDelivery } from '../bank/index.js';

export type { BankingEvent, EventDelivery };

export interface DeliveryProblem {
  code: string;
  message: string;
}

export function readDelivery(
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): { ok: true; delivery: EventDelivery } | { ok: false; problem: DeliveryProblem } {
  try {
    return { ok: true, delivery: readEventDelivery(headers, body) };
  } catch (error) {
    if (isBankError(error)) return { ok: false, problem: { code: error.code, message: error.message } };
    throw error;
  }
}
