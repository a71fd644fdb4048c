// The crash tests in `npm test`: bounded campaigns (the long one is `npm run test:chaos`,
// test/chaos/nightly-chaos.ts). The first SIGKILLs the payment chain under bank faults; the
// second the whole nightly chain with the company's folders on a real sshd behind a proxy that
// cuts SFTP connections mid-transfer.
// Their time limits catch a hang, not slowness: each kill point starts a process, so on a loaded
// two-core machine a campaign takes several times its quiet time (304 s seen at load 11).
import { afterAll, describe, expect, it } from 'vitest';
import { runCrashCampaign } from '../../support/crash-harness.js';
import { runChaosCampaign } from '../../support/chaos/nightly-campaign.js';
import { startSshdForTests } from '../../support/sshd.js';

const { server, reason } = await startSshdForTests();
afterAll(async () => server?.stop());

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
  }, 480_000);
});

describe.runIf(server || process.env.CI)('crash safety of the whole nightly chain over SFTP', () => {
  it('after SIGKILLs, bank faults and SFTP drops: payments once at the bank, booked transactions once in the statements, every file archived or reported, nothing half-written', async () => {
    if (!server) throw new Error(`could not start sshd: ${reason ?? 'unknown'}`);
    const figures = await runChaosCampaign({ killPoints: 6, files: 2, seed: 3, sftpDropRate: 0.6, sshd: server });
    console.log(`chaos campaign: ${JSON.stringify(figures)}`);
    expect(figures.anomalyList).toEqual([]);
    expect(figures.anomalies).toBe(0);
    expect(figures.killPoints).toBeGreaterThanOrEqual(5);
    expect(figures.sftpDropsInjected).toBeGreaterThanOrEqual(1);
    expect(figures.acceptedPayments).toBe(10);
    expect(figures.missingAtBank + figures.duplicatesAtBank + figures.extraAtBank).toBe(0);
    // Settled payments were booked and came back through fetch and export, in both formats.
    expect(figures.settledAtBank).toBe(10);
    expect(figures.transactionsBooked).toBeGreaterThan(10);
    expect(figures.transactionsExported).toEqual({
      'camt.053.001.02.xml': figures.transactionsBooked,
      csv: figures.transactionsBooked,
    });
    expect(figures.filesArchived).toBe(2);
    expect(figures.filesInError).toBe(2);
    expect(figures.reconciliationReports).toBeGreaterThanOrEqual(1);
  }, 360_000);
});
