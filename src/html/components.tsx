// The components the console's pages and the HTML reports share: tables with a caption and
// scoped headers, a record's facts, an amount, an instant in a zone and a link. They take plain
// typed values (a page's view model) and leave the escaping to the engine, so a page never
// builds HTML by hand. Sentences come from the message catalogue (src/i18n) in the language of
// the request being rendered.
import type { Child } from 'hono/jsx';
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { Money } from '../domain/money.js';
import { currentLocale, format, translateParts, type MessageKey, type MessageValues } from '../i18n/index.js';
import { formatInZone, zoneLabel } from '../domain/zoned-time.js';

/** A column header: its text, or its text with a class (e.g. "num" for a right-aligned column). */
export type HeadCell = string | { text: string; class: string };

interface TableBase<T> {
  caption: string;
  /** "skip" keeps the caption for screen readers alone, where the page's heading says it already. */
  captionClass?: string;
  head: readonly HeadCell[];
  rows: readonly T[];
  /**
   * What an empty table says: a sentence in one row across its columns, or `{ note }` shown
   * instead of the table. Without it an empty table has an empty body.
   */
  empty?: string | { note: string };
}

/** Each row as its data cells (`cells`), or as a whole `<tr>` (`row`) where cells need classes or row headers. */
export type TableProps<T> = TableBase<T> &
  ({ cells: (row: T) => readonly Child[] } | { row: (row: T, index: number) => JSX.Element });

export function Table<T>(props: TableProps<T>) {
  const { caption, captionClass, head, rows, empty } = props;
  if (rows.length === 0 && typeof empty === 'object') return <p class="muted">{empty.note}</p>;
  const body =
    'cells' in props
      ? rows.map((r) => (
          <tr>
            {props.cells(r).map((c) => (
              <td>{c}</td>
            ))}
          </tr>
        ))
      : rows.map((r, i) => props.row(r, i));
  // One row a line, as people reading the source (and line-wise tools) expect.
  const lines = body.flatMap((tr) => ['\n', tr]);
  return (
    <Scroll caption={caption}>
      <table>
        <caption class={captionClass}>{caption}</caption>
        <thead>
          <tr>
            {head.map((h) =>
              typeof h === 'string' ? (
                <th scope="col">{h}</th>
              ) : (
                <th scope="col" class={h.class}>
                  {h.text}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && typeof empty === 'string' ? (
            <tr>
              <td colspan={head.length}>{empty}</td>
            </tr>
          ) : (
            lines
          )}
          {'\n'}
        </tbody>
      </table>
    </Scroll>
  );
}

/**
 * A table's own region: on a screen narrower than the table (a phone) the table scrolls sideways
 * inside it, never the page. Named by the caption and focusable, so a keyboard can scroll it too.
 */
function Scroll({ caption, children }: { caption: string; children: Child }) {
  return (
    <div class="table" role="region" aria-label={caption} tabindex={0}>
      {children}
    </div>
  );
}

/** One record as a vertical table: each row's header cell is the row's scope. */
export function Facts({ caption, rows }: { caption: string; rows: readonly (readonly [string, Child])[] }) {
  return (
    <Scroll caption={caption}>
      <table>
        <caption>{caption}</caption>
        <tbody>
          {rows.map(([name, value]) => [
            '\n',
            <tr>
              <th scope="row">{name}</th>
              <td>{value}</td>
            </tr>,
          ])}
          {'\n'}
        </tbody>
      </table>
    </Scroll>
  );
}

/** An amount for people, "1,975.20 NOK" or "1 975,20 kr" by language (src/i18n/format.ts); never a float. */
export function Amount({ money }: { money: Money }) {
  return <>{format.money(money, currentLocale())}</>;
}

/**
 * A sentence from the catalogue, its tagged parts made elements by `tags` (e.g. a link around
 * "Sign in"): the translation decides where they sit, the template what they are.
 */
export function Sentence({
  k,
  values = {},
  tags = {},
}: {
  k: MessageKey;
  values?: MessageValues;
  tags?: Readonly<Record<string, (text: string) => JSX.Element>>;
}) {
  return <>{translateParts<JSX.Element>(currentLocale(), k, values, tags)}</>;
}

/**
 * An instant in a time zone, "2026-01-12 09:00 Europe/Oslo" (or "… GMT+1" with the zone's
 * abbreviation), in bokmål "12.01.2026, 09:00 Europe/Oslo", or "–" when there is none.
 */
export function When({ at, zone, zoneName }: { at: Date | undefined; zone: string; zoneName?: 'abbreviation' }) {
  if (!at) return <>–</>;
  const options = zoneName ? { zone: zoneName } : {};
  const locale = currentLocale();
  // English keeps the sortable form it has always had; other languages read the date as they write it.
  if (locale === 'en') return <>{formatInZone(at, zone, options)}</>;
  return <>{`${format.dateTime(at, zone, locale)} ${zoneLabel(at, zone, options)}`}</>;
}

/** A link; its address and text are escaped like every other value. */
export function Link({ href, children }: { href: string; children?: Child }) {
  return <a href={href}>{children}</a>;
}
