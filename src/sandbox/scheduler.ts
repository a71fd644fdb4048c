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
import type { BulkPayment, Consent, PaymentLine, PaymentStatus, Transaction } from './model.js';
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
    const booked: PaymentLine[] = [];
    let reserved = 0n;
    for (const line of bulk.lines) {
      if (line.status !== 'ACSP' || !account) continue;
      const bookingDate = bankToday(new Date(settleAt));
      if (bookedBalance(sb.state, account, bookingDate) - reserved + account.creditLimitMinor < line.minor) {
        setLine(sb, { bulk, line }, 'RJCT', {
          at: settleAt,
          message: { category: 'error', code: 'AM04', message: 'Insufficient funds' },
        });
        changed = true;
        continue;
      }
      // A bulk that asked for batch booking is booked as one entry once all its lines are in.
      if (bulk.batchBookingPreferred) {
        booked.push(line);
        reserved += line.minor;
        continue;
      }
      const tx = bookLines(sb, bulk, [line], settleAt);
      setLine(sb, { bulk, line }, 'ACSC', { at: settleAt });
      sb.emit('banking.account.transaction.received', account, transactionView(sb, tx), settleAt);
      touched.add(account.id);
      changed = true;
    }
    if (account && booked.length > 0) {
      const tx = bookLines(sb, bulk, booked, settleAt);
      for (const line of booked) setLine(sb, { bulk, line }, 'ACSC', { at: settleAt });
      sb.emit('banking.account.transaction.received', account, transactionView(sb, tx), settleAt);
      touched.add(account.id);
      changed = true;
    }
  }
  if (changed) updateBulkStatus(sb, bulk, settleAt);
}

/** Books the return of a settled line as a credit on its account; undefined when there is no such line. */
export function bookReturn(sb: Sandbox, endToEndId: string, code: string, message: string): Transaction | undefined {
  for (const bulk of sb.state.bulks.values()) {
    const line = bulk.lines.find((l) => l.endToEndIdentification === endToEndId && l.status === 'ACSC');
    const account = sb.state.accounts.get(bulk.accountId);
    if (!line || !account) continue;
    const at = sb.clock.now().getTime();
    const bookingDate = bankToday(new Date(at));
    const tx: Transaction = {
      transactionId: sb.newUuid(),
      accountId: account.id,
      entryReference: `SBX${sb.state.nextSeq().toString().padStart(9, '0')}`,
      endToEndId,
      bookingDate,
      valueDate: bookingDate,
      minor: line.minor,
      currency: line.currency,
      counterpartyName: line.creditorName,
      counterpartyIban: line.creditorIban,
      remittance: line.remittance ?? '',
      transactionType: 'credit',
      paymentId: line.paymentId,
      bookedAt: new Date(at).toISOString(),
      bankTransactionCode: 'PMNT-ICDT-RRTN',
      proprietaryBankTransactionCode: 'SBX-RETURN',
      additionalInformation: `Returned payment: ${message}`,
      returnReason: code,
    };
    sb.state.addTransaction(tx);
    sb.emit('banking.account.transaction.received', account, transactionView(sb, tx), at);
    return tx;
  }
  return undefined;
}

/** One debit on the bulk's account: a single line, or (batch booking) all lines as one entry. */
function bookLines(sb: Sandbox, bulk: BulkPayment, lines: readonly PaymentLine[], at: number): Transaction {
  const bookingDate = bankToday(new Date(at));
  const single = lines.length === 1 && !bulk.batchBookingPreferred ? lines[0] : undefined;
  const tx: Transaction = {
    transactionId: sb.newUuid(),
    accountId: bulk.accountId,
    entryReference: `SBX${sb.state.nextSeq().toString().padStart(9, '0')}`,
    endToEndId: single?.endToEndIdentification ?? null,
    bookingDate,
    valueDate: bookingDate,
    minor: -lines.reduce((sum, line) => sum + line.minor, 0n),
    currency: lines[0]!.currency,
    counterpartyName: single?.creditorName ?? '',
    counterpartyIban: single?.creditorIban ?? null,
    remittance: single?.remittance ?? '',
    transactionType: 'debit',
    paymentId: single?.paymentId ?? bulk.paymentId,
    bookedAt: new Date(at).toISOString(),
    bankTransactionCode: 'PMNT-ICDT-ESCT',
    additionalInformation: single ? 'Payment' : `Bulk payment, ${lines.length} payments`,
  };
  if (!single) tx.endToEndIds = lines.map((line) => line.endToEndIdentification);
  sb.state.addTransaction(tx);
  for (const line of lines) line.transactionId = tx.transactionId;
  return tx;
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
