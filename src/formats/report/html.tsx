// The finance report as one self-contained HTML page: summary counts and totals by currency
// first, then one table per finding type (the types that need a person first). No scripts and
// no external assets; the template engine escapes every text (src/html); tables have captions
// and header scopes. The sections are in sections.tsx, the columns of each type in columns.ts.
// The page is in the company's language (`locale`), its figures written as that language writes
// them (report-formats.ts).
import type { LocalDate } from '../../domain/local-date.js';
import type { Finding, FindingType } from '../../domain/reconcile/findings.js';
import type { AccountBalance, AgedItems } from '../../domain/reconcile/balances.js';
import type { ReconcileSummary } from '../../domain/reconcile/summary.js';
import { Document, InlineStyle, render, Sentence, type Html } from '../../html/index.js';
import { FALLBACK_LOCALE, t, withLocale, type Locale } from '../../i18n/index.js';
import { REPORT_CSS } from './html-style.js';
import { reportFormats, type ReportFormats } from './report-formats.js';
import { AcknowledgedSection, AgingSection, BalancesSection, Iban, SummarySection, TypeSection } from './sections.js';

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
   */
  infoRowLimit?: number;
  /**
   * Types that need a person, and the acknowledged findings, list at most this many rows each,
   * and say how many there are and that the CSV lists every one (a person decides them on the
   * console's Reconciliation page, filtered and paged). Default 1000, as the other types: 30,000
   * findings that need a person made an HTML page of 17.9 MB, more than MariaDB takes for the
   * report's recorded content (16 MB), and 100,000 one of 59.6 MB and 893 MB peak to render.
   */
  personRowLimit?: number;
  /** Balances per account and currency, shown after the summary. */
  balances?: readonly AccountBalance[];
  /** Open payments by age, shown after the balances. */
  aging?: readonly AgedItems[];
  /** The company's language (default English). */
  locale?: Locale;
}

export function renderFindingsHtml(
  meta: ReportMeta,
  findings: readonly Finding[],
  summary: ReconcileSummary,
  options: FindingsHtmlOptions = {},
): Html {
  const locale = options.locale ?? FALLBACK_LOCALE;
  return withLocale(locale, () => findingsPage(meta, findings, summary, options, reportFormats(locale)));
}

/** Rows a type that needs a person lists by default (FindingsHtmlOptions.personRowLimit). */
export const PERSON_ROW_LIMIT = 1000;

function findingsPage(
  meta: ReportMeta,
  findings: readonly Finding[],
  summary: ReconcileSummary,
  options: FindingsHtmlOptions,
  fmt: ReportFormats,
): Html {
  const limit = options.infoRowLimit ?? 1000;
  const personLimit = options.personRowLimit ?? PERSON_ROW_LIMIT;
  const day = (d: LocalDate | undefined) => (d ? fmt.date(d) : '…');
  const period =
    meta.from || meta.to
      ? t('reportReconciliation.period', { from: day(meta.from), to: day(meta.to) })
      : t('reportReconciliation.allOpen');
  const title = t('reportReconciliation.title', { company: meta.company });
  const zone = meta.timeZone ?? 'UTC';
  const { byType, acknowledged } = groupFindings(findings);
  const sections = summary.byType.flatMap((entry) => {
    const rows = byType.get(entry.type);
    if (!rows || rows.length === 0) return [];
    const shown = Math.min(rows.length, entry.needingPerson > 0 ? personLimit : limit);
    return [<TypeSection type={entry.type} rows={rows} shown={shown} fmt={fmt} />];
  });
  return render(
    <Document lang={fmt.locale}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{t('reportReconciliation.documentTitle', { title, period })}</title>
        <InlineStyle css={REPORT_CSS} />
      </head>
      <body>
        <header>
          <h1>{title}</h1>
          <p class="meta">
            <Sentence
              k="reportReconciliation.meta"
              values={{ period, generated: fmt.when(meta.generatedAt, zone, 'abbreviation'), runId: meta.runId }}
              tags={{ ref: (text) => <span class="ref">{text}</span> }}
            />
          </p>
          <Compared meta={meta} fmt={fmt} />
        </header>
        <main>
          <SummarySection summary={summary} fmt={fmt} />
          {options.balances && <BalancesSection rows={options.balances} fmt={fmt} />}
          {options.aging && <AgingSection rows={options.aging} fmt={fmt} />}
          {sections}
          {acknowledged.length > 0 && (
            <AcknowledgedSection
              rows={acknowledged}
              shown={Math.min(acknowledged.length, personLimit)}
              timeZone={zone}
              fmt={fmt}
            />
          )}
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
function Compared({ meta, fmt }: { meta: ReportMeta; fmt: ReportFormats }) {
  const c = meta.compared;
  if (!c || !meta.from || !meta.to) return null;
  const accounts =
    c.accounts.length > 0
      ? c.accounts.map((a, i) => [i > 0 ? ', ' : '', <Iban text={a} />])
      : t('reportReconciliation.noAccount');
  return (
    <p class="meta compared">
      <Sentence
        k="reportReconciliation.compared"
        values={{
          payments: c.payments,
          bookings: c.bookings,
          from: fmt.date(meta.from),
          to: fmt.date(meta.to),
          days: c.windowDays,
        }}
        tags={{ accounts: () => <>{accounts}</> }}
      />
      {c.receivables !== undefined && [' ', t('reportReconciliation.receivables', { count: c.receivables })]}
      {c.since && [' ', t('reportReconciliation.goLive', { since: fmt.date(c.since) })]}
    </p>
  );
}
