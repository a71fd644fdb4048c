// Small helpers the console's pages share: escaped table cells and times in a company's zone.
import { escapeHtml } from '../../../formats/report/escape.js';

export { escapeHtml };

/** "2026-01-05 08:00" in the zone (the company's), for people rather than machines. */
export function localTime(at: Date | string, timeZone: string): string {
  const date = typeof at === 'string' ? new Date(at) : at;
  if (Number.isNaN(date.getTime())) return escapeHtml(String(at));
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

/** A table with a caption; `rows` are already-escaped cells. Empty: the `empty` sentence instead. */
export function table(caption: string, head: readonly string[], rows: readonly string[][], empty: string): string {
  if (rows.length === 0) return `<p class="muted">${escapeHtml(empty)}</p>`;
  const th = head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('\n');
  return `<table><caption class="skip">${escapeHtml(caption)}</caption><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

export function zoneOf(companies: readonly { id: string; timeZone: string }[], company: string): string {
  return companies.find((c) => c.id === company)?.timeZone ?? 'UTC';
}
