// The crash test in `npm test`: a bounded campaign (the long one is test/chaos/payments-crash.ts).
import { describe, expect, it } from 'vitest';
import { runCrashCampaign } from '../../support/crash-harness.js';

describe('crash safety of the payment chain', () => {
  it('after SIGKILLs across pickup, submit, approve and status under bank faults, every accepted payment is at the bank exactly once', async () => {
    const figures = await runCrashCampaign({ killPoints: Number(process.env.SETTLE_CRASH_KILLS ?? 20), seed: 11 });
    console.log(`crash campaign: ${JSON.stringify(figures)}`);
    expect(figures.acceptedPayments).toBe(20);
    expect(figures.killPoints).toBeGreaterThanOrEqual(15);
    expect(figures.anomalies).toBe(0);
    expect(figures.extra).toBe(0);
    expect(figures.missing).toBe(0);
    expect(figures.duplicates).toBe(0);
  }, 240_000);
});
