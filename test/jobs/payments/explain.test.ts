import { describe, expect, it } from 'vitest';
import { explainSendFailure, maskIban } from '../../../jobs/payments/explain.js';
import { MAX_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS, pollIntervalMs } from '../../../jobs/status/poll-schedule.js';
import { BankError, codeForStatus } from '../../../src/bank/index.js';

const ctx = {
  company: 'acme',
  debtorIban: 'NO9386011117947',
  executionDate: '2026-01-07',
  today: '2026-01-05',
  earlierAttemptUncertain: false,
};
const answer = (status: number, title = 'x', extra: { outcomeUnknown?: boolean } = {}) =>
  new BankError(codeForStatus(status), title, { status, title, ...extra });

describe('what a bank answer to a bulk POST means', () => {
  it('re-queues 429 and 503 only when no earlier attempt may have landed', () => {
    expect(explainSendFailure(answer(429), ctx).verdict).toBe('retry');
    expect(explainSendFailure(answer(503), ctx).verdict).toBe('retry');
    expect(explainSendFailure(answer(503), { ...ctx, earlierAttemptUncertain: true }).verdict).toBe('uncertain');
  });

  it('keeps the outcome open for no answer, 5xx, 504 and an in-flight 409', () => {
    for (const status of [500, 502, 504, 409])
      expect(explainSendFailure(answer(status), ctx).verdict).toBe('uncertain');
    expect(explainSendFailure(new BankError('ERR_BANK_NETWORK', 'reset', { outcomeUnknown: true }), ctx).verdict).toBe(
      'uncertain',
    );
  });

  it('treats a reused key (422) as a settle defect to be looked at, never a rejection', () => {
    const e = explainSendFailure(answer(422, 'Idempotency key reused'), ctx);
    expect(e.verdict).toBe('unknown');
    expect(e.explanation).toMatch(/settle defect/);
  });

  it('rejects final 4xx with words an accountant understands, without the full account number', () => {
    const e = explainSendFailure(answer(404, 'Account not found'), ctx);
    expect(e.verdict).toBe('rejected');
    expect(e.explanation).toContain('NO93…7947');
    expect(e.explanation).not.toContain('NO9386011117947');
    expect(explainSendFailure(answer(400, 'Bad request'), { ...ctx, executionDate: '2026-01-05' }).explanation).toMatch(
      /future business day/,
    );
  });

  it('masks IBANs to country, check digits and the last four', () => {
    expect(maskIban('NO9386011117947')).toBe('NO93…7947');
  });
});

describe('the poll schedule', () => {
  it('waits a quarter of the bulk age, between the bounds', () => {
    expect(pollIntervalMs(0)).toBe(MIN_POLL_INTERVAL_MS);
    expect(pollIntervalMs(40 * 60_000)).toBe(10 * 60_000);
    expect(pollIntervalMs(10 * 24 * 3600_000)).toBe(MAX_POLL_INTERVAL_MS);
  });
});
