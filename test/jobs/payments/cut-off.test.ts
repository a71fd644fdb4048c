// A bank's daily cut-off at submit, against the sandbox (whose Nordbank takes same-day payments
// until 14:00 Oslo time and refuses them after) with settle's and the sandbox's clocks moved
// together: before the cut-off a bulk dated today goes as it is; after it, it is sent for the
// next business day with a report naming each line (policy roll), or refused line by line
// (policy refuse). Without settle's cut-off the bank itself refuses it.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CutOffSettings } from '../../../jobs/submit/cut-off.js';
import { runStatusReport } from '../../../jobs/status/report.js';
import { runSubmit } from '../../../jobs/submit/submit.js';
import type { NightlyResult } from '../../../jobs/nightly/index.js';
import { nightlySummary } from '../../../src/main/alerts.js';
import { alertMessage } from '../../../src/alerts/index.js';
import { bankBulks, createWorld, NORMAL_IBAN, type World } from './world.js';

const TODAY = '2026-01-05' as never; // a Monday; the world starts at 09:00 Oslo time
const NORDBANK: CutOffSettings['banks'] = { nordbank: { time: '14:00', timeZone: 'Europe/Oslo', calendar: 'NO' } };
const HOUR = 3600_000;

describe('bank cut-off at submit', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld({ company: { bankId: 'nordbank' } });
    // The company's operating account is at Nordbank.
    for (const account of w.sandbox.sandbox.state.accounts.values())
      if (account.iban === NORMAL_IBAN) account.bankId = 'nordbank';
  });
  afterEach(async () => {
    await w.close();
  });

  async function reports(): Promise<string[]> {
    return (await readdir(join(w.company.root, w.company.folders.reports)).catch(() => [])).filter((n) =>
      n.startsWith('cut-off-'),
    );
  }

  it('sends a bulk dated today as it is before the cut-off', async () => {
    await w.acceptFile('today.csv', [{ requestedExecutionDate: TODAY }]);
    w.advance(4 * HOUR); // 13:00 Oslo
    const summary = await runSubmit(w.deps('a', { cutOff: { policy: 'roll', banks: NORDBANK } }), [w.company]);
    expect(summary.bulks.map((b) => b.outcome)).toEqual(['sent']);
    expect(summary.bulks[0]!.explanation).toBeUndefined();
    const [atBank] = (await bankBulks(w)) as unknown as { requestedExecutionDate: string }[];
    expect(atBank!.requestedExecutionDate).toBe('2026-01-05');
    expect(await reports()).toEqual([]);
  });

  it('rolls a bulk dated today to the next business day after the cut-off, and tells the accountant line by line', async () => {
    const fileId = await w.acceptFile('late.csv', [
      { requestedExecutionDate: TODAY },
      { requestedExecutionDate: TODAY, endToEndId: 'ERP-77', amount: { minor: 123_456n, currency: 'NOK' } },
    ]);
    w.advance(5 * HOUR + 30 * 60_000); // 14:30 Oslo
    const summary = await runSubmit(w.deps('a', { cutOff: { policy: 'roll', banks: NORDBANK } }), [w.company]);
    expect(summary.bulks.map((b) => b.outcome)).toEqual(['sent']);
    expect(summary.bulks[0]!.explanation).toMatch(/Sent for 2026-01-06.*cut-off 14:00/);
    const [atBank] = (await bankBulks(w)) as unknown as { requestedExecutionDate: string }[];
    expect(atBank!.requestedExecutionDate).toBe('2026-01-06');
    const [bulk] = await w.store.bulks.listByFile(fileId);
    expect(bulk!.executionDate).toBe('2026-01-06');
    // The lines keep the date the ERP asked for.
    expect((await w.store.payments.listByFile(fileId)).map((p) => p.requestedExecutionDate)).toEqual([
      '2026-01-05',
      '2026-01-05',
    ]);
    const [name] = await reports();
    expect(name).toBeDefined();
    const text = await readFile(join(w.company.root, w.company.folders.reports, name!), 'utf8');
    expect(text).toContain('File:     late.csv');
    expect(text).toMatch(/^2\s+ERP-77\s+Leverandor AS\s+1234\.56 NOK\s+2026-01-05\s+2026-01-06\s*$/m);
    expect(text).toMatch(/^1\s+E2E-1-1\s/m);
    // A second run sends nothing again.
    const again = await runSubmit(w.deps('b', { cutOff: { policy: 'roll', banks: NORDBANK } }), [w.company]);
    expect(again.bulks).toEqual([]);
    expect(await bankBulks(w)).toHaveLength(1);
  });

  it('rolls over a weekend: Friday after the cut-off goes on Monday', async () => {
    w.advance(4 * 24 * HOUR + 6 * HOUR); // Friday 2026-01-09, 15:00 Oslo
    await w.acceptFile('friday.csv', [{ requestedExecutionDate: '2026-01-09' as never }]);
    const summary = await runSubmit(w.deps('a', { cutOff: { policy: 'roll', banks: NORDBANK } }), [w.company]);
    expect(summary.bulks[0]).toMatchObject({ outcome: 'sent' });
    const [atBank] = (await bankBulks(w)) as unknown as { requestedExecutionDate: string }[];
    expect(atBank!.requestedExecutionDate).toBe('2026-01-12');
  });

  it('refuses a bulk dated today after the cut-off when the policy says refuse, with the reason on every line', async () => {
    const fileId = await w.acceptFile('late.csv', [
      { requestedExecutionDate: TODAY },
      { requestedExecutionDate: TODAY },
    ]);
    w.advance(6 * HOUR); // 15:00 Oslo
    const summary = await runSubmit(w.deps('a', { cutOff: { policy: 'refuse', banks: NORDBANK } }), [w.company]);
    expect(summary.bulks.map((b) => b.outcome)).toEqual(['rejected']);
    expect(summary.bulks[0]!.explanation).toMatch(/cut-off 14:00.*2026-01-06 or later/);
    expect((await w.store.payments.listByFile(fileId)).map((p) => p.state)).toEqual(['RJCT', 'RJCT']);
    expect(await bankBulks(w)).toEqual([]);
    expect(await reports()).toEqual([]);
    // The ERP's status file and the accountant's refused-lines report carry the reason per line.
    const [written] = await runStatusReport(w.deps('b'), [w.company]);
    expect(written!.refused.map((r) => r.lineNumber)).toEqual([1, 2]);
    expect(JSON.stringify(written!.refused[0])).toMatch(/cut-off 14:00/);
  });

  /** The alert of the lines a refused cut-off left unpaid, as the mail of a company of `locale` reads it. */
  async function cutOffAlert(locale: 'en' | 'nb') {
    await w.acceptFile('late.csv', [{ requestedExecutionDate: TODAY }]);
    w.advance(6 * HOUR); // 15:00 Oslo
    await runSubmit(w.deps('a', { cutOff: { policy: 'refuse', banks: NORDBANK } }), [w.company]);
    const written = await runStatusReport(w.deps('b'), [{ ...w.company, locale }]);
    const night = { runId: 'run-1', steps: [], picked: [], statusReports: written, exitCode: 1 };
    const [finding] = nightlySummary(night as unknown as NightlyResult, w.clock.now(), w.clock.now()).findings;
    return alertMessage(finding!, locale);
  }

  it('says a passed cut-off, and every line not paid, in bokmål in the alert of a company with locale nb', async () => {
    const mail = await cutOffAlert('nb');
    expect(mail.subject).toBe('[settle] acme: 1 linje i late.csv ble ikke betalt');
    const [line, reason, action] = mail.text.split('\n');
    expect(line).toBe('Linje 1 (E2E-1-1), Leverandor AS, 100,00\u00a0kr: RJCT');
    expect(reason).toBe(
      '  Bankens begrunnelse: DT01: Forfallsdatoen 05.01.2026 er i dag, og fristen hos nordbank (14:00) var passert da settle sendte betalingene (05.01.2026, 15:00); tidligste forfallsdato er 06.01.2026',
    );
    expect(action).toMatch(/^ {2}Hva du gjør: {9}\S/);
    expect(mail.text).toMatch(
      /\nDen samme listen står i reports\/refused-late\.csv\.[^ ]+\.txt \(og \.html ved siden av\)\.\nStatusfilene til ERP-systemet: /,
    );
    expect(mail.text).not.toMatch(/execution date|cut-off|The same list|What to do/);
    // The webhook's payload keeps the English.
    expect(mail.payload.title).toBe('acme: 1 line(s) of late.csv were not paid');
  });

  it('keeps the English alert of a passed cut-off byte for byte for an English company', async () => {
    const mail = await cutOffAlert('en');
    expect(mail.subject).toBe('[settle] acme: 1 line(s) of late.csv were not paid');
    expect(mail.text.split('\n').slice(0, 3)).toEqual([
      'Line 1 (E2E-1-1), Leverandor AS, 100.00 NOK: RJCT',
      "  The bank's reason: DT01: requestedExecutionDate execution date 2026-01-05 is today, and nordbank's cut-off 14:00 had passed when settle sent the payments (2026-01-05 15:00 Europe/Oslo); the earliest date is 2026-01-06",
      '  What to do:        Correct the execution date in the ERP (a future business day) and send the payment in a new file.',
    ]);
    expect(mail.text).toMatch(/\nThe same list is in .+ \(and \.html beside it\)\.\nThe ERP's status files: /);
  });

  it('without a configured cut-off the bank itself refuses a bulk dated today after its cut-off', async () => {
    await w.acceptFile('late.csv', [{ requestedExecutionDate: TODAY }]);
    w.advance(6 * HOUR); // 15:00 Oslo
    const summary = await runSubmit(w.deps('a'), [w.company]);
    expect(summary.bulks.map((b) => b.outcome)).toEqual(['rejected']);
    const [bulk] = await w.store.bulks.listByFile((await w.store.files.listFiles())[0]!.id);
    expect(JSON.stringify(bulk!.lastProblem)).toMatch(/cut-off 14:00.*earliest execution date is 2026-01-06/);
  });
});
