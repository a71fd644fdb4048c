// Benchmark of the template engine (`npm run bench`, issue #52): the console's Payments page with
// a long table and the reconciliation report, each rendered by the engine (src/html: hono/jsx,
// escaping by default) and by the string code it replaced (bench/page-templates/: that way of
// building HTML, writing today's text), on the same data with hostile text in it. The two take
// turns in paired rounds; the row gives each one's median rate and the notes the median of the
// rounds' ratios. The notes also say whether both wrote the same text (tags and whitespace aside),
// so the pair compares like with like; test/bench/templates-same-text.test.ts holds them to it.
import { performance } from 'node:perf_hooks';
import { businessCalendar } from '../src/domain/business-calendar.js';
import type { LocalDate } from '../src/domain/local-date.js';
import { reconcile } from '../src/domain/reconcile/index.js';
import type { Role } from '../src/domain/roles.js';
import { renderFindingsHtml } from '../src/formats/report/index.js';
import { render, showBidiControls } from '../src/html/index.js';
import type { ConsoleDeps, PageRequest } from '../src/server/console/page.js';
import { PaymentsFound } from '../src/server/console/pages/payments.js';
import type { StoredPayment } from '../src/store/index.js';
import { paymentsFoundByHand } from './page-templates/payments-by-hand.js';
import { renderFindingsHtmlByHand } from './page-templates/report-by-hand.js';
import { generate } from './reconcile.js';
import { median, type Bench, type BenchRow } from './row.js';

const HOSTILE = '<script>alert(1)</script> "Quote" & \u202Egnp.exe';

function payments(n: number): StoredPayment[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `p${String(i).padStart(9, '0')}`,
    fileId: 'f1',
    company: 'acme',
    lineNumber: i + 1,
    state: 'ACSC' as const,
    tppMessages: [],
    debtorIban: 'NO9386011117947',
    debtorName: 'Acme AS',
    requestedExecutionDate: '2026-01-06' as LocalDate,
    endToEndId: `E2E-${i}`,
    amount: { minor: 12_345n * BigInt(i + 1), currency: 'NOK' },
    creditorIban: 'NO8330001234567',
    creditorName: i % 10 === 0 ? HOSTILE : `Supplier ${i} AS`,
    creditorReference: String(1_000_000 + i),
    remittanceInformation: `Invoice ${i}`,
    ...(i % 25 === 0 ? { categoryPurpose: 'SALA' } : {}),
  }));
}

/**
 * The text a reader gets, tags and whitespace aside, bidirectional controls shown as code points
 * in both (the old report left them raw: a defect the engine's render fixed).
 */
export const textOf = (html: string) =>
  showBidiControls(html)
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, '');

/** Paired rounds of `times` renders each, the two in turns; rates per second and the median ratio. */
function pair(times: number, rounds: number, engine: () => string, byHand: () => string) {
  const rate = (f: () => string) => {
    const start = performance.now();
    for (let i = 0; i < times; i++) f();
    return (times * 1000) / (performance.now() - start);
  };
  // Warm both up.
  for (let i = 0; i < 3; i++) {
    engine();
    byHand();
  }
  const engineRates: number[] = [];
  const handRates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      engineRates.push(rate(engine));
      handRates.push(rate(byHand));
    } else {
      handRates.push(rate(byHand));
      engineRates.push(rate(engine));
    }
  }
  const ratios = engineRates.map((e, i) => e / handRates[i]!);
  return {
    engine: median(engineRates),
    byHand: median(handRates),
    ratio: median(ratios),
    sameText: textOf(engine()) === textOf(byHand()),
  };
}

const note = (p: ReturnType<typeof pair>, rounds: number) =>
  `median of ${rounds} paired rounds: the engine at ${p.ratio.toFixed(2)}× the string code's rate ` +
  `(${(1000 / p.engine).toFixed(2)} ms vs ${(1000 / p.byHand).toFixed(2)} ms a render); same text: ${p.sameText ? 'yes' : 'NO'}`;

/** The Payments page's data: `lines` payments found, a tenth with a hostile creditor, a twenty-fifth payroll. */
export function paymentsPageData(lines: number): { deps: ConsoleDeps; req: PageRequest; rows: StoredPayment[] } {
  const deps: ConsoleDeps = {
    store: undefined as never,
    clock: undefined as never,
    companies: [{ id: 'acme', name: 'Acme AS', timeZone: 'Europe/Oslo', organisationNumber: '999999999', bankIds: [] }],
  };
  const req: PageRequest = {
    user: {
      id: 'local:bench',
      person: 'bench',
      name: 'bench',
      rolesByCompany: new Map([['acme', new Set<Role>(['viewer'])]]),
    },
    company: 'acme',
    query: new URLSearchParams({ company: 'acme', creditor: HOSTILE }),
    params: {},
    csrfToken: 'bench',
  };
  return { deps, req, rows: payments(lines) };
}

/** The report's data: the findings of reconciling `n` generated payments, a fiftieth with a hostile creditor. */
export function reportData(n: number) {
  const data = generate(n);
  for (const p of data.payments.filter((_, i) => i % 50 === 0)) p.creditorName = HOSTILE;
  const meta = { company: 'Acme <Nordic> AS', runId: 'bench', generatedAt: new Date('2026-04-30T06:00:00Z') };
  const result = reconcile(data, {
    today: '2026-04-30' as LocalDate,
    now: new Date('2026-04-30T06:00:00Z'),
    calendar: businessCalendar('NO'),
  });
  return { meta, findings: result.findings, summary: result.summary };
}

export const bench: Bench = ({ quick }) => {
  const rounds = quick ? 5 : 15;
  const lines = 200;
  const { deps, req, rows } = paymentsPageData(lines);
  const page = pair(
    quick ? 20 : 100,
    rounds,
    () => render(PaymentsFound({ deps, req, rows, next: 'cursor' })),
    () => paymentsFoundByHand(deps, req, rows, 'cursor'),
  );

  const n = quick ? 1_000 : 5_000;
  const { meta, findings, summary } = reportData(n);
  const report = pair(
    quick ? 2 : 5,
    rounds,
    () => renderFindingsHtml(meta, findings, summary),
    () => renderFindingsHtmlByHand(meta, findings, summary),
  );
  const rss = process.resourceUsage().maxRSS * 1024;
  const out: BenchRow[] = [
    {
      key: 'templates-payments',
      name: `console Payments page, ${lines} lines, rendered`,
      size: lines,
      unit: 'pages',
      rate: page.engine,
      baselineName: 'the same page by string code',
      baselineRate: page.byHand,
      peakRssBytes: rss,
      notes: note(page, rounds),
    },
    {
      key: 'templates-report',
      name: `reconciliation report, ${findings.length.toLocaleString('en')} findings of ${n.toLocaleString('en')} payments, rendered`,
      size: findings.length,
      unit: 'reports',
      rate: report.engine,
      baselineName: 'the same report by string code',
      baselineRate: report.byHand,
      peakRssBytes: rss,
      notes: `${note(report, rounds)}; ${(renderFindingsHtml(meta, findings, summary).length / 1e6).toFixed(1)} MB of HTML`,
    },
  ];
  return Promise.resolve(out);
};
