// The finance report as one self-contained HTML page: summary counts and totals by currency
// first, then one table per finding type (the types that need a person first). No scripts and
// no external assets; the template engine escapes every text (src/html); tables have captions
// and header scopes. The sections are in sections.tsx, the columns of each type in columns.ts.
import type { LocalDate } from '../../domain/local-date.js';
import { FINDING_TYPES, type Finding, type FindingType } from '../../domain/reconcile/findings.js';
import type { AccountBalance, AgedItems } from '../../domain/reconcile/balances.js';
import type { ReconcileSummary } from '../../domain/reconcile/summary.js';
import { Document, InlineStyle, render, When, type Html } from '../../html/index.js';
import { REPORT_CSS } from './html-style.js';
import {
  AcknowledgedSection,
  AgingSection,
  BalancesSection,
  Iban,
  plural,
  SummarySection,
  TypeSection,
} from './sections.js';

export interface ReportMeta {
  company: string;
  runId: string;
  from?: LocalDate;
  to?: LocalDate;
  generatedAt: Date;
  /** The company's time zone: every time on the page is shown in it. Default UTC. */
  timeZone?: string;
  /** What the run compared, said in the header. */
  compared?: ComparedScope;
}

export interface ComparedScope {
  /** Payments executed in the period. */
  payments: number;
  /** Bookings dated in the period. */
  bookings: number;
  accounts: readonly string[];
  /** Days beyond the period on both sides that matching looked at. */
  windowDays: number;
  /** The company's go-live date, when set. */
  since?: LocalDate;
  /** Open receivables credits were matched to, when the company keeps them in settle. */
  receivables?: number;
}

export interface FindingsHtmlOptions {
  /**
   * Types that need no person (matched, awaiting booking, rejected and re-sent, date
   * differences) list at most this many rows; the CSV always has every row. Default 1000.
   * Types that need a person are always listed in full.
   */
  infoRowLimit?: number;
  /** Balances per account and currency, shown after the summary. */
  balances?: readonly AccountBalance[];
  /** Open payments by age, shown after the balances. */
  aging?: readonly AgedItems[];
}

export function renderFindingsHtml(
  meta: ReportMeta,
  findings: readonly Finding[],
  summary: ReconcileSummary,
  options: FindingsHtmlOptions = {},
): Html {
  const limit = options.infoRowLimit ?? 1000;
  const period = meta.from || meta.to ? `${meta.from ?? '…'} to ${meta.to ?? '…'}` : 'all open items';
  const title = `Reconciliation report: ${meta.company}`;
  const zone = meta.timeZone ?? 'UTC';
  const { byType, acknowledged } = groupFindings(findings);
  const sections = summary.byType.flatMap((entry) => {
    const rows = byType.get(entry.type);
    if (!rows || rows.length === 0) return [];
    const info = FINDING_TYPES[entry.type];
    const shown = entry.needingPerson > 0 ? rows.length : Math.min(rows.length, limit);
    return [<TypeSection type={entry.type} title={info.title} action={info.action} rows={rows} shown={shown} />];
  });
  return render(
    <Document lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title}, ${period}`}</title>
        <InlineStyle css={REPORT_CSS} />
      </head>
      <body>
        <header>
          <h1>{title}</h1>
          <p class="meta">
            Period: {period} · Generated <When at={meta.generatedAt} zone={zone} zoneName="abbreviation" /> · Run{' '}
            <span class="ref">{meta.runId}</span>
          </p>
          <Compared meta={meta} />
        </header>
        <main>
          <SummarySection summary={summary} />
          {options.balances && <BalancesSection rows={options.balances} />}
          {options.aging && <AgingSection rows={options.aging} />}
          {sections}
          {acknowledged.length > 0 && <AcknowledgedSection rows={acknowledged} timeZone={zone} />}
        </main>
      </body>
    </Document>,
  );
}

/** The findings by type, in the order found, and those a person acknowledged apart. */
export function groupFindings(findings: readonly Finding[]): {
  byType: Map<FindingType, Finding[]>;
  acknowledged: Finding[];
} {
  const byType = new Map<FindingType, Finding[]>();
  const acknowledged: Finding[] = [];
  for (const finding of findings) {
    if (finding.acknowledged) {
      acknowledged.push(finding);
      continue;
    }
    const list = byType.get(finding.type);
    if (list) list.push(finding);
    else byType.set(finding.type, [finding]);
  }
  return { byType, acknowledged };
}

/** What the run compared: payments and bookings of the period, on which accounts, how far either side. */
function Compared({ meta }: { meta: ReportMeta }) {
  const c = meta.compared;
  if (!c || !meta.from || !meta.to) return null;
  const accounts =
    c.accounts.length > 0 ? c.accounts.map((a, i) => [i > 0 ? ', ' : '', <Iban text={a} />]) : 'no account';
  const since = c.since ? ` Go-live ${c.since}: nothing sent or booked before it is reported.` : '';
  const receivables =
    c.receivables === undefined
      ? ''
      : ` Credits were matched to ${c.receivables} open receivable${plural(c.receivables)}.`;
  return (
    <p class="meta compared">
      {`Compared ${c.payments} payment${plural(c.payments)} for execution from ${meta.from} to ${meta.to} `}
      {`with ${c.bookings} booking${plural(c.bookings)} dated ${meta.from} to ${meta.to} on `}
      {accounts}
      {`; matching also looked ${c.windowDays} day${plural(c.windowDays)} either side.${receivables}${since}`}
    </p>
  );
}
