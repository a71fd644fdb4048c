// The sections of the reconciliation report (html.tsx): the summary with its verdict, balances
// per account, open payments by age, one table per finding type, and what people acknowledged.
// Every value is a plain string or number here; the template engine escapes it.
import { displayAmount, displayMoney } from '../../domain/display.js';
import type { Money } from '../../domain/money.js';
import { FINDING_TYPES, type Finding, type FindingType } from '../../domain/reconcile/findings.js';
import type { AccountBalance, AgedItems } from '../../domain/reconcile/balances.js';
import type { ReconcileSummary } from '../../domain/reconcile/summary.js';
import { Table, When, type Child } from '../../html/index.js';
import { COLUMNS_OF, money } from './columns.js';

/** "s" after a count other than one. */
export function plural(count: number): string {
  return count === 1 ? '' : 's';
}

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
function Totals({ totals }: { totals: readonly Money[] }) {
  return <>{totals.map((m, i) => [i > 0 && <br />, displayMoney(m)])}</>;
}

const num = (text: string) => ({ text, class: 'num' });

export function SummarySection({ summary }: { summary: ReconcileSummary }) {
  const found = summary.byType.filter((entry) => entry.count > 0);
  const nothing = summary.byType.filter((entry) => entry.count === 0);
  const acked = summary.acknowledged > 0 && (
    <>
      {' '}
      <a href="#acknowledged">{summary.acknowledged} acknowledged</a> earlier and listed at the end.
    </>
  );
  return (
    <section aria-labelledby="summary">
      <h2 id="summary">Summary</h2>
      {summary.needingPerson > 0 ? (
        <p class="verdict needs">
          {summary.needingPerson} of {summary.findings} findings need a person.{acked}
        </p>
      ) : (
        <p class="verdict clear">
          Nothing needs a person: {summary.findings} findings, all informational.{acked}
        </p>
      )}
      <Table
        caption="Findings by type, with totals by currency"
        head={['Finding', 'Severity', num('Count'), num('Need a person'), num('Total by currency')]}
        rows={found}
        empty="No findings in the period."
        row={(entry) => (
          <tr>
            <th scope="row">
              <a href={`#${entry.type}`}>{entry.title}</a>
            </th>
            <td>
              <span class={`badge ${entry.severity}`}>{entry.severity}</span>
            </td>
            <td class="num">{entry.count}</td>
            <td class="num">{entry.needingPerson}</td>
            <td class="num">
              <Totals totals={entry.totals} />
            </td>
          </tr>
        )}
      />
      {/* A type with nothing in it is named, not given a row of zeros: the rows that count stand out. */}
      {nothing.length > 0 && (
        <details class="zero">
          <summary>{`${nothing.length} finding types had nothing`}</summary>
          <ul>
            {nothing.map((entry) => (
              <li>{entry.title}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

export function BalancesSection({ rows }: { rows: readonly AccountBalance[] }) {
  const heads = ['Opening balance', 'Sent by settle', 'Booked out', 'Booked in', 'Closing balance'];
  return (
    <section aria-labelledby="balances">
      <h2 id="balances">Balances per account</h2>
      <p class="action">
        Closing = opening − booked out + booked in, over the period; it should equal the bank’s closing balance. A
        difference means a booking is missing or doubled.
      </p>
      <Table
        caption="Balances per account and currency over the period"
        head={['Account', 'Currency', ...[...heads, 'Bank’s closing balance', 'Difference'].map(num)]}
        rows={rows}
        empty="No account had payments, bookings or statements in the period."
        row={(b) => (
          <tr class={b.difference && b.difference.minor !== 0n ? 'off' : undefined}>
            <th scope="row">
              <Iban text={b.accountIban} />
            </th>
            <td>{b.currency}</td>
            {[b.opening, b.sent, b.bookedOut, b.bookedIn, b.closing, b.reported, b.difference].map((m) => (
              <td class="num">{m ? displayAmount(m) : '—'}</td>
            ))}
          </tr>
        )}
      />
    </section>
  );
}

export function AgingSection({ rows }: { rows: readonly AgedItems[] }) {
  return (
    <section aria-labelledby="aging">
      <h2 id="aging">Open payments by age</h2>
      <p class="action">
        Payments sent but not booked (or without an answer), by business days after their execution date.
      </p>
      <Table
        caption="Open payments by business days after execution"
        head={['Business days after execution', num('Count'), num('Total by currency')]}
        rows={rows}
        row={(a) => (
          <tr>
            <th scope="row">{a.bucket}</th>
            <td class="num">{a.count}</td>
            <td class="num">
              <Totals totals={a.totals} />
            </td>
          </tr>
        )}
      />
    </section>
  );
}

export function AcknowledgedSection({ rows, timeZone }: { rows: readonly Finding[]; timeZone: string }) {
  const heading = rows.some((f) => f.acknowledged?.kind === 'confirmed')
    ? 'Acknowledged and confirmed'
    : 'Acknowledged';
  return (
    <section aria-labelledby="acknowledged">
      <h2 id="acknowledged">
        {heading} ({rows.length})
      </h2>
      <p class="action">
        A person looked at these and recorded why they need nothing more (or confirmed a proposed match); each comes
        back as needing a person if its facts change (settle findings reopen ID brings it back by hand).
      </p>
      <Table
        caption={`${heading}: ${rows.length} finding${plural(rows.length)}`}
        head={['Finding', 'Creditor / counterparty', num('Amount'), 'Decided by', 'When', 'Why', 'What it was', 'Id']}
        rows={rows}
        row={(f) => {
          const ack = f.acknowledged!;
          return (
            <tr>
              <th scope="row">
                {ack.kind === 'confirmed' ? 'Confirmed: ' : ''}
                {FINDING_TYPES[f.type].title}
              </th>
              <td class="text">{f.counterparty ?? f.accountIban ?? ''}</td>
              <td class="num">{money(f.amount ?? f.bookedAmount) ?? ''}</td>
              <td class="text">{ack.by}</td>
              <td class="date">
                <When at={ack.at} zone={timeZone} zoneName="abbreviation" />
              </td>
              <td class="text">{ack.reason ?? ''}</td>
              <td class="text">{f.message}</td>
              <td class="id ref">{f.id ?? ''}</td>
            </tr>
          );
        }}
      />
    </section>
  );
}

export function TypeSection(props: {
  type: FindingType;
  title: string;
  action: string;
  rows: readonly Finding[];
  shown: number;
}) {
  const { type, title, action, rows, shown } = props;
  const columns = COLUMNS_OF[type];
  return (
    <section aria-labelledby={type}>
      <h2 id={type}>
        {title} ({rows.length})
      </h2>
      <p class="action">
        <strong>What to do:</strong> {action}
      </p>
      <Table
        caption={`${title}: ${rows.length} finding${plural(rows.length)}`}
        head={columns.map((c) => (c.kind === 'num' ? num(c.head) : c.head))}
        rows={rows.slice(0, shown)}
        row={(finding) => (
          <tr>
            {columns.map((c, n) => {
              const raw = c.cell(finding) ?? '';
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
        <p class="truncated">
          Showing the first {shown} of {rows.length}; the CSV report lists every one.
        </p>
      )}
    </section>
  );
}
