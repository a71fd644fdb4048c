// Builders for the repository tests: a valid payment and a file record.
import { createHash } from 'node:crypto';
import { PickupHolds } from '../../src/domain/controls/index.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import type { PaymentInstruction } from '../../src/domain/payment.js';
import { isSettleError, type ErrorCode } from '../../src/domain/errors.js';
import type { NewPaymentFile, Store } from '../../src/store/index.js';

export function payment(lineNumber: number, overrides: Partial<PaymentInstruction> = {}): PaymentInstruction {
  return {
    debtorIban: 'NO9386011117947',
    debtorName: 'Acme AS',
    requestedExecutionDate: '2026-01-06' as LocalDate,
    endToEndId: `E2E-${lineNumber}`,
    amount: { minor: 12_345n * BigInt(lineNumber), currency: 'NOK' },
    creditorIban: 'NO8330001234567',
    creditorName: `Supplier ${lineNumber}`,
    remittanceInformation: `Invoice ${lineNumber}`,
    lineNumber,
    ...overrides,
  };
}

export function paymentFile(content: string, overrides: Partial<NewPaymentFile> = {}): NewPaymentFile {
  return {
    company: 'acme',
    fileName: `${content}.csv`,
    sha256: createHash('sha256').update(content).digest('hex'),
    format: 'csv:test',
    sizeBytes: content.length,
    receivedAt: new Date('2026-01-05T07:00:00Z'),
    ...overrides,
  };
}

/** Resolves when the promise rejects with a SettleError of this code; throws otherwise. */
export async function rejectsWithCode(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  try {
    await promise;
  } catch (error) {
    if (isSettleError(error, code)) return;
    throw new Error(`expected ${code}, got ${String(error)}`);
  }
  throw new Error(`expected ${code}, but it succeeded`);
}

/** A file of `count` one-line bulks, all pending: work rows for claim tests. Returns the file id and bulk ids. */
export async function pendingBulks(
  store: Store,
  name: string,
  count: number,
  company = 'acme',
): Promise<{ fileId: string; ids: string[] }> {
  const stored = await store.files.recordAcceptedFile(
    paymentFile(name, { company }),
    Array.from({ length: count }, (_, i) => payment(i + 1, { endToEndId: `${name}-${i}` })),
  );
  const lines = await store.payments.listByFile(stored.id);
  const bulks = await store.bulks.createBulks(
    stored.id,
    lines.map((l, i) => ({
      position: i,
      debtorIban: 'NO9386011117947',
      executionDate: '2026-01-06' as LocalDate,
      batchBooking: true,
      paymentIds: [l.id],
    })),
  );
  return { fileId: stored.id, ids: bulks.map((b) => b.id).sort() };
}

/** A file of `count` lines (end-to-end ids `<name>-1`, …) planned as one bulk, still pending. */
/** The plan of a file's first bulk (position 0) for these lines. */
export function firstBulkPlan(paymentIds: string[], batchBooking = false) {
  return {
    position: 0,
    debtorIban: 'NO9386011117947',
    executionDate: '2026-01-06' as never,
    batchBooking,
    paymentIds,
  };
}

export async function bulkOfLines(store: Store, name: string, count: number) {
  const stored = await store.files.recordAcceptedFile(
    paymentFile(name),
    Array.from({ length: count }, (_, i) => payment(i + 1, { endToEndId: `${name}-${i + 1}` })),
  );
  const lines = await store.payments.listByFile(stored.id);
  const [bulk] = await store.bulks.createBulks(stored.id, [firstBulkPlan(lines.map((l) => l.id))]);
  return { lines, bulk: bulk! };
}

/** A file of one accepted line and the one bulk that carries it. */
export async function oneLineBulk(store: Store, name: string) {
  const { lines, bulk } = await bulkOfLines(store, name, 1);
  return { line: lines[0]!, bulk };
}

/**
 * The ledger's options that hold likely duplicates of payments accepted since `since`, as pickup
 * does with a duplicate window (the hold rule is the domain's: src/domain/controls/pickup-holds.ts).
 */
export function holdDuplicatesSince(since: Date): { holds: PickupHolds } {
  return { holds: new PickupHolds({ duplicatesSince: since }) };
}
