// The payment controls as pure functions: what each rule holds, its evidence, and what it lets by.
import { describe, expect, it } from 'vitest';
import {
  creditorKey,
  FileControls,
  NO_CONTROLS,
  parseKnownAccounts,
  PayeeHistory,
  type ControlSettings,
} from '../../src/domain/controls/index.js';
import { toLocalDate } from '../../src/domain/local-date.js';
import type { PaymentInstruction } from '../../src/domain/payment.js';

const pay = (n: number, minor: bigint, over: Partial<PaymentInstruction> = {}): PaymentInstruction => ({
  debtorIban: 'NO9386011117947',
  debtorName: 'ACME AS',
  requestedExecutionDate: toLocalDate('2026-01-09'),
  endToEndId: `E-${n}`,
  amount: { minor, currency: 'NOK' },
  creditorIban: 'NO0612000000009',
  creditorName: 'Oslo Trykkeri AS',
  lineNumber: n + 1,
  ...over,
});

const controls = (settings: Partial<ControlSettings>, history = new PayeeHistory(), at = '2026-01-05T08:00:00Z') =>
  new FileControls({
    settings: { ...NO_CONTROLS, ...settings },
    history,
    dayTotals: new Map(),
    receivedAt: new Date(at),
    timeZone: 'Europe/Oslo',
    today: toLocalDate('2026-01-05'),
  });

describe('payment controls', () => {
  it('a creditor is the same however the ERP spells case, spaces and punctuation', () => {
    expect(creditorKey('Oslo Trykkeri A/S')).toBe(creditorKey('OSLO  TRYKKERI AS'));
  });

  it('holds the lines that pass the file limit, not counting held lines, and lets smaller ones by', () => {
    const c = controls({ limits: { perFile: { NOK: '100.00' } } });
    const held = [6000n, 5000n, 3000n, 2000n].map((m, i) => c.check(pay(i, m))?.rules);
    expect(held).toEqual([undefined, ['limit-file'], undefined, ['limit-file']]);
  });

  it("a debtor account's own limit replaces the company's for its currency", () => {
    const c = controls({
      limits: { perLine: { NOK: '10.00' } },
      accountLimits: { NO9386011117947: { perLine: { NOK: '1000.00' } } },
    });
    expect(c.check(pay(1, 50_000n))).toBeUndefined();
    expect(c.check(pay(2, 50_000n, { debtorIban: 'NO7215031234562' }))).toMatchObject({
      rules: ['limit-line'],
      releases: 2,
      evidence: 'limit-line: 500.00 NOK is above the limit of 10.00 NOK a line',
    });
  });

  it("each line's limits are its own debtor account's and currency's, however a file's lines alternate", () => {
    const c = controls({
      limits: { perLine: { NOK: '10.00', EUR: '5.00' }, perDebtorDay: { NOK: '2000.00' } },
      accountLimits: { NO9386011117947: { perLine: { NOK: '1000.00' } } },
    });
    const checked = [
      pay(1, 50_000n),
      pay(2, 50_000n, { debtorIban: 'NO7215031234562' }),
      // The same account written otherwise: its own limit, and the same day's total.
      pay(3, 50_000n, { debtorIban: 'no93 8601 1117 947' }),
      pay(4, 600n, { amount: { minor: 600n, currency: 'EUR' } }),
      pay(5, 50_000n),
      pay(6, 60_000n, { debtorIban: 'NO93 8601 1117 947' }),
    ].map((p) => c.check(p));
    expect(checked.map((hit) => hit?.rules)).toEqual([
      undefined,
      ['limit-line'],
      undefined,
      ['limit-line'],
      undefined,
      ['limit-debtor-day'],
    ]);
    expect(checked[5]?.evidence).toBe(
      'limit-debtor-day: NO9386011117947 already sends 1500.00 NOK on 2026-01-09; with this 600.00 NOK it passes the limit of 2000.00 NOK a day',
    );
  });

  it('hours that span midnight, and days', () => {
    const hours = { from: '22:00', to: '06:00', days: [0, 1, 2, 3, 4, 5, 6] };
    expect(controls({ hours }, undefined, '2026-01-05T23:30:00Z').check(pay(1, 1n))).toBeUndefined();
    expect(controls({ hours }, undefined, '2026-01-05T12:00:00Z').check(pay(1, 1n))?.rules).toEqual(['unusual-time']);
    const weekdays = { from: '00:00', to: '23:59', days: [1, 2, 3, 4, 5] };
    expect(controls({ hours: weekdays }, undefined, '2026-01-04T12:00:00Z').check(pay(1, 1n))?.evidence).toMatch(
      /arrived sun 13:00 Europe\/Oslo/,
    );
  });

  it('the account rules: a changed account always, a new account only from go-live', () => {
    const history = new PayeeHistory();
    history.add('NO0612000000009', 'Oslo Trykkeri AS', 14, '2025-03-02');
    const other = { creditorIban: 'NO8330001234567' };
    expect(controls({ changedAccount: true }, history).check(pay(1, 1n, other))?.evidence).toBe(
      'changed-account: "Oslo Trykkeri AS" was paid to NO0612000000009 14 times since 2025-03; this line pays NO8330001234567',
    );
    const stranger = { ...other, creditorName: 'Ny Leverandor AS' };
    expect(controls({ newAccount: true }, history).check(pay(1, 1n, stranger))).toBeUndefined();
    // The go-live day itself, and a company without any history, are the baseline.
    const onGoLive = controls({ newAccount: true, goLive: toLocalDate('2026-01-05') }, history);
    expect(onGoLive.check(pay(1, 1n, stranger))).toBeUndefined();
    const live = { newAccount: true, goLive: toLocalDate('2026-01-04') };
    expect(controls(live, new PayeeHistory()).check(pay(1, 1n, stranger))).toBeUndefined();
    expect(controls(live, history).check(pay(1, 1n, stranger))?.rules).toEqual(['new-account']);
  });

  it('knows a creditor by organisation number, then ERP creditor id, then name', () => {
    const history = new PayeeHistory();
    history.add('NO0612000000009', { name: 'Oslo Trykkeri AS', orgId: '999888777' }, 14, '2025-03-02');
    history.add('NO5812000079195', { name: 'Bergen Bygg AS', creditorId: 'K-1001' }, 2, '2025-11-20');
    const changed = (over: Partial<PaymentInstruction>) =>
      controls({ changedAccount: true }, history).check(pay(1, 1n, over));

    // The same number under another name, to a new account: held, the evidence names the number.
    expect(
      changed({ creditorName: 'Trykkeriet Oslo', creditorOrgId: '999888777', creditorIban: 'NO8330001234567' }),
    ).toMatchObject({
      rules: ['changed-account'],
      releases: 2,
      evidence:
        'changed-account: creditor org. no. 999888777 ("Trykkeriet Oslo") was paid to NO0612000000009 14 times since 2025-03; this line pays NO8330001234567',
    });
    // The same ERP creditor id, without a number: held by the id.
    expect(changed({ creditorName: 'BB AS', creditorId: 'K-1001', creditorIban: 'NO8330001234567' })?.evidence).toBe(
      'changed-account: ERP creditor id K-1001 ("BB AS") was paid to NO5812000079195 2 times since 2025-11; this line pays NO8330001234567',
    );
    // The first key paid before decides: the number was paid to this account, so the name's other
    // account (a namesake) does not hold it.
    history.add('NO8330001234567', { name: 'Oslo Trykkeri AS', orgId: '912345678' }, 1, '2025-12-01');
    expect(changed({ creditorOrgId: '912345678', creditorIban: 'NO8330001234567' })).toBeUndefined();
    // A number or id never paid before: the name is the key, as before.
    expect(
      changed({ creditorOrgId: '111222333', creditorId: 'K-9', creditorIban: 'NO9386011117947' })?.evidence,
    ).toMatch(/^changed-account: "Oslo Trykkeri AS" was paid to /);
    // A different number, a new name, a new account: nothing known, nothing held by this rule.
    expect(
      changed({ creditorName: 'Ny AS', creditorOrgId: '111222333', creditorIban: 'NO9386011117947' }),
    ).toBeUndefined();
  });

  it('the known-accounts file: located problems, comments and names', () => {
    expect(parseKnownAccounts('# old bank\nNO06 1200 0000 009,Oslo Trykkeri AS\n\nNO8330001234567\n', 'k.csv')).toEqual(
      {
        ok: true,
        accounts: [{ account: 'NO0612000000009', name: 'Oslo Trykkeri AS' }, { account: 'NO8330001234567' }],
      },
    );
    expect(parseKnownAccounts('NO8330001234567\nOslo Trykkeri\n', 'k.csv')).toEqual({
      ok: false,
      problems: ['k.csv line 2: "Oslo Trykkeri" does not start with an IBAN'],
    });
    // A creditor's ids, tagged, anywhere after the account; the untagged rest is the name, commas and all.
    expect(
      parseKnownAccounts('NO8330001234567,org:999888777,Oslo Trykkeri, avd. Bergen AS, ID: K-1001\n', 'k.csv'),
    ).toEqual({
      ok: true,
      accounts: [
        { account: 'NO8330001234567', name: 'Oslo Trykkeri, avd. Bergen AS', orgId: '999888777', creditorId: 'K-1001' },
      ],
    });
    expect(parseKnownAccounts(`NO8330001234567,org:\nNO0612000000009,id:${'K'.repeat(36)}\n`, 'k.csv')).toEqual({
      ok: false,
      problems: [
        'k.csv line 1: "org:" needs an id of 1 to 35 characters after org:',
        `k.csv line 2: "id:${'K'.repeat(36)}" needs an id of 1 to 35 characters after id:`,
      ],
    });
  });
});
