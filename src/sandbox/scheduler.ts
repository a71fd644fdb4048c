// Everything that happens "on the clock". Called after every clock move; each step is applied
// at its own due instant (not at "now"), so one big advance gives the same result as many
// small ones. Timings (docs/sandbox.md §Time):
//   consent (test bank, headless): Created → Started after 10 s → Authorized after 60 s more
//   payment: RCVD → ACSP processingDelayMs after release (creation; for pre-approved accounts,
//   basket authorisation); ACSP → ACSC (and booking) at 00:00 Oslo on the requested execution
//   date (the next Norwegian business day if it is not one), or at ACSP when that day has begun.
import { businessCalendar } from '../domain/business-calendar.js';
import { bankToday, startOfBankDay } from './time.js';
import { bookedBalance } from './ledger.js';
import type { BulkPayment, Consent, PaymentLine, PaymentStatus } from './model.js';
import type { Sandbox } from './sandbox.js';
import { provisionConsentAccounts } from './consent-accounts.js';
import { balanceView, transactionView } from './views.js';

export const CONSENT_STEP_MS = { toStarted: 10_000, toAuthorized: 60_000 } as const;

/** Moves sandbox time forward and applies every state change that fell due, in order. */
export function advanceClock(sb: Sandbox, ms: number): Date {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the sandbox clock only moves forward');
  sb.clock.advance(ms);
  runDue(sb);
  return sb.clock.now();
}

export function runDue(sb: Sandbox): void {
  const now = sb.clock.now().getTime();
  for (const consent of sb.state.consents.values()) stepConsent(sb, consent, now);
  const touched = new Set<string>();
  for (const bulk of sb.state.bulks.values()) stepBulk(sb, bulk, now, touched);
  for (const accountId of touched) {
    const account = sb.state.accounts.get(accountId);
    if (!account) continue;
    const today = bankToday(sb.clock.now());
    sb.emit('banking.account.balance.updated', account, {
      id: account.id,
      iban: account.iban,
      bban: account.bban,
      currency: account.currency,
      balances: balanceView(sb, account, today),
      _links: { self: sb.link(`/accounts/${account.id}/balances`) },
    });
  }
}

function stepConsent(sb: Sandbox, consent: Consent, now: number): void {
  while (consent.nextStepAt !== null && consent.nextStepAt <= now) {
    const at = consent.nextStepAt;
    if (consent.status === 'Created') {
      consent.status = 'Started';
      consent.nextStepAt = at + CONSENT_STEP_MS.toAuthorized;
    } else if (consent.status === 'Started') {
      consent.status = 'Authorized';
      consent.nextStepAt = null;
      provisionConsentAccounts(sb, consent, at);
    } else {
      consent.nextStepAt = null;
    }
    sb.emitConsent(consent, at);
  }
}

function stepBulk(sb: Sandbox, bulk: BulkPayment, now: number, touched: Set<string>): void {
  if (bulk.releasedAt === null) return;
  const acspDue = bulk.releasedAt + sb.options.processingDelayMs;
  if (acspDue > now) return;
  let changed = false;
  for (const line of bulk.lines) {
    if (line.status !== 'RCVD') continue;
    const rejection = sb.state.rejections.get(line.creditorIban);
    if (rejection) setLine(sb, { bulk, line }, 'RJCT', { at: acspDue, message: { category: 'error', ...rejection } });
    else setLine(sb, { bulk, line }, 'ACSP', { at: acspDue });
    changed = true;
  }
  if (changed) updateBulkStatus(sb, bulk, acspDue);
  changed = false;
  if (bulk.acspAt === null) bulk.acspAt = acspDue;
  // A weekend or Norwegian bank holiday executes on the next business day, as the bank would.
  const settleAt = Math.max(
    bulk.acspAt,
    startOfBankDay(businessCalendar('NO').nextBusinessDay(bulk.requestedExecutionDate)),
  );
  if (settleAt <= now) {
    const account = sb.state.accounts.get(bulk.accountId);
    for (const line of bulk.lines) {
      if (line.status !== 'ACSP' || !account) continue;
      const bookingDate = bankToday(new Date(settleAt));
      if (bookedBalance(sb.state, account, bookingDate) + account.creditLimitMinor < line.minor) {
        setLine(sb, { bulk, line }, 'RJCT', {
          at: settleAt,
          message: { category: 'error', code: 'AM04', message: 'Insufficient funds' },
        });
        changed = true;
        continue;
      }
      const seq = sb.state.nextSeq();
      const tx = {
        transactionId: sb.newUuid(),
        accountId: account.id,
        entryReference: `SBX${seq.toString().padStart(9, '0')}`,
        endToEndId: line.endToEndIdentification,
        bookingDate,
        valueDate: bookingDate,
        minor: -line.minor,
        currency: line.currency,
        counterpartyName: line.creditorName,
        counterpartyIban: line.creditorIban,
        remittance: line.remittance ?? '',
        transactionType: 'debit' as const,
        paymentId: line.paymentId,
        bookedAt: new Date(settleAt).toISOString(),
      };
      sb.state.transactions.push(tx);
      line.transactionId = tx.transactionId;
      setLine(sb, { bulk, line }, 'ACSC', { at: settleAt });
      sb.emit('banking.account.transaction.received', account, transactionView(sb, tx), settleAt);
      touched.add(account.id);
      changed = true;
    }
  }
  if (changed) updateBulkStatus(sb, bulk, settleAt);
}

function setLine(
  sb: Sandbox,
  { bulk, line }: { bulk: BulkPayment; line: PaymentLine },
  status: PaymentStatus,
  { at, message }: { at: number; message?: PaymentLine['tppMessages'][number] },
): void {
  line.status = status;
  if (message) line.tppMessages.push(message);
  line.history.push({ status, at: new Date(at).toISOString() });
  const account = sb.state.accounts.get(bulk.accountId);
  if (!account) return;
  sb.emit(
    'banking.payment.status.updated',
    account,
    {
      paymentId: line.paymentId,
      endToEndIdentification: line.endToEndIdentification,
      transactionStatus: status,
      tppMessages: line.tppMessages.map((m) => ({ code: m.code, message: m.message })),
      _links: {
        self: sb.link(`/payments/credit-transfer/${line.paymentId}`),
        bulkPayment: sb.link(`/bulk-payments/credit-transfer/${bulk.paymentId}`),
      },
    },
    at,
  );
}

/** Bulk status from its lines: all ACSC → ACSC, all RJCT → RJCT, final but mixed → PART. */
export function updateBulkStatus(sb: Sandbox, bulk: BulkPayment, at: number): void {
  const statuses = bulk.lines.map((l) => l.status);
  const all = (s: PaymentStatus): boolean => statuses.every((x) => x === s);
  let next: PaymentStatus;
  if (all('ACSC')) next = 'ACSC';
  else if (all('RJCT')) next = 'RJCT';
  else if (all('CANC')) next = 'CANC';
  else if (statuses.every((x) => x === 'ACSC' || x === 'RJCT')) next = 'PART';
  else if (statuses.some((x) => x === 'RCVD')) next = 'RCVD';
  else next = 'ACSP';
  if (next === bulk.status) return;
  bulk.status = next;
  const account = sb.state.accounts.get(bulk.accountId);
  if (!account) return;
  sb.emit(
    'banking.bulk_payment.status.updated',
    account,
    {
      paymentId: bulk.paymentId,
      transactionStatus: next,
      tppMessages: [],
      _links: { self: sb.link(`/bulk-payments/credit-transfer/${bulk.paymentId}`) },
    },
    at,
  );
}
