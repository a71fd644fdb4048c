// The data the console's browser tests show: a file whose names and remittance carry hostile text
// (`<script>`, `"onmouseover=`, U+202E), its two lines in a bulk sent to the bank and a basket
// waiting with a link, an open finding, an account with a checked statement day; and, for the
// operator's pages, an unknown bulk, a held duplicate and a cancellation waiting for a second
// operator. Seeded through the store, as `settle run` would have left it.
import type { LocalDate } from '../../src/domain/local-date.js';
import type { Store } from '../../src/store/index.js';
import { payment, paymentFile, holdDuplicatesSince } from '../store/fixtures.js';
import { recordSent } from '../../jobs/submit/index.js';

export const HOSTILE = '<script>alert(1)</script>"onmouseover=alert(2) \u202Egnp.exe';
export const SCA_LINK = 'https://bank.example/sca/one-time-7f3a9c';

export interface PagesWorld {
  file: string;
  payment: string;
  basket: string;
}

/** The file, its bulk and basket, a finding and a statement day (ACME). */
export async function seedPagesWorld(store: Store): Promise<PagesWorld> {
  const file = await store.files.recordAcceptedFile(paymentFile(`${HOSTILE}-file`), [
    payment(1, { endToEndId: 'E2E-HOSTILE', creditorName: HOSTILE, remittanceInformation: HOSTILE }),
    payment(2, {
      endToEndId: 'E2E-PLAIN',
      creditorName: 'Kari Nordmann',
      amount: { minor: 123_450n, currency: 'NOK' },
    }),
  ]);
  const lines = await store.payments.listByFile(file.id);
  const [bulk] = await store.bulks.createBulks(file.id, [
    {
      position: 0,
      debtorIban: 'NO9386011117947',
      executionDate: '2026-01-06' as LocalDate,
      batchBooking: false,
      paymentIds: lines.map((p) => p.id),
    },
  ]);
  await store.bulks.markSending(bulk!.id);
  await recordSent(store, bulk!.id, { bankPaymentId: 'BANK-PAY-1' });
  const basket = await store.baskets.create('acme', [bulk!.id]);
  await store.baskets.markCreated(basket.id, 'BANK-BASKET-1');
  await store.baskets.issueLink(basket.id, SCA_LINK, new Date(Date.now() + 86_400_000));
  await store.findings.recordRun('acme', 'run-1', [
    { id: 'F-UNMATCHED', type: 'unmatched_payment', factHash: 'h1', subject: 'payment E2E-HOSTILE', summary: HOSTILE },
  ]);
  await store.statements.upsertAccount({
    id: 'acc-1',
    company: 'acme',
    iban: 'NO9386011117947',
    currency: 'NOK',
    name: HOSTILE,
  });
  await store.accountStatus.record('acc-1', 'enabled', new Date('2026-01-04T08:00:00Z'));
  await store.statementDays.record({
    accountId: 'acc-1',
    day: '2026-01-04' as LocalDate,
    currency: 'NOK',
    openingMinor: 100_000n,
    closingMinor: 90_000n,
    bookedSumMinor: -10_000n,
    entryCount: 2,
    continuity: 'ok',
  });
  return { file: file.id, payment: lines.find((p) => p.endToEndId === 'E2E-HOSTILE')!.id, basket: basket.id };
}

/** What the operator's pages list: an unknown bulk, a held duplicate, a cancellation waiting for four eyes. */
export async function seedOperatorWorld(store: Store): Promise<{ unknownBulk: string; waiting: string }> {
  const since = new Date('2026-01-01T00:00:00Z');
  const op = await store.files.recordAcceptedFile(paymentFile('operator-file'), [
    payment(1, { endToEndId: 'OP-WAITING', amount: { minor: 5_00n, currency: 'NOK' } }),
    payment(2, { endToEndId: 'OP-UNKNOWN-1', amount: { minor: 6_00n, currency: 'NOK' } }),
    payment(3, { endToEndId: 'OP-UNKNOWN-2', amount: { minor: 7_00n, currency: 'NOK' } }),
  ]);
  const lines = await store.payments.listByFile(op.id);
  const [unknown] = await store.bulks.createBulks(op.id, [
    {
      position: 0,
      debtorIban: 'NO9386011117947',
      executionDate: '2026-01-06' as LocalDate,
      batchBooking: false,
      paymentIds: lines.filter((p) => p.endToEndId.startsWith('OP-UNKNOWN')).map((p) => p.id),
    },
  ]);
  await store.bulks.markSending(unknown!.id);
  await store.bulks.markUnknown(unknown!.id, { title: 'timeout' });
  const dup = (e2e: string) => payment(9, { endToEndId: e2e, amount: { minor: 9_99n, currency: 'NOK' } });
  await store.files.recordAcceptedFile(paymentFile('held-first'), [dup('H-FIRST')], 0, holdDuplicatesSince(since));
  await store.files.recordAcceptedFile(
    paymentFile(`${HOSTILE}-again`),
    [dup('H-AGAIN')],
    0,
    holdDuplicatesSince(since),
  );
  const waiting = lines.find((p) => p.endToEndId === 'OP-WAITING')!.id;
  return { unknownBulk: unknown!.id, waiting };
}

/** A cancellation of the waiting line, asked by one operator and waiting for a second (four eyes). */
export async function seedCancellation(store: Store, paymentId: string): Promise<void> {
  await store.cancellations.create({
    company: 'acme',
    ref: 'OP-WAITING',
    paymentIds: [paymentId],
    reason: 'the ERP sent it by mistake',
    requestedBy: 'local:olga',
    requestedPerson: 'olga@acme.example',
    channel: 'console',
  });
}
