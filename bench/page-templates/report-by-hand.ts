// The reconciliation report as settle rendered it before the template engine: string
// concatenation with escaping by hand. Kept only as the baseline of the templates bench
// (bench/templates.ts); the report itself is src/formats/report/html.tsx and sections.tsx. Its
// way of building HTML stays as it was; its text follows the report (the same sections in the
// same order, the same catalogue sentences, figures through the same report formats), so the
// bench compares like with like (test/bench/templates-same-text.test.ts).
import type { Finding, FindingType } from '../../src/domain/reconcile/findings.js';
import type { AccountBalance, AgedItems } from '../../src/domain/reconcile/balances.js';
import type { ReconcileSummary } from '../../src/domain/reconcile/summary.js';
import type { LocalDate } from '../../src/domain/local-date.js';
import type { Money } from '../../src/domain/money.js';
import {
  currentLocale,
  FALLBACK_LOCALE,
  recordedSentence,
  t,
  translateParts,
  withLocale,
  type MessageKey,
  type MessageValues,
} from '../../src/i18n/index.js';
import { COLUMNS_OF } from '../../src/formats/report/columns.js';
import { reportFormats, type ReportFormats } from '../../src/formats/report/report-formats.js';
import { REPORT_CSS } from '../../src/formats/report/html-style.js';
import {
  groupFindings,
  PERSON_ROW_LIMIT,
  type FindingsHtmlOptions,
  type ReportMeta,
} from '../../src/formats/report/html.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const e = (text: string): string => text.replace(/[&<>"']/g, (ch) => ENTITIES[ch] ?? ch);

/** A catalogue sentence, escaped, its tagged parts made HTML by `tags` (which escape their text). */
function sentence(k: MessageKey, values: MessageValues, tags: Record<string, (text: string) => string>): string {
  const made = Object.fromEntries(
    Object.entries(tags).map(([name, f]) => [name, (text: string) => ({ html: f(text) })]),
  );
  return translateParts<{ html: string }>(currentLocale(), k, values, made)
    .map((part) => (typeof part === 'string' ? e(part) : part.html))
    .join('');
}

const typeTitle = (type: FindingType): string => t(`findingType.${type}.title`);
const th = (text: string) => `<th scope="col">${e(text)}</th>`;
const thNum = (key: MessageKey) => `<th scope="col" class="num">${e(t(key))}</th>`;
const totals = (list: readonly Money[], fmt: ReportFormats) => list.map((m) => e(fmt.money(m))).join('<br>');

export function renderFindingsHtmlByHand(
  meta: ReportMeta,
  findings: readonly Finding[],
  summary: ReconcileSummary,
  options: FindingsHtmlOptions = {},
): string {
  const locale = options.locale ?? FALLBACK_LOCALE;
  return withLocale(locale, () => findingsPage(meta, findings, summary, options, reportFormats(locale)));
}

function findingsPage(
  meta: ReportMeta,
  findings: readonly Finding[],
  summary: ReconcileSummary,
  options: FindingsHtmlOptions,
  fmt: ReportFormats,
): string {
  const limit = options.infoRowLimit ?? 1000;
  const personLimit = options.personRowLimit ?? PERSON_ROW_LIMIT;
  const day = (d: LocalDate | undefined) => (d ? fmt.date(d) : '…');
  const period =
    meta.from || meta.to
      ? t('reportReconciliation.period', { from: day(meta.from), to: day(meta.to) })
      : t('reportReconciliation.allOpen');
  const title = t('reportReconciliation.title', { company: meta.company });
  const zone = meta.timeZone ?? 'UTC';
  const out: string[] = [];
  out.push(
    '<!doctype html>',
    `<html lang="${e(fmt.locale)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(t('reportReconciliation.documentTitle', { title, period }))}</title>`,
    `<style>${REPORT_CSS}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${e(title)}</h1>`,
    `<p class="meta">${sentence(
      'reportReconciliation.meta',
      { period, generated: fmt.when(meta.generatedAt, zone, 'abbreviation'), runId: meta.runId },
      { ref: (text) => `<span class="ref">${e(text)}</span>` },
    )}</p>`,
    ...comparedLine(meta, fmt),
    '</header>',
    '<main>',
  );
  out.push(...summarySection(summary, fmt));
  if (options.balances) out.push(...balancesSection(options.balances, fmt));
  if (options.aging) out.push(...agingSection(options.aging, fmt));
  const { byType, acknowledged } = groupFindings(findings);
  for (const entry of summary.byType) {
    const rows = byType.get(entry.type);
    if (!rows || rows.length === 0) continue;
    const shown = Math.min(rows.length, entry.needingPerson > 0 ? personLimit : limit);
    for (const line of typeSection(entry.type, rows, shown, fmt)) out.push(line);
  }
  if (acknowledged.length > 0)
    out.push(...acknowledgedSection(acknowledged, Math.min(acknowledged.length, personLimit), zone, fmt));
  out.push('</main>', '</body>', '</html>', '');
  return out.join('\n');
}

function comparedLine(meta: ReportMeta, fmt: ReportFormats): string[] {
  const c = meta.compared;
  if (!c || !meta.from || !meta.to) return [];
  const accounts = c.accounts.length > 0 ? c.accounts.map(iban).join(', ') : e(t('reportReconciliation.noAccount'));
  const said = sentence(
    'reportReconciliation.compared',
    {
      payments: c.payments,
      bookings: c.bookings,
      from: fmt.date(meta.from),
      to: fmt.date(meta.to),
      days: c.windowDays,
    },
    { accounts: () => accounts },
  );
  const receivables =
    c.receivables === undefined ? '' : ` ${e(t('reportReconciliation.receivables', { count: c.receivables }))}`;
  const since = c.since ? ` ${e(t('reportReconciliation.goLive', { since: fmt.date(c.since) }))}` : '';
  return [`<p class="meta compared">${said}${receivables}${since}</p>`];
}

/** Escapes a text and wraps every IBAN in it so it never breaks inside the number. */
function keepIbansWhole(text: string): string {
  return text
    .split(/\b([A-Z]{2}\d{2}[A-Z0-9]{8,30})\b/)
    .map((part, i) => (i % 2 === 1 ? iban(part) : e(part)))
    .join('');
}

/** An IBAN in groups of four that never breaks inside the number. */
function iban(text: string): string {
  return `<span class="iban">${e(text.replace(/(.{4})(?=.)/g, '$1\u00a0'))}</span>`;
}

function summarySection(summary: ReconcileSummary, fmt: ReportFormats): string[] {
  const out: string[] = [
    '<section aria-labelledby="summary">',
    `<h2 id="summary">${e(t('reportReconciliation.summary'))}</h2>`,
  ];
  const acked =
    summary.acknowledged > 0
      ? ` ${sentence(
          'reportReconciliation.acknowledgedEarlier',
          { count: summary.acknowledged },
          { link: (text) => `<a href="#acknowledged">${e(text)}</a>` },
        )}`
      : '';
  if (summary.needingPerson > 0) {
    const verdict = t('reportReconciliation.needPerson', {
      needing: summary.needingPerson,
      findings: summary.findings,
    });
    out.push(`<p class="verdict needs">${e(verdict)}${acked}</p>`);
  } else {
    const verdict = t('reportReconciliation.nothingNeeds', { findings: summary.findings });
    out.push(`<p class="verdict clear">${e(verdict)}${acked}</p>`);
  }
  const found = summary.byType.filter((entry) => entry.count > 0);
  const nothing = summary.byType.filter((entry) => entry.count === 0);
  out.push(
    '<table>',
    `<caption>${e(t('reportReconciliation.byType'))}</caption>`,
    `<thead><tr>${th(t('reportReconciliation.head.finding'))}${th(t('reportReconciliation.head.severity'))}` +
      `${thNum('reportReconciliation.head.count')}${thNum('reportReconciliation.head.needPerson')}${thNum('reportReconciliation.head.totals')}</tr></thead>`,
    '<tbody>',
  );
  for (const entry of found) {
    out.push(
      `<tr><th scope="row"><a href="#${entry.type}">${e(typeTitle(entry.type))}</a></th>` +
        `<td><span class="badge ${entry.severity}">${e(t(`findingType.severity.${entry.severity}`))}</span></td>` +
        `<td class="num">${entry.count}</td><td class="num">${entry.needingPerson}</td><td class="num">${totals(entry.totals, fmt)}</td></tr>`,
    );
  }
  if (found.length === 0) out.push(`<tr><td colspan="5">${e(t('reportReconciliation.noFindings'))}</td></tr>`);
  out.push('</tbody>', '</table>');
  if (nothing.length > 0)
    out.push(
      '<details class="zero">',
      `<summary>${e(t('reportReconciliation.typesWithNothing', { count: nothing.length }))}</summary>`,
      `<ul>${nothing.map((entry) => `<li>${e(typeTitle(entry.type))}</li>`).join('')}</ul>`,
      '</details>',
    );
  out.push('</section>');
  return out;
}

function balancesSection(rows: readonly AccountBalance[], fmt: ReportFormats): string[] {
  const heads = (['opening', 'sent', 'bookedOut', 'bookedIn', 'closing', 'bankClosing', 'difference'] as const).map(
    (h) => thNum(`reportReconciliation.head.${h}`),
  );
  const out: string[] = [
    '<section aria-labelledby="balances">',
    `<h2 id="balances">${e(t('reportReconciliation.balances'))}</h2>`,
    `<p class="action">${e(t('reportReconciliation.balancesRule'))}</p>`,
    '<table>',
    `<caption>${e(t('reportReconciliation.balancesCaption'))}</caption>`,
    `<thead><tr>${th(t('reportReconciliation.head.account'))}${th(t('reportReconciliation.head.currency'))}${heads.join('')}</tr></thead>`,
    '<tbody>',
  ];
  for (const b of rows) {
    const cells = [b.opening, b.sent, b.bookedOut, b.bookedIn, b.closing, b.reported, b.difference].map(
      (m) => `<td class="num">${m ? e(fmt.amount(m)) : '—'}</td>`,
    );
    const off = b.difference && b.difference.minor !== 0n ? ' class="off"' : '';
    out.push(`<tr${off}><th scope="row">${iban(b.accountIban)}</th><td>${e(b.currency)}</td>${cells.join('')}</tr>`);
  }
  if (rows.length === 0) out.push(`<tr><td colspan="9">${e(t('reportReconciliation.noBalances'))}</td></tr>`);
  out.push('</tbody>', '</table>', '</section>');
  return out;
}

function agingSection(rows: readonly AgedItems[], fmt: ReportFormats): string[] {
  const out: string[] = [
    '<section aria-labelledby="aging">',
    `<h2 id="aging">${e(t('reportReconciliation.aging'))}</h2>`,
    `<p class="action">${e(t('reportReconciliation.agingRule'))}</p>`,
    '<table>',
    `<caption>${e(t('reportReconciliation.agingCaption'))}</caption>`,
    `<thead><tr>${th(t('reportReconciliation.head.age'))}${thNum('reportReconciliation.head.count')}${thNum('reportReconciliation.head.totals')}</tr></thead>`,
    '<tbody>',
  ];
  for (const a of rows) {
    const age = t('reportReconciliation.age', { bucket: a.bucket === 'over 5' ? 'over5' : a.bucket });
    out.push(
      `<tr><th scope="row">${e(age)}</th><td class="num">${a.count}</td><td class="num">${totals(a.totals, fmt)}</td></tr>`,
    );
  }
  out.push('</tbody>', '</table>', '</section>');
  return out;
}

function acknowledgedSection(rows: readonly Finding[], shown: number, timeZone: string, fmt: ReportFormats): string[] {
  const heading = t(
    rows.some((f) => f.acknowledged?.kind === 'confirmed')
      ? 'reportReconciliation.acknowledgedConfirmed'
      : 'reportReconciliation.acknowledged',
  );
  const h = (key: string) => th(t(`reportReconciliation.head.${key}` as MessageKey));
  const out: string[] = [
    '<section aria-labelledby="acknowledged">',
    `<h2 id="acknowledged">${e(t('reportReconciliation.headingCount', { heading, count: rows.length }))}</h2>`,
    `<p class="action">${e(t('reportReconciliation.acknowledgedRule'))}</p>`,
    '<table>',
    `<caption>${e(t('reportReconciliation.captionCount', { heading, count: rows.length }))}</caption>`,
    `<thead><tr>${h('finding')}${h('counterparty')}${thNum('reportReconciliation.head.amount')}${h('decidedBy')}${h('when')}${h('why')}${h('whatItWas')}${h('id')}</tr></thead>`,
    '<tbody>',
  ];
  for (const f of rows.slice(0, shown)) {
    const ack = f.acknowledged!;
    const amount = f.amount ?? f.bookedAmount;
    const name =
      ack.kind === 'confirmed' ? t('reportReconciliation.confirmed', { title: typeTitle(f.type) }) : typeTitle(f.type);
    out.push(
      `<tr><th scope="row">${e(name)}</th><td class="text">${e(f.counterparty ?? f.accountIban ?? '')}</td>` +
        `<td class="num">${amount ? e(fmt.money(amount)) : ''}</td><td class="text">${e(ack.by)}</td>` +
        `<td class="date">${e(fmt.when(ack.at, timeZone, 'abbreviation'))}</td><td class="text">${e(ack.reason ?? '')}</td>` +
        `<td class="text">${e(recordedSentence(fmt.locale, f.message, f.said, { timeZone }))}</td><td class="id ref">${e(f.id ?? '')}</td></tr>`,
    );
  }
  out.push('</tbody>', '</table>');
  if (shown < rows.length)
    out.push(`<p class="truncated">${e(t('reportReconciliation.truncated', { shown, count: rows.length }))}</p>`);
  out.push('</section>');
  return out;
}

function typeSection(type: FindingType, rows: readonly Finding[], shown: number, fmt: ReportFormats): string[] {
  const columns = COLUMNS_OF[type];
  const title = typeTitle(type);
  const heads = columns.map((c) => (c.kind === 'num' ? thNum(c.head) : th(t(c.head))));
  const out: string[] = [
    `<section aria-labelledby="${type}">`,
    `<h2 id="${type}">${e(t('reportReconciliation.headingCount', { heading: title, count: rows.length }))}</h2>`,
    `<p class="action">${sentence(
      'reportReconciliation.whatToDo',
      { action: t(`findingType.${type}.action`) },
      { b: (text) => `<strong>${e(text)}</strong>` },
    )}</p>`,
    '<table>',
    `<caption>${e(t('reportReconciliation.captionCount', { heading: title, count: rows.length }))}</caption>`,
    `<thead><tr>${heads.join('')}</tr></thead>`,
    '<tbody>',
  ];
  for (let i = 0; i < shown; i++) {
    const finding = rows[i]!;
    const cells = columns.map((c, n) => {
      const raw = c.cell(finding, fmt) ?? '';
      const text = c.kind === 'iban' || c.kind === 'party' ? keepIbansWhole(raw) : e(raw);
      // The first column names the row, so it is the row header.
      if (n === 0) return `<th scope="row" class="${c.kind}">${text}</th>`;
      return `<td class="${c.kind}">${text}</td>`;
    });
    out.push(`<tr>${cells.join('')}</tr>`);
  }
  out.push('</tbody>', '</table>');
  if (shown < rows.length)
    out.push(`<p class="truncated">${e(t('reportReconciliation.truncated', { shown, count: rows.length }))}</p>`);
  out.push('</section>');
  return out;
}
