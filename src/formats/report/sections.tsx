// The sections of the reconciliation report (html.tsx): the summary with its verdict, balances
// per account, open payments by age, one table per finding type, and what people acknowledged.
// Every value is a plain string or number here; the template engine escapes it. The sentences
// come from the catalogue in the language the report is rendered in (html.tsx's withLocale).
import type { Money } from '../../domain/money.js';
import type { Finding, FindingType } from '../../domain/reconcile/findings.js';
import type { AccountBalance, AgedItems } from '../../domain/reconcile/balances.js';
import type { ReconcileSummary } from '../../domain/reconcile/summary.js';
import { Sentence, Table, type Child } from '../../html/index.js';
import { recordedSentence, t, type MessageKey } from '../../i18n/index.js';
import { COLUMNS_OF } from './columns.js';
import type { ReportFormats } from './report-formats.js';

/** A finding type's heading in the report's language. */
export const typeTitle = (type: FindingType): string => t(`findingType.${type}.title`);

/** An IBAN in groups of four that never breaks inside the number. */
export function Iban({ text }: { text: string }) {
  return <span class="iban">{text.replace(/(.{4})(?=.)/g, '$1\u00a0')}</span>;
}

/** A text with every IBAN in it kept whole (a plain call, not a component: it is in many cells). */
function keepIbansWhole(text: string): Child {
  const parts = text.split(/\b([A-Z]{2}\d{2}[A-Z0-9]{8,30})\b/);
  return parts.length === 1 ? text : parts.map((part, i) => (i % 2 === 1 ? <Iban text={part} /> : part));
}

/** Totals by currency, one a line. */
function Totals({ totals, fmt }: { totals: readonly Money[]; fmt: ReportFormats }) {
  return <>{totals.map((m, i) => [i > 0 && <br />, fmt.money(m)])}</>;
}

const num = (key: MessageKey) => ({ text: t(key), class: 'num' });

export function SummarySection({ summary, fmt }: { summary: ReconcileSummary; fmt: ReportFormats }) {
  const found = summary.byType.filter((entry) => entry.count > 0);
  const nothing = summary.byType.filter((entry) => entry.count === 0);
  const acked = summary.acknowledged > 0 && (
    <>
      {' '}
      <Sentence
        k="reportReconciliation.acknowledgedEarlier"
        values={{ count: summary.acknowledged }}
        tags={{ link: (text) => <a href="#acknowledged">{text}</a> }}
      />
    </>
  );
  return (
    <section aria-labelledby="summary">
      <h2 id="summary">{t('reportReconciliation.summary')}</h2>
      {summary.needingPerson > 0 ? (
        <p class="verdict needs">
          {t('reportReconciliation.needPerson', { needing: summary.needingPerson, findings: summary.findings })}
          {acked}
        </p>
      ) : (
        <p class="verdict clear">
          {t('reportReconciliation.nothingNeeds', { findings: summary.findings })}
          {acked}
        </p>
      )}
      <Table
        caption={t('reportReconciliation.byType')}
        head={[
          t('reportReconciliation.head.finding'),
          t('reportReconciliation.head.severity'),
          num('reportReconciliation.head.count'),
          num('reportReconciliation.head.needPerson'),
          num('reportReconciliation.head.totals'),
        ]}
        rows={found}
        empty={t('reportReconciliation.noFindings')}
        row={(entry) => (
          <tr>
            <th scope="row">
              <a href={`#${entry.type}`}>{typeTitle(entry.type)}</a>
            </th>
            <td>
              <span class={`badge ${entry.severity}`}>{t(`findingType.severity.${entry.severity}`)}</span>
            </td>
            <td class="num">{entry.count}</td>
            <td class="num">{entry.needingPerson}</td>
            <td class="num">
              <Totals totals={entry.totals} fmt={fmt} />
            </td>
          </tr>
        )}
      />
      {/* A type with nothing in it is named, not given a row of zeros: the rows that count stand out. */}
      {nothing.length > 0 && (
        <details class="zero">
          <summary>{t('reportReconciliation.typesWithNothing', { count: nothing.length })}</summary>
          <ul>
            {nothing.map((entry) => (
              <li>{typeTitle(entry.type)}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

export function BalancesSection({ rows, fmt }: { rows: readonly AccountBalance[]; fmt: ReportFormats }) {
  const heads = (['opening', 'sent', 'bookedOut', 'bookedIn', 'closing', 'bankClosing', 'difference'] as const).map(
    (h) => num(`reportReconciliation.head.${h}`),
  );
  return (
    <section aria-labelledby="balances">
      <h2 id="balances">{t('reportReconciliation.balances')}</h2>
      <p class="action">{t('reportReconciliation.balancesRule')}</p>
      <Table
        caption={t('reportReconciliation.balancesCaption')}
        head={[t('reportReconciliation.head.account'), t('reportReconciliation.head.currency'), ...heads]}
        rows={rows}
        empty={t('reportReconciliation.noBalances')}
        row={(b) => (
          <tr class={b.difference && b.difference.minor !== 0n ? 'off' : undefined}>
            <th scope="row">
              <Iban text={b.accountIban} />
            </th>
            <td>{b.currency}</td>
            {[b.opening, b.sent, b.bookedOut, b.bookedIn, b.closing, b.reported, b.difference].map((m) => (
              <td class="num">{m ? fmt.amount(m) : '—'}</td>
            ))}
          </tr>
        )}
      />
    </section>
  );
}

export function AgingSection({ rows, fmt }: { rows: readonly AgedItems[]; fmt: ReportFormats }) {
  return (
    <section aria-labelledby="aging">
      <h2 id="aging">{t('reportReconciliation.aging')}</h2>
      <p class="action">{t('reportReconciliation.agingRule')}</p>
      <Table
        caption={t('reportReconciliation.agingCaption')}
        head={[
          t('reportReconciliation.head.age'),
          num('reportReconciliation.head.count'),
          num('reportReconciliation.head.totals'),
        ]}
        rows={rows}
        row={(a) => (
          <tr>
            <th scope="row">{t('reportReconciliation.age', { bucket: a.bucket === 'over 5' ? 'over5' : a.bucket })}</th>
            <td class="num">{a.count}</td>
            <td class="num">
              <Totals totals={a.totals} fmt={fmt} />
            </td>
          </tr>
        )}
      />
    </section>
  );
}

export function AcknowledgedSection(props: {
  rows: readonly Finding[];
  /** How many of `rows` are listed; the rest are counted and in the CSV. */
  shown: number;
  timeZone: string;
  fmt: ReportFormats;
}) {
  const { rows, shown, timeZone, fmt } = props;
  const heading = t(
    rows.some((f) => f.acknowledged?.kind === 'confirmed')
      ? 'reportReconciliation.acknowledgedConfirmed'
      : 'reportReconciliation.acknowledged',
  );
  const h = (key: string) => t(`reportReconciliation.head.${key}` as MessageKey);
  return (
    <section aria-labelledby="acknowledged">
      <h2 id="acknowledged">{t('reportReconciliation.headingCount', { heading, count: rows.length })}</h2>
      <p class="action">{t('reportReconciliation.acknowledgedRule')}</p>
      <Table
        caption={t('reportReconciliation.captionCount', { heading, count: rows.length })}
        head={[
          h('finding'),
          h('counterparty'),
          num('reportReconciliation.head.amount'),
          h('decidedBy'),
          h('when'),
          h('why'),
          h('whatItWas'),
          h('id'),
        ]}
        rows={rows.slice(0, shown)}
        row={(f) => {
          const ack = f.acknowledged!;
          const amount = f.amount ?? f.bookedAmount;
          return (
            <tr>
              <th scope="row">
                {ack.kind === 'confirmed'
                  ? t('reportReconciliation.confirmed', { title: typeTitle(f.type) })
                  : typeTitle(f.type)}
              </th>
              <td class="text">{f.counterparty ?? f.accountIban ?? ''}</td>
              <td class="num">{amount ? fmt.money(amount) : ''}</td>
              <td class="text">{ack.by}</td>
              <td class="date">{fmt.when(ack.at, timeZone, 'abbreviation')}</td>
              <td class="text">{ack.reason ?? ''}</td>
              <td class="text">{recordedSentence(fmt.locale, f.message, f.said, { timeZone })}</td>
              <td class="id ref">{f.id ?? ''}</td>
            </tr>
          );
        }}
      />
      {shown < rows.length && (
        <p class="truncated">{t('reportReconciliation.truncated', { shown, count: rows.length })}</p>
      )}
    </section>
  );
}

export function TypeSection(props: { type: FindingType; rows: readonly Finding[]; shown: number; fmt: ReportFormats }) {
  const { type, rows, shown, fmt } = props;
  const columns = COLUMNS_OF[type];
  const title = typeTitle(type);
  return (
    <section aria-labelledby={type}>
      <h2 id={type}>{t('reportReconciliation.headingCount', { heading: title, count: rows.length })}</h2>
      <p class="action">
        <Sentence
          k="reportReconciliation.whatToDo"
          values={{ action: t(`findingType.${type}.action`) }}
          tags={{ b: (text) => <strong>{text}</strong> }}
        />
      </p>
      <Table
        caption={t('reportReconciliation.captionCount', { heading: title, count: rows.length })}
        head={columns.map((c) => (c.kind === 'num' ? num(c.head) : t(c.head)))}
        rows={rows.slice(0, shown)}
        row={(finding) => (
          <tr>
            {columns.map((c, n) => {
              const raw = c.cell(finding, fmt) ?? '';
              const text = c.kind === 'iban' || c.kind === 'party' ? keepIbansWhole(raw) : raw;
              // The first column names the row, so it is the row header.
              return n === 0 ? (
                <th scope="row" class={c.kind}>
                  {text}
                </th>
              ) : (
                <td class={c.kind}>{text}</td>
              );
            })}
          </tr>
        )}
      />
      {shown < rows.length && (
        <p class="truncated">{t('reportReconciliation.truncated', { shown, count: rows.length })}</p>
      )}
    </section>
  );
}
