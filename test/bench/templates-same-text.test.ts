// The templates bench (bench/templates.ts) times each page beside the string code it replaced
// (bench/page-templates/); that compares like with like only while both write the reader the same
// text. A change to a page that forgets its copy fails here, not in a benchmark hours later.
import { describe, expect, it } from 'vitest';
import { paymentsFoundByHand } from '../../bench/page-templates/payments-by-hand.js';
import { renderFindingsHtmlByHand } from '../../bench/page-templates/report-by-hand.js';
import { generate } from '../../bench/reconcile.js';
import { paymentsPageData, reportData, textOf } from '../../bench/templates.js';
import { businessCalendar } from '../../src/domain/business-calendar.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import { accountBalances, agedItems, summarise, type Finding } from '../../src/domain/reconcile/index.js';
import { renderFindingsHtml, type FindingsHtmlOptions } from '../../src/formats/report/index.js';
import { render } from '../../src/html/index.js';
import { withLocale, type Locale } from '../../src/i18n/index.js';
import { PaymentsFound } from '../../src/server/console/pages/payments.js';

/** The text as lines (each tag a line break), so a failure shows where the two part. */
const lines = (html: string) =>
  html
    .split(/<[^>]*>/)
    .map(textOf)
    .filter(Boolean);

function expectSameText(engine: string, byHand: string) {
  expect(lines(byHand)).toEqual(lines(engine));
  expect(textOf(byHand)).toBe(textOf(engine));
}

describe("the templates bench's string-code copies write the same text as the engine's pages", () => {
  it("the Payments page, on the bench's data (hostile creditors, payroll lines hidden)", () => {
    const { deps, req, rows } = paymentsPageData(30);
    const engine = render(PaymentsFound({ deps, req, rows, next: 'cursor' }));
    expectSameText(engine, paymentsFoundByHand(deps, req, rows, 'cursor'));
    // The data has what the comparison is about: a grouped amount, a hostile name, a hidden payroll line.
    expect(engine).toContain('1,234.50 NOK');
    expect(engine).toContain('&lt;script&gt;');
    expect(engine).toContain('payroll (hidden)');
  });

  it.each<Locale>(['en', 'nb'])('the Payments page in %s: empty, on a later page, for the payroll role', (locale) => {
    const { deps, req } = paymentsPageData(0);
    req.query.set('after', 'cursor-1');
    const payroll = {
      ...req,
      user: { ...req.user, rolesByCompany: new Map([['acme', new Set(['payroll' as const])]]) },
    };
    const { rows } = paymentsPageData(26);
    for (const [request, found, next] of [
      [req, [], undefined],
      [payroll, rows, 'cursor-2'],
    ] as const)
      withLocale(locale, () =>
        expectSameText(
          render(PaymentsFound({ deps, req: request, rows: found, next })),
          paymentsFoundByHand(deps, request, found, next),
        ),
      );
  });

  it("the reconciliation report, on the bench's data", () => {
    const { meta, findings, summary } = reportData(200);
    const engine = renderFindingsHtml(meta, findings, summary);
    expectSameText(engine, renderFindingsHtmlByHand(meta, findings, summary));
    // Grouped totals, and types with no findings named apart from the table.
    expect(engine).toMatch(/\d,\d{3}\.\d{2} NOK/);
    expect(engine).toContain('finding types had nothing');
  });

  it.each<Locale>(['en', 'nb'])(
    'the reconciliation report in %s with what the bench leaves out: period, balances, age, acknowledged, cut lists',
    (locale) => {
      const data = generate(200);
      const from = '2026-03-02' as LocalDate;
      const to = '2026-04-10' as LocalDate;
      const { meta, findings } = reportData(200);
      // Some findings a person acknowledged, one of them a confirmed match.
      const decided: Finding[] = findings.map((f, i) =>
        i % 40 === 0
          ? {
              ...f,
              needsPerson: false,
              acknowledged: {
                kind: i === 0 ? 'confirmed' : 'acknowledged',
                by: 'ola <ops>',
                at: new Date('2026-04-02T10:00:00Z'),
                reason: i === 40 ? 'fee "agreed" & booked' : undefined,
              },
            }
          : f,
      );
      const summary = summarise(decided);
      const options: FindingsHtmlOptions = {
        locale,
        infoRowLimit: 3,
        personRowLimit: 2,
        balances: [
          ...accountBalances({ from, to }, data.payments, data.transactions, []),
          {
            accountIban: 'NO9386011117947',
            currency: 'EUR',
            opening: { minor: 1_000_000_00n, currency: 'EUR' },
            sent: { minor: 12_345_67n, currency: 'EUR' },
            bookedOut: { minor: 12_345_67n, currency: 'EUR' },
            bookedIn: { minor: 0n, currency: 'EUR' },
            closing: { minor: 987_654_33n, currency: 'EUR' },
            reported: { minor: 987_654_00n, currency: 'EUR' },
            difference: { minor: 33n, currency: 'EUR' },
          },
        ],
        aging: agedItems(decided, '2026-04-30' as LocalDate, businessCalendar('NO')),
      };
      const full = {
        ...meta,
        from,
        to,
        timeZone: 'Europe/Oslo',
        compared: {
          payments: 200,
          bookings: 1,
          accounts: ['NO9386011117947', 'NO9386011117948'],
          windowDays: 5,
          since: '2026-03-01' as LocalDate,
          receivables: 3,
        },
      };
      const engine = renderFindingsHtml(full, decided, summary, options);
      expectSameText(engine, renderFindingsHtmlByHand(full, decided, summary, options));
      // Every part is there to compare: the scope, balances, ages, acknowledged findings and cut lists.
      for (const id of ['balances', 'aging', 'acknowledged']) expect(engine).toContain(`<h2 id="${id}">`);
      expect(engine).toContain('class="meta compared"');
      expect(engine).toContain('ola &lt;ops&gt;');
      expect(engine).toContain('class="truncated"');
      const none = { ...full, compared: { ...full.compared, accounts: [], receivables: undefined, since: undefined } };
      expectSameText(
        renderFindingsHtml(none, [], summarise([]), { locale, balances: [], aging: [] }),
        renderFindingsHtmlByHand(none, [], summarise([]), { locale, balances: [], aging: [] }),
      );
    },
  );
});
