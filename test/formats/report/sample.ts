// A small reconciliation with one finding of most types and hostile text in every free field,
// shared by the CSV, HTML and Chromium tests.
import { businessCalendar } from '../../../src/domain/business-calendar.js';
import { reconcile, type ReconcileResult } from '../../../src/domain/reconcile/index.js';
import { d, debit, nok, payment } from '../../domain/reconcile/builders.js';

export const HOSTILE_NAME = '<script>alert("x")</script> & "Quote" AS';
export const FORMULA_REMITTANCE = '=HYPERLINK("http://evil.example","click")';

export function sampleResult(): ReconcileResult {
  return reconcile(
    {
      payments: [
        payment('p-ok', { creditorName: HOSTILE_NAME, amount: nok(1_234_50n) }),
        payment('p-diff', { amount: nok(500_00n) }),
        payment('p-eur', { amount: { minor: 99_95n, currency: 'EUR' }, requestedExecutionDate: d('2026-03-02') }),
        payment('p-rej', { outcome: 'rejected', rejectionReason: 'AC01', resentAs: 'p-new' }),
        payment('p-unk', { outcome: 'unknown', endToEndId: '+SUM(A1:A9)' }),
      ],
      transactions: [
        debit('t-ok', 1_234_50n, { endToEndId: 'E2E-p-ok' }),
        debit('t-diff', 510_00n, { endToEndId: 'E2E-p-diff' }),
        debit('t-fee', 45_00n, { counterpartyName: '@fee "bank"', remittance: FORMULA_REMITTANCE }),
      ],
      approvals: [
        {
          company: 'acme',
          basketId: 'SB-<1>',
          bulkIds: ['B9'],
          totals: [nok(70_000_00n)],
          linkExpiresAt: new Date('2026-03-25T10:00:00Z'),
        },
      ],
      consents: [{ company: 'acme', consentId: 'c-1', bank: 'DNB', validUntil: d('2026-03-30') }],
    },
    { today: d('2026-03-20'), now: new Date('2026-03-20T06:00:00Z'), calendar: businessCalendar('NO') },
  );
}

export const META = {
  company: 'Acme <Nordic> & "Sons"',
  runId: 'run-42',
  from: d('2026-03-01'),
  to: d('2026-03-20'),
  generatedAt: new Date('2026-03-20T06:00:00Z'),
};
